import Foundation

/// A `vector` or `raster` source as a style document (or a TileJSON document) defines it: where
/// its tiles are and which tiles there are (style specification v8, TileJSON 3.0).
public struct TiledSourceDefinition: Equatable, Sendable {
    /// How rows are numbered: from the north (XYZ) or from the south (TMS).
    public enum Scheme: String, Sendable, Equatable, CaseIterable { case xyz, tms }

    /// URL templates with `{z}`, `{x}`, `{y}` (also `{prefix}`, `{quadkey}`, `{bbox-epsg-3857}`,
    /// `{ratio}`); `pmtiles://PATH` and `mbtiles://PATH` name a whole archive.
    public var tiles: [String]
    /// A TileJSON document to read `tiles` and the zoom range from (nil: `tiles` is given).
    public var url: String?
    /// Pixels of a tile's side at its own zoom: 512 for vector tiles, 256 or 512 for raster.
    public var tileSize: Int
    public var scheme: Scheme
    /// The zooms tiles exist for; past `maxZoom` the deepest tiles are scaled up (overzoomed).
    public var minZoom: Int
    public var maxZoom: Int
    /// Where tiles exist; none is asked for outside.
    public var bounds: LngLatBounds
    public var attribution: String?
    /// A `raster-dem` source's encoding of elevations in its tiles' pixels (nil: not a DEM).
    public var dem: DEMEncoding? = nil

    public init(tiles: [String] = [], url: String? = nil, tileSize: Int = 512, scheme: Scheme = .xyz, minZoom: Int = 0,
                maxZoom: Int = 22, bounds: LngLatBounds = .world, attribution: String? = nil) {
        self.tiles = tiles; self.url = url; self.tileSize = tileSize; self.scheme = scheme; self.minZoom = minZoom
        self.maxZoom = maxZoom; self.bounds = bounds; self.attribution = attribution
    }

    /// The members a source and a TileJSON document share, read from `o` over the values already
    /// here; problems are reported with `path` (`sources.streets.maxzoom: ...`).
    public mutating func read(_ o: JSONObject, path: String, problems: inout [String]) {
        if let t = o["tiles"] {
            if case let .array(a) = t, !a.isEmpty, a.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                tiles = a.compactMap { if case let .string(s) = $0 { return s } else { return nil } }
            } else {
                problems.append("\(path).tiles: expected a non-empty array of URL templates, found \(t.compactText)")
            }
        }
        if let s = o["scheme"] {
            if case let .string(name) = s, let v = Scheme(rawValue: name) { scheme = v } else {
                problems.append("\(path).scheme: expected one of [xyz, tms], found \(s.compactText)")
            }
        }
        func zoom(_ key: String) -> Int? {
            guard let v = o[key] else { return nil }
            guard case let .number(n) = v, n >= 0, n <= 30, n == n.rounded() else {
                problems.append("\(path).\(key): expected a whole number within 0...30, found \(v.compactText)")
                return nil
            }
            return Int(n)
        }
        if let z = zoom("minzoom") { minZoom = z }
        if let z = zoom("maxzoom") { maxZoom = z }
        if minZoom > maxZoom { problems.append("\(path): minzoom \(minZoom) is above maxzoom \(maxZoom)") }
        if let b = o["bounds"] {
            if case let .array(a) = b, a.count == 4, case let .number(w) = a[0], case let .number(s) = a[1],
               case let .number(e) = a[2], case let .number(n) = a[3], w.isFinite, e.isFinite, s < n, w < e,
               s >= -90, n <= 90 {
                bounds = LngLatBounds(west: max(w, -180), south: max(s, -WebMercator.maxLatitude),
                                      east: min(e, 180), north: min(n, WebMercator.maxLatitude))
            } else {
                problems.append("\(path).bounds: expected [west, south, east, north] with west < east and south < north, found \(b.compactText)")
            }
        }
        if case let .string(a)? = o["attribution"] { attribution = a }
    }

    /// The zoom of the tiles to draw at camera zoom `zoom` (the style's, without the pixel
    /// ratio): a tile of `tileSize` pixels covers 512 / tileSize times a 512-pixel one. Raster
    /// tiles take the nearest zoom, vector tiles the one below, as the reference engines do;
    /// past `maxZoom` the answer keeps growing (the deepest tiles are overzoomed to it).
    /// Below zoom 0 (a world smaller than a tile) the zoom-0 tile is drawn, smaller. Nil below
    /// `minZoom`: the source shows nothing there.
    public func coveringZoom(_ zoom: Double, raster: Bool) -> Int? {
        let z = zoom + log2(512 / Double(max(tileSize, 1)))
        guard z.isFinite else { return nil }
        let r = max(raster ? z.rounded() : z.rounded(.down), 0)
        guard r >= Double(minZoom) else { return nil }
        return Int(min(r, 30))
    }
}
