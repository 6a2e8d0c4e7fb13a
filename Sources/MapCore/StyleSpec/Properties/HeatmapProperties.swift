private typealias S = StyleProperties

/// The paint properties of heatmap layers.
enum HeatmapPaintProperty: Int, PaintProperty {
    case radius, weight, intensity, color, opacity

    static let layerType = LayerType.heatmap
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .radius: return S.number("heatmap-radius", 30, min: 1, .data)
        case .weight:
            return S.spec("heatmap-weight", .number, default: .number(1), min: 0, .data, interpolated: true, layout: false)
        case .intensity: return S.number("heatmap-intensity", 1, min: 0, .zoom)
        // A colour ramp over ["heatmap-density"], neither zoom nor data (`HeatmapRamp`); unset, the
        // specification's default ramp.
        case .color: return S.spec(Self.colorName, .color, default: .null, .none, interpolated: true, layout: false)
        case .opacity: return S.number("heatmap-opacity", 1, min: 0, max: 1, .zoom)
        }
    }

    /// The one property where `["heatmap-density"]` may be used.
    static let colorName = "heatmap-color"
}

/// The layout properties of heatmap layers.
enum HeatmapLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.heatmap
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .visibility: return S.visibility
        }
    }
}
