private typealias S = StyleProperties

/// The paint properties of background layers.
enum BackgroundPaintProperty: Int, PaintProperty {
    case color, pattern, opacity, emissiveStrength

    static let layerType = LayerType.background
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .color: return S.color("background-color", "#000000", .zoom)
        case .pattern: return S.spec("background-pattern", .resolvedImage, .zoom, transition: true, layout: false)
        case .opacity: return S.number("background-opacity", 1, min: 0, max: 1, .zoom)
        case .emissiveStrength: return S.emissive("background")
        }
    }
}

/// The layout properties of background layers.
enum BackgroundLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.background
    static let table = makeTable()

    var spec: PropertySpec { S.visibility }
}
