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

extension HillshadePaintProperty {
    /// The properties that take one value per light of the multidirectional method as well as
    /// a single value: `[315, 45]`, `["#000", "#333"]`.
    static let perLight: Set<String> = ["hillshade-illumination-direction", "hillshade-illumination-altitude",
                                        "hillshade-shadow-color", "hillshade-highlight-color"]

    /// An array of literal values for such a property (each checked as a single value is), nil
    /// for anything else (read as usual: a single value, an expression, a function).
    static func perLightValues(_ json: JSON, spec: PropertySpec, path: String) throws -> StyleValue? {
        guard perLight.contains(spec.name), case let .array(items) = json else { return nil }
        if case let .string(name)? = items.first, Operator(rawValue: name) != nil { return nil }
        guard !items.isEmpty else { throw StyleError("\(path): expected a value or a non-empty array of values, found []") }
        return .array(try items.enumerated().map { i, item in try PropertyValue.literal(item, spec: spec, path: "\(path)[\(i)]") })
    }
}
