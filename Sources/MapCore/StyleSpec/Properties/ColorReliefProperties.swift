private typealias S = StyleProperties

/// The paint properties of color-relief layers.
enum ColorReliefPaintProperty: Int, PaintProperty {
    case opacity, color

    static let layerType = LayerType.colorRelief
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .opacity: return S.number("color-relief-opacity", 1, min: 0, max: 1, .zoom)
        // A ramp over `["elevation"]` (no default: nothing is drawn without one). It reads the
        // elevation as data-driven properties read the feature, so it is kept as an expression.
        case .color: return S.spec("color-relief-color", .color, .data, interpolated: true, layout: false)
        }
    }
}

/// The layout properties of color-relief layers.
enum ColorReliefLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.colorRelief
    static let table = makeTable()

    var spec: PropertySpec { S.visibility }
}
