import Foundation

/// A GeoJSON source cut into tiles as MapLibre's geojson-vt cuts it: at zoom z, each feature
/// simplified with the zoom's tolerance (`GeoJSONSimplify`, prepared on first use) and clipped
/// to the tile's square grown by the buffer. Tiles are made as frames need them and kept (at
/// most `tileLimit`, the least recently used go first). A frame draws the tiles covering its
/// view, cut to their squares and joined again (`CoverFeatures`), as it draws a vector source;
/// a clustered source draws its points' clusters of the zoom (`GeoJSONClusters`).
public final class GeoJSONTiles: @unchecked Sendable {
    public let options: GeoJSONSourceOptions
    /// At most this many tiles are kept.
    public let tileLimit: Int
    private let features: [GeoFeature]
    private let index: FeatureIndex?
    private let lock = NSLock()
    private var prepared: GeoJSONSimplify?
    private var clusters: GeoJSONClusters?
    private var tiles: [TileID: (content: VectorTileFeatures, used: Int)] = [:]
    private var clock = 0
    /// The last frame's cover: its zoom, the box its tiles span and what they draw.
    private var last: (z: Int, box: MercatorBox, data: GeoJSONData)?
    /// A view needing more tiles than this draws the source untiled.
    static let coverLimit = 256

    init(features: [GeoFeature], index: FeatureIndex?, options: GeoJSONSourceOptions, tileLimit: Int = 512) {
        self.features = features; self.index = index; self.options = options; self.tileLimit = max(1, tileLimit)
    }

    /// Tiles kept now.
    public var tileCount: Int { lock.lock(); defer { lock.unlock() }; return tiles.count }

    /// The zoom of the tiles a camera at `zoom` draws.
    public func tileZoom(_ zoom: Double) -> Int { Int(min(max(finite(zoom).rounded(.down), 0), Double(options.maxZoom))) }

    private func simplify() -> GeoJSONSimplify {
        lock.lock(); defer { lock.unlock() }
        if let prepared { return prepared }
        let p = GeoJSONSimplify(features, options: options)
        prepared = p
        return p
    }

    /// With `lineMetrics`: the original line's progress (0 at its start, 1 at its end) at vertex
    /// `vertex` of feature `feature` of the source (nil without lineMetrics or for no line vertex).
    public func lineProgress(feature: Int, vertex: Int) -> Double? {
        let s = simplify()
        guard let p = s.progress, feature >= 0, feature < features.count else { return nil }
        let k = s.vertexStart[feature] + vertex
        return k < s.vertexStart[feature + 1] ? p[k] : nil
    }

    /// What a frame at `zoom` showing `visible` draws of the source: the features of the tiles
    /// covering the view (grown by a quarter on each side), joined; the same object while the
    /// view stays inside the tiles it was made for. Nil: the source as it is (no view given, or
    /// one needing more than `coverLimit` tiles).
    public func drawn(zoom: Double, visible: MercatorBox?) -> GeoJSONData? {
        if options.cluster { return clustered().data(zoom: zoom) }
        guard let visible, !features.isEmpty else { return nil }
        let z = tileZoom(zoom)
        // (Half a tile more: lines reach past the buffer of every tile the view shows, where
        // the renderer starts a tile's dash pattern.)
        let half = 0.5 / Double(1 << z)
        func padded(_ b: MercatorBox) -> MercatorBox { MercatorBox(minX: b.minX - half, minY: b.minY - half, maxX: b.maxX + half, maxY: b.maxY + half) }
        lock.lock()
        if let last, last.z == z, last.box.contains(padded(visible)) { lock.unlock(); return last.data }
        lock.unlock()
        let wanted = padded(visible.grown(by: 0.25))
        let ids = TileCover.tiles(z: z, box: wanted)
        guard ids.count <= Self.coverLimit else { return nil }
        let entries = ids.map { TileSet.CoverEntry(tile: $0, square: $0, content: .vector(content($0))) }
        let drawn = CoverFeatures(entries: entries).layer("")
        let scale = Double(1 << z)
        let box = MercatorBox(minX: (wanted.minX * scale).rounded(.down) / scale, minY: (wanted.minY * scale).rounded(.down) / scale,
                              maxX: (wanted.maxX * scale).rounded(.up) / scale, maxY: (wanted.maxY * scale).rounded(.up) / scale)
        lock.lock(); defer { lock.unlock() }
        last = (z, box, drawn)
        return drawn
    }

    /// Tile `t` as a frame draws it: its features cut to its square (made on first use, then kept).
    public func content(_ t: TileID) -> VectorTileFeatures {
        lock.lock()
        clock += 1
        if let kept = tiles[t] { tiles[t]?.used = clock; lock.unlock(); return kept.content }
        lock.unlock()
        let made = VectorTileFeatures(tile: t, layers: ["": tile(t)])
        lock.lock(); defer { lock.unlock() }
        tiles[t] = (made, clock)
        if tiles.count > tileLimit {
            // The least recently used go: the excess and a quarter of the limit more.
            let excess = tiles.count - tileLimit + tileLimit / 4
            for (id, _) in tiles.sorted(by: { $0.value.used < $1.value.used }).prefix(excess) { tiles[id] = nil }
        }
        return made
    }

    /// Tile `t` as geojson-vt makes it: the features (in the source's order) whose boxes meet its
    /// square grown by the buffer, simplified with the tolerance of its zoom and clipped to that
    /// grown square (features reaching past the antimeridian are taken in the world copy that
    /// meets the tile).
    public func tile(_ t: TileID) -> [GeoFeature] {
        let s = simplify()
        let scale = Double(1 << t.z)
        let pad = options.buffer / 512
        let box = TileSquare(minX: (Double(t.x) - pad) / scale, minY: (Double(t.y) - pad) / scale,
                             maxX: (Double(t.x) + 1 + pad) / scale, maxY: (Double(t.y) + 1 + pad) / scale)
        let tolerance = GeoJSONSimplify.tolerance(zoom: t.z, options)
        let candidates: [Int32]
        if let index = index {
            var out: [Int32] = [], seen: [Bool] = []
            index.query(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, into: &out, seen: &seen)
            candidates = out
        } else {
            candidates = (0..<Int32(features.count)).map { $0 }
        }
        var out: [GeoFeature] = []
        for c in candidates {
            let i = Int(c), f = features[i], g = f.geometry
            guard !g.isEmpty, g.maxY >= box.minY, g.minY <= box.maxY else { continue }
            // The world copy (shift) that meets the box: 0 for features within the world.
            for shift in [0.0, -1, 1] where g.minX + shift <= box.maxX && g.maxX + shift >= box.minX {
                if shift != 0, g.minX >= 0, g.maxX <= 1 { continue }
                guard let simple = s.simplified(f, i, tolerance: tolerance) else { break }
                let moved = shift == 0 ? simple : simple.shifted(by: shift)
                if let (clipped, _) = moved.clipped(to: box) { out.append(GeoFeature(geometry: clipped, evaluation: f.evaluation)) }
            }
        }
        return out
    }

    private func clustered() -> GeoJSONClusters {
        lock.lock(); defer { lock.unlock() }
        if let clusters { return clusters }
        let c = GeoJSONClusters(features, options: options)
        clusters = c
        return c
    }
}

extension TileSquare {
    /// Any box (a tile's square grown by its buffer).
    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
}

extension FeatureGeometry {
    /// The geometry moved by `dx` world widths.
    func shifted(by dx: Double) -> FeatureGeometry {
        let parts = (0..<partCount).map { p in part(p).map { MercatorPoint(x: coordinates[2 * $0] + dx, y: coordinates[2 * $0 + 1]) } }
        return FeatureGeometry(kind: kind, parts: parts, polygonStarts: kind == .polygons ? Array(polygonStarts.dropLast()) : [])
    }
}
