private typealias S = StyleProperties

/// The paint properties of raster layers.
enum RasterPaintProperty: Int, PaintProperty {
    case opacity, hueRotate, brightnessMin, brightnessMax, saturation, contrast, resampling, fadeDuration, emissiveStrength

    static let layerType = LayerType.raster
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .opacity: return S.number("raster-opacity", 1, min: 0, max: 1, .zoom)
        case .hueRotate: return S.number("raster-hue-rotate", 0, .zoom)
        case .brightnessMin: return S.number("raster-brightness-min", 0, min: 0, max: 1, .zoom)
        case .brightnessMax: return S.number("raster-brightness-max", 1, min: 0, max: 1, .zoom)
        case .saturation: return S.number("raster-saturation", 0, min: -1, max: 1, .zoom)
        case .contrast: return S.number("raster-contrast", 0, min: -1, max: 1, .zoom)
        case .resampling:
            return S.spec("raster-resampling", .enumeration(["linear", "nearest"]), default: .string("linear"), .zoom, layout: false)
        case .fadeDuration:
            return S.spec("raster-fade-duration", .number, default: .number(300), min: 0, .zoom, interpolated: true, layout: false)
        case .emissiveStrength: return S.emissive("raster")
        }
    }
}

/// The layout properties of raster layers.
enum RasterLayoutProperty: Int, LayoutProperty {
    case visibility

    static let layerType = LayerType.raster
    static let table = makeTable()

    var spec: PropertySpec { S.visibility }
}
