private typealias S = StyleProperties

/// The paint properties of circle layers.
enum CirclePaintProperty: Int, PaintProperty {
    case radius, color, blur, opacity, pitchScale, pitchAlignment, strokeWidth, strokeColor, strokeOpacity, emissiveStrength,
         translate, translateAnchor

    static let layerType = LayerType.circle
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .radius: return S.number("circle-radius", 5, min: 0, .data)
        case .color: return S.color("circle-color", "#000000", .data)
        case .blur: return S.number("circle-blur", 0, .data)
        case .opacity: return S.number("circle-opacity", 1, min: 0, max: 1, .data)
        case .pitchScale:
            return S.spec("circle-pitch-scale", .enumeration(["map", "viewport"]), default: .string("map"), .zoom, layout: false)
        case .pitchAlignment:
            return S.spec("circle-pitch-alignment", .enumeration(["map", "viewport"]), default: .string("viewport"), .zoom, layout: false)
        case .strokeWidth: return S.number("circle-stroke-width", 0, min: 0, .data)
        case .strokeColor: return S.color("circle-stroke-color", "#000000", .data)
        case .strokeOpacity: return S.number("circle-stroke-opacity", 1, min: 0, max: 1, .data)
        case .emissiveStrength: return S.emissive("circle")
        case .translate: return S.translate("circle")
        case .translateAnchor: return S.translateAnchor("circle")
        }
    }
}

/// The layout properties of circle layers.
enum CircleLayoutProperty: Int, LayoutProperty {
    case sortKey, visibility

    static let layerType = LayerType.circle
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .sortKey: return S.layoutNumber("circle-sort-key", nil, .data, interpolated: false)
        case .visibility: return S.visibility
        }
    }
}
