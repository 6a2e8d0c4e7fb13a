import Foundation
import MapCore

/// Where a tiled source's bytes come from: an archive (PMTiles, MBTiles) or URL templates.
public protocol TileReader: Sendable {
    /// Names the source in errors (the archive's path, the first template).
    var name: String { get }
    /// The tile's bytes (inflated when the container compresses them), nil when there is no
    /// such tile; an error names the source and what is wrong.
    func data(_ tile: TileID) throws -> Data?
    /// As `data`, but a reader that waits on a network may stop once `cancelled` returns true,
    /// throwing `HTTPCache.Cancelled` (the others read on: a file read is short).
    func data(_ tile: TileID, cancelled: @escaping @Sendable () -> Bool) throws -> Data?
    /// Names one tile in errors (its URL where it has one of its own).
    func name(of tile: TileID) -> String
}

extension TileReader {
    public func data(_ tile: TileID, cancelled: @escaping @Sendable () -> Bool) throws -> Data? { try data(tile) }
    public func name(of tile: TileID) -> String { "\(name) tile \(tile)" }
}

extension PMTiles: TileReader {
    public var name: String { "pmtiles://\(path)" }
    public func data(_ t: TileID) throws -> Data? { try tile(t) }
}

extension MBTiles: TileReader {
    public var name: String { "mbtiles://\(path)" }
    public func data(_ t: TileID) throws -> Data? { try tile(t) }
}

/// URL templates (`{z}`, `{x}`, `{y}`, `{prefix}`, `{quadkey}`, `{bbox-epsg-3857}`, `{ratio}`),
/// the tile of each told by the scheme; the templates share the tiles out by x + y.
public struct TileTemplates: Sendable {
    public let templates: [String]
    public let scheme: TiledSourceDefinition.Scheme
    /// `{ratio}`: "" or "@2x".
    public let ratio: String

    public init(_ templates: [String], scheme: TiledSourceDefinition.Scheme, pixelRatio: Double = 1) {
        self.templates = templates; self.scheme = scheme; ratio = pixelRatio > 1 ? "@2x" : ""
    }

    /// The URL of `t`.
    public func url(_ t: TileID) -> String {
        guard !templates.isEmpty else { return "" }
        let template = templates[(t.x + t.y) % templates.count]
        let y = scheme == .tms ? t.tmsY : t.y
        var s = template.replacingOccurrences(of: "{z}", with: String(t.z))
            .replacingOccurrences(of: "{x}", with: String(t.x))
            .replacingOccurrences(of: "{y}", with: String(y))
        guard s.contains("{") else { return s }
        s = s.replacingOccurrences(of: "{ratio}", with: ratio)
            .replacingOccurrences(of: "{prefix}", with: String(t.x % 16, radix: 16) + String(t.y % 16, radix: 16))
        if s.contains("{quadkey}") {
            var key = ""
            for z in stride(from: t.z, to: 0, by: -1) {
                let mask = 1 << (z - 1)
                key.append(String((t.x & mask != 0 ? 1 : 0) + (t.y & mask != 0 ? 2 : 0)))
            }
            s = s.replacingOccurrences(of: "{quadkey}", with: key)
        }
        if s.contains("{bbox-epsg-3857}") {
            let half = 20037508.342789244, size = 2 * half / Double(1 << t.z)
            let minX = -half + Double(t.x) * size, maxY = half - Double(t.y) * size
            s = s.replacingOccurrences(of: "{bbox-epsg-3857}", with: "\(minX),\(maxY - size),\(minX + size),\(maxY)")
        }
        return s
    }
}

/// Tiles as files named by templates (`file://`, `local://`, plain paths); a missing file is a
/// missing tile.
public struct FileTiles: TileReader {
    public let templates: TileTemplates
    public let resolver: ResourceResolver
    public var name: String { templates.templates.first ?? "" }
    public func name(of tile: TileID) -> String { templates.url(tile) }

    public init(templates: TileTemplates, resolver: ResourceResolver) { self.templates = templates; self.resolver = resolver }

    public func data(_ t: TileID) throws -> Data? {
        let url = templates.url(t)
        let path = try resolver.path(url)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try resolver.data(url, limit: 64 << 20)
    }
}
