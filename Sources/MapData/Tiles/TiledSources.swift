import Foundation
import MapCore

/// Opens a style's `vector` and `raster` sources: reads the TileJSON a `url` names, opens the
/// archive a `pmtiles://` or `mbtiles://` location names (its zoom range and bounds fill what
/// the style leaves out), and gives the source's `TileSet` with its loader.
public enum TiledSources {
    public static func open(_ definition: TiledSourceDefinition, kind: TileSet.Kind, id: String, resolver: ResourceResolver,
                            pixelRatio: Double = 1) throws -> TileSet {
        var d = definition
        if let url = d.url, !Self.isArchive(url) {
            let bytes: Data
            if Self.isWeb(url), (try? resolver.path(url)) == nil {
                guard let web = resolver.web else { throw StyleError("\(url): TileJSON over HTTP is not read here") }
                guard let b = try web.get(url, maxBytes: 4 << 20, accept: "application/json") else {
                    throw StyleError("\(url): no such TileJSON document (HTTP 404)")
                }
                bytes = b
            } else {
                bytes = try resolver.data(url, limit: 4 << 20)
            }
            try readTileJSON(bytes, url: url, kind: kind, into: &d)
        }
        let location = d.url.flatMap { Self.isArchive($0) ? $0 : nil } ?? d.tiles.first { Self.isArchive($0) }
        let reader: any TileReader
        if let location {
            reader = try archive(location, kind: kind, definition: &d, resolver: resolver)
        } else {
            guard !d.tiles.isEmpty else { throw StyleError("sources.\(id): no tiles") }
            let templates = TileTemplates(d.tiles, scheme: d.scheme, pixelRatio: pixelRatio)
            if let url = d.tiles.first(where: { Self.isWeb($0) && (try? resolver.path($0)) == nil }) {
                guard let web = resolver.web else { throw StyleError("sources.\(id).tiles: \(url): tiles over HTTP are not read here") }
                guard d.tiles.allSatisfy(Self.isWeb) else { throw StyleError("sources.\(id).tiles: mixes http(s) and file templates") }
                return TileSet(definition: d, kind: kind, fetcher: TileLoader(reader: WebTiles(templates: templates, cache: web), kind: kind, workers: 4))
            }
            reader = FileTiles(templates: templates, resolver: resolver)
        }
        return TileSet(definition: d, kind: kind, fetcher: TileLoader(reader: reader, kind: kind))
    }

    /// Reads the TileJSON document `bytes` (named `url` in errors) into `d`: its tiles, zoom
    /// range, bounds, scheme, attribution and (raster) tile size.
    public static func readTileJSON(_ bytes: Data, url: String, kind: TileSet.Kind, into d: inout TiledSourceDefinition) throws {
        let json = try JSON.parse(bytes, name: url)
        guard case let .object(o) = json else { throw StyleError("\(url): a TileJSON document is an object, found \(json.typeName)") }
        var problems: [String] = []
        d.read(o, path: url, problems: &problems)
        if !problems.isEmpty { throw StyleError(problems.joined(separator: "; ")) }
        if o["tiles"] == nil { throw StyleError("\(url): the TileJSON document lists no tiles") }
        if kind == .raster, case let .number(n)? = o["tileSize"], n >= 1, n <= 4096 { d.tileSize = Int(n) }
    }

    static func isWeb(_ s: String) -> Bool { s.hasPrefix("http://") || s.hasPrefix("https://") }

    static func isArchive(_ s: String) -> Bool { s.hasPrefix("pmtiles://") || s.hasPrefix("mbtiles://") }

    /// The archive at `location`, its kind checked and its zoom range and bounds read into `d`.
    static func archive(_ location: String, kind: TileSet.Kind, definition d: inout TiledSourceDefinition,
                        resolver: ResourceResolver) throws -> any TileReader {
        let path = try resolver.path(String(location.dropFirst(10)))
        if location.hasPrefix("pmtiles://") {
            let archive = try PMTiles(path: path)
            let h = archive.header
            let vector = h.tileType == .mvt
            if vector != (kind == .vector) || h.tileType == .unknown || h.tileType == .avif {
                throw StyleError("\(location): holds \(h.tileType) tiles, not \(kind == .vector ? "vector tiles" : "PNG, JPEG or WebP images")")
            }
            d.minZoom = max(d.minZoom, h.minZoom)
            d.maxZoom = min(d.maxZoom, h.maxZoom)
            let (w, s, e, n) = h.bounds
            if w < e, s < n {
                d.bounds = LngLatBounds(west: max(w, d.bounds.west), south: max(s, d.bounds.south),
                                        east: min(e, d.bounds.east), north: min(n, d.bounds.north))
            }
            if d.attribution == nil, let m = try? JSON.parse(archive.metadata(), name: location), case let .object(o) = m,
               case let .string(a)? = o["attribution"] {
                d.attribution = a
            }
            return archive
        }
        let archive = try MBTiles(path: path)
        let m = archive.metadata
        if let f = m["format"] {
            let vector = f == "pbf" || f == "mvt"
            if vector != (kind == .vector) { throw StyleError("\(location): holds \(f) tiles, not \(kind == .vector ? "vector tiles" : "images")") }
        }
        if let z = m["minzoom"].flatMap(Int.init), (0...30).contains(z) { d.minZoom = max(d.minZoom, z) }
        if let z = m["maxzoom"].flatMap(Int.init), (0...30).contains(z) { d.maxZoom = min(d.maxZoom, z) }
        if d.attribution == nil { d.attribution = m["attribution"] }
        if let b = m["bounds"]?.split(separator: ",").compactMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), b.count == 4,
           b[0] < b[2], b[1] < b[3] {
            d.bounds = LngLatBounds(west: max(b[0], d.bounds.west), south: max(b[1], d.bounds.south),
                                    east: min(b[2], d.bounds.east), north: min(b[3], d.bounds.north))
        }
        return archive
    }
}
