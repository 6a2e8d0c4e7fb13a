private typealias S = StyleProperties

/// The paint properties of fill layers.
enum FillPaintProperty: Int, PaintProperty {
    case antialias, opacity, color, outlineColor, pattern, emissiveStrength, translate, translateAnchor

    static let layerType = LayerType.fill
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .antialias: return S.spec("fill-antialias", .boolean, default: .bool(true), .zoom, layout: false)
        case .opacity: return S.number("fill-opacity", 1, min: 0, max: 1, .data)
        case .color: return S.color("fill-color", "#000000", .data)
        case .outlineColor: return S.color("fill-outline-color", nil, .data)
        case .pattern: return S.spec("fill-pattern", .resolvedImage, .data, transition: true, layout: false)
        case .emissiveStrength: return S.emissive("fill")
        case .translate: return S.translate("fill")
        case .translateAnchor: return S.translateAnchor("fill")
        }
    }

    /// (`fill-antialias: false` is drawn feature by feature: the layer checks its value.)
    var drawsAlike: Bool {
        switch self {
        case .color, .opacity, .emissiveStrength, .antialias: return true
        default: return false
        }
    }
}

/// The layout properties of fill layers.
enum FillLayoutProperty: Int, LayoutProperty {
    case sortKey, visibility

    static let layerType = LayerType.fill
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .sortKey: return S.layoutNumber("fill-sort-key", nil, .data, interpolated: false)
        case .visibility: return S.visibility
        }
    }

    var drawsAlike: Bool { self == .visibility }
}
