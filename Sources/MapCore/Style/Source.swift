/// A source of the map's style, by kind: what the layers that name it draw. Every kind answers
/// for the part of the world a frame needs (`GeoJSONData` through its index, `VectorSource` by
/// level of detail); tiled sources by the tiles the view covers.
public enum Source: Sendable {
    /// GeoJSON features, spatially indexed: a frame evaluates only those around the view.
    case geojson(GeoJSONData)
    /// An image placed by four corners: a sequence of frames, each with an optional valid time
    /// (`MapModel.setImageFrame` chooses the one shown).
    case image(ImageSource)
    /// Vector data by source layer, each layer's geometry at several levels of detail (the
    /// embedded basemap).
    case vector(VectorSource)
    /// Vector or raster tiles, loaded as the view needs them (`TileSet`).
    case tiles(TileSet)

    public var typeName: String {
        switch self {
        case .geojson: return "geojson"
        case .image: return "image"
        case .vector: return "vector"
        case let .tiles(t): return t.kind.rawValue
        }
    }
}

/// Vector data by source-layer name.
public final class VectorSource: Sendable {
    public let layers: [String: GeometrySet]
    public init(layers: [String: GeometrySet]) { self.layers = layers }
}
