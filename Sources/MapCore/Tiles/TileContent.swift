import Raster

/// What one loaded tile holds, ready to draw: a vector tile's features or a raster tile's image.
public enum TileContent: Sendable {
    case vector(VectorTileFeatures)
    case raster(any RasterTexture)

    /// Bytes of memory it takes, roughly (the tile cache is bounded by their sum).
    public var byteCount: Int {
        switch self {
        case let .vector(v): return v.byteCount
        case let .raster(r): return r.width * r.height * 4 + 64
        }
    }
}

/// A vector tile's features by source layer, in normalised Web Mercator and cut to the tile's
/// square (`TileSquare`); the features that reach its edges are marked, as a neighbouring tile
/// may hold the rest of them.
public final class VectorTileFeatures: Sendable {
    public struct Layer: Sendable {
        public let features: [GeoFeature]
        /// `touchesEdge[i]`: feature i reaches the square's edge.
        public let touchesEdge: [Bool]
    }

    public let tile: TileID
    public let layers: [String: Layer]
    public let byteCount: Int

    /// What a geometry takes in memory: its arrays' elements and headers (with the allocator's
    /// rounding) and the objects themselves, its outline's too.
    static func bytes(of g: FeatureGeometry) -> Int {
        let arrays = g.coordinates.capacity * 8 + (g.partStarts.capacity + g.polygonStarts.capacity) * 8 + 3 * 48
        return 112 + arrays + (g.outline.map(bytes(of:)) ?? 0)
    }

    /// The features of each source layer (geometry in normalised Web Mercator, as the tile gives
    /// it, buffer included), cut to the tile's square.
    public init(tile: TileID, layers: [String: [GeoFeature]]) {
        self.tile = tile
        let square = TileSquare(tile)
        var out: [String: Layer] = [:]
        var bytes = 256
        for (name, features) in layers {
            var kept: [GeoFeature] = [], edge: [Bool] = []
            kept.reserveCapacity(features.count); edge.reserveCapacity(features.count)
            for f in features {
                guard let (g, touches) = f.geometry.clipped(to: square) else { continue }
                kept.append(GeoFeature(geometry: g, evaluation: f.evaluation))
                edge.append(touches)
                bytes += Self.bytes(of: g) + 96       // (+ the feature's slot, its mark and its properties' header)
            }
            out[name] = Layer(features: kept, touchesEdge: edge)
        }
        self.layers = out
        byteCount = bytes
    }

    /// The features of layer `name` cut to `square` (a part of the tile's own, where this tile
    /// stands in for a missing child), with their edge marks.
    func features(_ name: String, in square: TileSquare) -> Layer? {
        guard let layer = layers[name] else { return nil }
        if square == TileSquare(tile) { return layer }
        var kept: [GeoFeature] = [], edge: [Bool] = []
        for f in layer.features {
            guard let (g, touches) = f.geometry.clipped(to: square) else { continue }
            kept.append(GeoFeature(geometry: g, evaluation: f.evaluation))
            edge.append(touches)
        }
        return Layer(features: kept, touchesEdge: edge)
    }
}
