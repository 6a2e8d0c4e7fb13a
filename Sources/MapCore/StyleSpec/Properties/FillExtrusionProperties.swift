private typealias S = StyleProperties

/// The paint properties of fill-extrusion layers (style specification v8). Heights and bases
/// are metres; below 0 they are clamped to 0 (a literal below 0 is refused, as the
/// specification's minimum says).
enum FillExtrusionPaintProperty: Int, PaintProperty {
    case opacity, color, translate, translateAnchor, pattern, height, base, verticalGradient

    static let layerType = LayerType.fillExtrusion
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .opacity: return S.number("fill-extrusion-opacity", 1, min: 0, max: 1, .zoom)
        case .color: return S.color("fill-extrusion-color", "#000000", .data)
        case .translate: return S.translate("fill-extrusion")
        case .translateAnchor: return S.translateAnchor("fill-extrusion")
        case .pattern: return S.spec("fill-extrusion-pattern", .resolvedImage, .data, transition: true, layout: false)
        case .height: return S.number("fill-extrusion-height", 0, min: 0, .data)
        case .base: return S.number("fill-extrusion-base", 0, min: 0, .data)
        case .verticalGradient:
            return S.spec("fill-extrusion-vertical-gradient", .boolean, default: .bool(true), .zoom, layout: false)
        }
    }
}

/// The layout properties of fill-extrusion layers.
enum FillExtrusionLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.fillExtrusion
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .visibility: return S.visibility
        }
    }
}
