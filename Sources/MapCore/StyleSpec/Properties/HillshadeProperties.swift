private typealias S = StyleProperties

/// The paint properties of hillshade layers.
enum HillshadePaintProperty: Int, PaintProperty {
    case direction, altitude, anchor, exaggeration, shadowColor, highlightColor, accentColor, method

    static let layerType = LayerType.hillshade
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .direction:
            return S.spec("hillshade-illumination-direction", .number, default: .number(335), min: 0, max: 359, .zoom,
                          interpolated: true, layout: false)
        case .altitude:
            return S.spec("hillshade-illumination-altitude", .number, default: .number(45), min: 0, max: 90, .zoom,
                          interpolated: true, layout: false)
        case .anchor:
            return S.spec("hillshade-illumination-anchor", .enumeration(["map", "viewport"]), default: .string("viewport"), .zoom, layout: false)
        case .exaggeration: return S.number("hillshade-exaggeration", 0.5, min: 0, max: 1, .zoom)
        case .shadowColor: return S.color("hillshade-shadow-color", "#000000", .zoom)
        case .highlightColor: return S.color("hillshade-highlight-color", "#FFFFFF", .zoom)
        case .accentColor: return S.color("hillshade-accent-color", "#000000", .zoom)
        case .method:
            return S.spec("hillshade-method", .enumeration(["standard", "basic", "combined", "igor", "multidirectional"]),
                          default: .string("standard"), .zoom, layout: false)
        }
    }
}

/// The layout properties of hillshade layers.
enum HillshadeLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.hillshade
    static let table = makeTable()

    var spec: PropertySpec { S.visibility }
}
