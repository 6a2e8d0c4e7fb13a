import Foundation
import MapCore
import Raster

/// A tile's bytes made ready to draw (decoded, projected, cut to its square): the work a loader
/// does off the render thread.
public enum TileDecoder {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        public init(_ d: String) { description = d }
    }

    /// The content of `tile` from `data` (gzip-compressed or not): a vector tile for `.vector`,
    /// a PNG, JPEG or WebP image (told by its first bytes) for `.raster`. `name` opens errors.
    public static func content(_ data: Data, tile: TileID, kind: TileSet.Kind, name: String) throws -> TileContent {
        switch kind {
        case .vector:
            let raw = Inflate.isGzip(data) ? try Inflate.decompress(data) : data
            if looksLikeText(raw) {
                throw Failure("\(name): not a vector tile (the answer is text: \(preview(raw)))")
            }
            let decoded: VectorTile
            do { decoded = try VectorTile(data: raw) } catch { throw Failure("\(name): \(error)") }
            return .vector(features(decoded, tile: tile))
        case .raster:
            if JPEGCodec.isJPEG(data) { return .raster(try JPEGCodec.decode(data, name: name)) }
            if WebPCodec.isWebP(data) { return .raster(try WebPCodec.decode(data, name: name)) }
            if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .raster(try PNGCodec.decode(data, name: name)) }
            if looksLikeText(data) { throw Failure("\(name): not an image (the answer is text: \(preview(data)))") }
            throw Failure("\(name): not a PNG, JPEG or WebP image")
        }
    }

    /// Whether the bytes read as text (an HTML error page, a JSON error) rather than a tile.
    static func looksLikeText(_ d: Data) -> Bool {
        guard let first = d.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return false }
        return first == UInt8(ascii: "<") || first == UInt8(ascii: "{")
    }

    static func preview(_ d: Data) -> String {
        let s = String(decoding: d.prefix(60), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return "\"\(s.trimmingCharacters(in: .whitespaces))\(d.count > 60 ? "..." : "")\""
    }

    /// A decoded tile's features in normalised Web Mercator, cut to the tile's square.
    public static func features(_ t: VectorTile, tile: TileID) -> VectorTileFeatures {
        var layers: [String: [GeoFeature]] = [:]
        for layer in t.layers {
            let e = Double(max(layer.extent, 1))
            let scale = 1 / (e * Double(1 << tile.z))
            let ox = Double(tile.x) * e, oy = Double(tile.y) * e
            func point(_ p: VectorTile.Point) -> MercatorPoint {
                MercatorPoint(x: (ox + Double(p.x)) * scale, y: (oy + Double(p.y)) * scale)
            }
            var out: [GeoFeature] = []
            out.reserveCapacity(layer.features.count)
            for f in layer.features {
                let geometry: FeatureGeometry
                let type: String
                switch f.type {
                case .unknown: continue
                case .point:
                    let parts = f.geometry.flatMap { $0 }.map { [point($0)] }
                    guard !parts.isEmpty else { continue }
                    geometry = parts.count == 1 ? FeatureGeometry(point: parts[0][0]) : FeatureGeometry(kind: .points, parts: parts)
                    type = "Point"
                case .lineString:
                    let parts = f.geometry.filter { $0.count >= 2 }.map { $0.map(point) }
                    guard !parts.isEmpty else { continue }
                    geometry = FeatureGeometry(kind: .lines, parts: parts)
                    type = "LineString"
                case .polygon:
                    guard let g = polygons(f.geometry, point) else { continue }
                    geometry = g
                    type = "Polygon"
                }
                let id: StyleValue? = f.id.map { .number(Double($0)) }
                out.append(GeoFeature(geometry: geometry, evaluation: EvaluationFeature(properties: f.properties, id: id, geometryType: type)))
            }
            layers[layer.name, default: []] += out
        }
        return VectorTileFeatures(tile: tile, layers: layers)
    }

    /// Rings grouped into polygons: a ring wound as the first one (an exterior: positive area in
    /// tile coordinates in MVT 2) opens a polygon, the others are its holes; rings without area
    /// are left out.
    static func polygons(_ rings: [[VectorTile.Point]], _ point: (VectorTile.Point) -> MercatorPoint) -> FeatureGeometry? {
        var parts: [[MercatorPoint]] = [], starts: [Int] = []
        var exteriorSign = 0
        for ring in rings where ring.count >= 3 {
            var area: Int64 = 0
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                area += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y)
            }
            guard area != 0 else { continue }
            let sign = area > 0 ? 1 : -1
            if exteriorSign == 0 { exteriorSign = sign }
            if sign == exteriorSign { starts.append(parts.count) }
            parts.append(ring.map(point))
        }
        guard !parts.isEmpty else { return nil }
        return FeatureGeometry(kind: .polygons, parts: parts, polygonStarts: starts)
    }
}
