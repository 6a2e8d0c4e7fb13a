private typealias S = StyleProperties

/// The paint properties of line layers.
enum LinePaintProperty: Int, PaintProperty {
    case opacity, color, width, gapWidth, offset, blur, dasharray, pattern, gradient, emissiveStrength, translate, translateAnchor

    static let layerType = LayerType.line
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .opacity: return S.number("line-opacity", 1, min: 0, max: 1, .data)
        case .color: return S.color("line-color", "#000000", .data)
        case .width: return S.number("line-width", 1, min: 0, .data)
        case .gapWidth: return S.number("line-gap-width", 0, min: 0, .data)
        case .offset: return S.number("line-offset", 0, .data)
        case .blur: return S.number("line-blur", 0, min: 0, .data)
        case .dasharray: return S.spec("line-dasharray", .numberArray(count: nil), min: 0, .data, transition: true, layout: false)
        case .pattern: return S.spec("line-pattern", .resolvedImage, .data, transition: true, layout: false)
        case .gradient: return S.spec("line-gradient", .color, .data, interpolated: true, layout: false)   // (data: reads line-progress)
        case .emissiveStrength: return S.emissive("line")
        case .translate: return S.translate("line")
        case .translateAnchor: return S.translateAnchor("line")
        }
    }

    var drawsAlike: Bool {
        switch self {
        case .color, .width, .opacity, .dasharray, .gapWidth, .blur, .emissiveStrength: return true
        default: return false
        }
    }
}

/// The layout properties of line layers.
enum LineLayoutProperty: Int, LayoutProperty {
    case cap, join, miterLimit, roundLimit, sortKey, visibility

    static let layerType = LayerType.line
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .cap: return S.layoutEnum("line-cap", ["butt", "round", "square"], "butt")
        case .join: return S.layoutEnum("line-join", ["bevel", "round", "miter"], "miter", .data)
        case .miterLimit: return S.layoutNumber("line-miter-limit", 2, .zoom)
        case .roundLimit: return S.layoutNumber("line-round-limit", 1.05, .zoom)
        case .sortKey: return S.layoutNumber("line-sort-key", nil, .data, interpolated: false)
        case .visibility: return S.visibility
        }
    }

    var drawsAlike: Bool { self != .sortKey }
}
