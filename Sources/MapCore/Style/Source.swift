/// A source of the map's style, by kind: what the layers that name it draw. Every kind answers
/// for the part of the world a frame needs (`GeoJSONData` through its index, tiled sources by
/// the tiles the view covers).
public enum Source: Sendable {
    /// GeoJSON features, spatially indexed: a frame evaluates only those around the view.
    case geojson(GeoJSONData)
    /// An image placed by four corners: a sequence of frames, each with an optional valid time
    /// (`MapModel.setImageFrame` chooses the one shown).
    case image(ImageSource)
    /// Vector or raster tiles, loaded as the view needs them (`TileSet`).
    case tiles(TileSet)

    public var typeName: String {
        switch self {
        case .geojson: return "geojson"
        case .image: return "image"
        case let .tiles(t): return t.kind.rawValue
        }
    }
}
