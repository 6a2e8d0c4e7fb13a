import Foundation
import Raster

/// What a loader is asked for: the tiles a view of the map wants from one tiled source, nearest
/// the view's centre first (loaded ones included; `TileSet.missing` leaves them out).
public struct TileRequest: Sendable {
    public let sourceID: String
    public let tiles: TileSet
    public let ideal: [TileID]
}

/// A raster tile placed for a frame: its image (or the part of an ancestor's that stands in for
/// it) and its corners.
public struct RasterTile: Sendable {
    public let image: any RasterTexture
    public let corners: ImageCorners
}

/// What one frame draws of the style's tiled sources: each vector source's features
/// (`CoverFeatures`), each raster source's tiles. The same object serves frames while no cover
/// and no delivery changes, so the layers' kept draws (`FeatureDrawCache`) stay valid.
public final class TileFrame: Sendable {
    let vector: [String: CoverFeatures]
    let raster: [String: [RasterTile]]
    /// Each raster-dem source's tiles.
    let dem: [String: [DEMTileDraw]]
    init(vector: [String: CoverFeatures], raster: [String: [RasterTile]], dem: [String: [DEMTileDraw]] = [:]) {
        self.vector = vector; self.raster = raster; self.dem = dem
    }

    /// Source layer `layer` of vector source `id`, nil when `id` is no tiled vector source.
    func features(_ id: String?, layer: String?) -> GeoJSONData? {
        guard let id, let cover = vector[id] else { return nil }
        return cover.layer(layer ?? "")
    }

    /// Source layer `layer` of vector source `id` as one geometry set, for a layer that draws
    /// every feature alike; nil when `id` is no tiled vector source.
    func geometry(_ id: String?, layer: String?, lines: Bool) -> GeometrySet? {
        guard let id, let cover = vector[id] else { return nil }
        return cover.geometry(layer ?? "", lines: lines)
    }

    func rasterTiles(_ id: String?) -> [RasterTile]? { id.flatMap { raster[$0] } }

    func demTiles(_ id: String?) -> [DEMTileDraw]? { id.flatMap { dem[$0] } }
}

extension TiledSourceDefinition {
    /// The zoom of the tiles that hold the data at camera zoom `zoom` (the style's): the
    /// covering zoom, at most `maxZoom` (deeper views overzoom those tiles); nil below `minZoom`.
    public func dataZoom(_ zoom: Double, raster: Bool) -> Int? {
        coveringZoom(zoom, raster: raster).map { min($0, maxZoom) }
    }
}

/// Keeps the last frame's `TileFrame` and what it was made from.
final class TileFrameCache: @unchecked Sendable {
    private struct Key: Equatable {
        let generation: Int
        let entries: [TileSet.CoverEntry]
    }
    /// What the last frame's covers came from, source by source: checked first, without
    /// allocating, so a frame whose view stays within the same tiles costs no more than that.
    private struct Span: Equatable {
        let set: ObjectIdentifier
        let generation: Int
        let z: Int, x0: Int, x1: Int, y0: Int, y1: Int

        /// Nil when the view needs more than `TileCover.limit` tiles (which of them are kept
        /// depends on the centre, not only on the span).
        init?(_ set: TileSet, zoom: Double, visible: MercatorBox) {
            self.set = ObjectIdentifier(set)
            generation = set.generation
            guard let z = set.definition.dataZoom(zoom, raster: set.kind == .raster) else {
                self.z = -1; x0 = 0; x1 = 0; y0 = 0; y1 = 0
                return
            }
            let scale = Double(1 << min(max(z, 0), 30))
            let xs = ((visible.minX * scale).rounded(.down), (visible.maxX * scale).rounded(.up) - 1)
            let ys = ((visible.minY * scale).rounded(.down), (visible.maxY * scale).rounded(.up) - 1)
            guard xs.0.isFinite, xs.1.isFinite, ys.0.isFinite, ys.1.isFinite, abs(xs.0) < 1e12, abs(xs.1) < 1e12,
                  abs(ys.0) < 1e12, abs(ys.1) < 1e12, (xs.1 - xs.0 + 1) * (ys.1 - ys.0 + 1) <= Double(TileCover.limit) else { return nil }
            self.z = z; x0 = Int(xs.0); x1 = Int(xs.1); y0 = Int(ys.0); y1 = Int(ys.1)
        }
    }
    private let lock = NSLock()
    private var keys: [String: Key] = [:]
    private var spans: [Span] = []
    private var last: TileFrame?
    private let demCache = DEMTileCache()

    /// Calls `body` with each tiled source that layers shown at `zoom` draw, once, in layer order.
    private static func forEachSource(_ style: Style, zoom: Double, _ body: (String, TileSet) -> Bool) {
        for (i, layer) in style.layers.enumerated() where layer.isShown(atZoom: zoom) {
            guard let id = layer.source, let set = style.tiles(id) else { continue }
            if style.layers[..<i].contains(where: { $0.source == id && $0.isShown(atZoom: zoom) }) { continue }
            if !body(id, set) { return }
        }
    }

    /// Whether the last frame's covers still hold: the same sources, tile spans and deliveries.
    private func unchanged(_ style: Style, zoom: Double, visible: MercatorBox) -> Bool {
        guard last != nil else { return false }
        var k = 0, same = true
        Self.forEachSource(style, zoom: zoom) { _, set in
            guard k < spans.count, let s = Span(set, zoom: zoom, visible: visible), s == spans[k] else { same = false; return false }
            k += 1
            return true
        }
        return same && k == spans.count
    }

    /// The tiled sources that layers shown at `zoom` draw, with the tiles the view wants
    /// (`cover`: a pitched or globe view's, chosen by distance).
    static func requests(_ style: Style, zoom: Double, visible: MercatorBox, cover: (any ViewTileCover)? = nil) -> [TileRequest] {
        var out: [TileRequest] = []
        forEachSource(style, zoom: zoom) { id, set in
            let d = set.definition
            if let cover {
                let ideal = cover.tiles(zoom: zoom, tileSize: Double(d.tileSize), round: set.kind == .raster,
                                         minZoom: d.minZoom, maxZoom: d.maxZoom, bounds: d.bounds)
                out.append(TileRequest(sourceID: id, tiles: set, ideal: ideal))
            } else if let z = set.definition.dataZoom(zoom, raster: set.kind == .raster) {
                out.append(TileRequest(sourceID: id, tiles: set, ideal: TileCover.tiles(z: z, box: visible, bounds: set.definition.bounds)))
            }
            return true
        }
        return out
    }

    func frame(_ style: Style, zoom: Double, visible: MercatorBox, cover: (any ViewTileCover)? = nil) -> TileFrame? {
        lock.lock()
        if cover == nil, unchanged(style, zoom: zoom, visible: visible), let last { lock.unlock(); return last }
        lock.unlock()
        var newSpans: [Span] = [], whole = cover == nil
        Self.forEachSource(style, zoom: zoom) { _, set in
            if let s = Span(set, zoom: zoom, visible: visible) { newSpans.append(s) } else { whole = false }
            return true
        }
        let requests = Self.requests(style, zoom: zoom, visible: visible, cover: cover)
        lock.lock(); defer { lock.unlock() }
        spans = whole ? newSpans : []
        guard !requests.isEmpty else { last = nil; keys = [:]; return nil }
        var changed = last == nil || keys.count != requests.count
        var made: [String: (Key, [TileSet.CoverEntry])] = [:]
        for r in requests {
            let generation = r.tiles.generation
            let entries = r.tiles.cover(r.ideal)
            let key = Key(generation: generation, entries: entries)
            if keys[r.sourceID] != key { changed = true }
            made[r.sourceID] = (key, entries)
        }
        if !changed, let last { return last }
        var vector: [String: CoverFeatures] = [:], raster: [String: [RasterTile]] = [:], dem: [String: [DEMTileDraw]] = [:]
        for (id, (key, entries)) in made {
            if let old = last, keys[id] == key {
                if let v = old.vector[id] { vector[id] = v }
                if let r = old.raster[id] { raster[id] = r }
                if let d = old.dem[id] { dem[id] = d }
                continue
            }
            if let set = style.tiles(id), let encoding = set.definition.dem {
                dem[id] = demCache.tiles(entries, set: set, encoding: encoding)
            } else if style.tiles(id)?.kind == .raster {
                raster[id] = Self.rasterTiles(entries)
            } else {
                vector[id] = CoverFeatures(entries: entries)
            }
        }
        keys = made.mapValues(\.0)
        let frame = TileFrame(vector: vector, raster: raster, dem: dem)
        last = frame
        return frame
    }

    /// (The renderer draws each in every world copy the view shows.)
    static func rasterTiles(_ entries: [TileSet.CoverEntry]) -> [RasterTile] {
        var out: [RasterTile] = []
        for e in entries {
            guard case let .raster(image) = e.content else { continue }
            var shown: any RasterTexture = image
            if e.square != e.tile, let part = Self.part(of: image, tile: e.tile, square: e.square) { shown = part }
            let s = TileSquare(e.square)
            let corners = LngLatBounds(west: WebMercator.lng(x: s.minX), south: WebMercator.lat(y: s.maxY),
                                       east: WebMercator.lng(x: s.maxX), north: WebMercator.lat(y: s.minY))
            out.append(RasterTile(image: shown, corners: ImageCorners(corners)))
        }
        return out
    }

    /// The part of `tile`'s image that covers `square` (one of its descendants), as an image of
    /// its own; nil when that part is less than a pixel.
    static func part(of image: any RasterTexture, tile: TileID, square: TileID) -> Pixmap? {
        let depth = square.z - tile.z
        guard depth > 0, depth < 30 else { return nil }
        let n = 1 << depth
        let w = image.width / n, h = image.height / n
        guard w >= 1, h >= 1 else { return nil }
        let x0 = (square.x - (tile.x << depth)) * w, y0 = (square.y - (tile.y << depth)) * h
        let texels = image.texels
        let out = Pixmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { out.pixels[y * w + x] = texels[(y0 + y) * image.width + x0 + x] }
        }
        return out
    }
}
