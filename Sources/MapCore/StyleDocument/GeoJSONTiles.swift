import Foundation

/// A GeoJSON source tiled per zoom as MapLibre's geojson-vt tiles it: at zoom z, each feature
/// simplified with the zoom's tolerance (`GeoJSONSimplify`, prepared on first use; small lines
/// and rings vanish) and clipped to the tile's square grown by the buffer. A frame draws the
/// tiles covering its view as the renderer draws a vector source's (pieces joined again into
/// whole features), made directly: each feature simplified once for the zoom (kept for the
/// last `zoomLimit` zooms) and clipped to the cover grown by the buffer. A clustered source
/// draws its points' clusters of the zoom (`GeoJSONClusters`).
public final class GeoJSONTiles: @unchecked Sendable {
    public let options: GeoJSONSourceOptions
    /// The simplified geometry of at most this many zooms is kept.
    public let zoomLimit: Int
    private let features: [GeoFeature]
    private let index: FeatureIndex?
    private let lock = NSLock()
    private var prepared: GeoJSONSimplify?
    private var clusters: GeoJSONClusters?
    private enum Slot { case unknown, gone, geometry(FeatureGeometry) }
    private var zooms: [Int: (slots: [Slot], used: Int)] = [:]
    private let coverLock = NSLock()
    private var clock = 0
    /// The last frame's cover: its zoom, the box its tiles span and what they draw.
    private var last: (z: Int, box: MercatorBox, data: GeoJSONData)?
    /// A view needing more tiles than this draws the source untiled.
    static let coverLimit = 256

    /// Whether any feature is a line or a polygon (a source of points alone draws as it is:
    /// tiling would change nothing of it).
    private let simplifies: Bool

    init(features: [GeoFeature], index: FeatureIndex?, options: GeoJSONSourceOptions, zoomLimit: Int = 3) {
        self.features = features; self.index = index; self.options = options; self.zoomLimit = max(1, zoomLimit)
        simplifies = features.contains { $0.geometry.kind != .points }
    }

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
    /// covering the view (as large as it is at the tile zoom, grown by a quarter of the view on
    /// each side and half a tile), simplified for their
    /// zoom and clipped to the cover grown by the buffer: the tiles' pieces as the renderer would
    /// join them again, made without cutting them apart. The same object while the view stays
    /// inside the tiles it was made for. Nil: the source as it is (no view given, or one needing
    /// more than `coverLimit` tiles).
    public func drawn(zoom: Double, visible: MercatorBox?) -> GeoJSONData? {
        if options.cluster { return clustered().data(zoom: zoom) }
        guard let visible, simplifies else { return nil }
        let z = tileZoom(zoom)
        // The view as large as it is at the tile zoom (zooming out to it keeps the cover).
        let grow = (exp2(min(max(finite(zoom) - Double(z), 0), 1)) - 1) / 2
        let view = visible.grown(by: grow)
        // (Half a tile more: lines reach past the buffer of every tile the view shows, where
        // the renderer starts a tile's dash pattern.)
        let scale = Double(1 << z), half = 0.5 / scale
        func padded(_ b: MercatorBox) -> MercatorBox { MercatorBox(minX: b.minX - half, minY: b.minY - half, maxX: b.maxX + half, maxY: b.maxY + half) }
        coverLock.lock(); defer { coverLock.unlock() }
        if let last, last.z == z, last.box.contains(padded(visible)) { return last.data }
        // A source too small for an index: all of it, simplified for the zoom.
        if index == nil {
            let all = TileSquare(minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9)
            let drawn = GeoJSONData(features: features(in: all, zoom: z, copies: false))
            last = (z, MercatorBox(minX: all.minX, minY: all.minY, maxX: all.maxX, maxY: all.maxY), drawn)
            return drawn
        }
        let wanted = padded(view.grown(by: 0.25 / (1 + 2 * grow)))
        var box = MercatorBox(minX: (wanted.minX * scale).rounded(.down) / scale, minY: (wanted.minY * scale).rounded(.down) / scale,
                              maxX: (wanted.maxX * scale).rounded(.up) / scale, maxY: (wanted.maxY * scale).rounded(.up) / scale)
        guard (box.maxX - box.minX) * (box.maxY - box.minY) * scale * scale <= Double(Self.coverLimit) else { return nil }
        let kept = box
        // A cover reaching into another world copy takes the whole world's width (the renderer
        // draws every copy of what it is given).
        if box.minX < 0 || box.maxX > 1 { box.minX = 0; box.maxX = 1 }
        let pad = options.buffer / 512 / scale
        let drawn = GeoJSONData(features: features(in: TileSquare(minX: box.minX - pad, minY: box.minY - pad, maxX: box.maxX + pad, maxY: box.maxY + pad),
                                                   zoom: z, copies: false))
        last = (z, kept, drawn)
        return drawn
    }

    /// Tile `t` as geojson-vt makes it: the features (in the source's order) whose boxes meet its
    /// square grown by the buffer, simplified with the tolerance of its zoom and clipped to that
    /// grown square (features reaching past the antimeridian are taken in the world copy that
    /// meets the tile).
    public func tile(_ t: TileID) -> [GeoFeature] {
        let scale = Double(1 << t.z)
        let pad = options.buffer / 512
        return features(in: TileSquare(minX: (Double(t.x) - pad) / scale, minY: (Double(t.y) - pad) / scale,
                                       maxX: (Double(t.x) + 1 + pad) / scale, maxY: (Double(t.y) + 1 + pad) / scale), zoom: t.z, copies: true)
    }

    /// The features meeting `box`, simplified for zoom `z` and clipped to it. `copies`: a feature
    /// reaching past the antimeridian is taken in each world copy that meets the box (a tile's
    /// share); else once, as it is, when a copy meets it (the renderer draws every copy).
    func features(in box: TileSquare, zoom z: Int, copies: Bool) -> [GeoFeature] {
        let candidates: [Int32]
        if let index = index {
            var out: [Int32] = [], seen: [Bool] = []
            index.query(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, into: &out, seen: &seen)
            candidates = out
        } else {
            candidates = (0..<Int32(features.count)).map { $0 }
        }
        let simple = simplified(zoom: z, candidates)
        var out: [GeoFeature] = []
        for (k, c) in candidates.enumerated() {
            let i = Int(c), f = features[i], g = f.geometry
            guard !g.isEmpty, g.maxY >= box.minY, g.minY <= box.maxY, let s = simple[k] else { continue }
            let within = g.minX >= 0 && g.maxX <= 1
            // (With lineMetrics a frame's lines stay whole: progress runs along the whole line.)
            if !copies, !within || (options.lineMetrics && g.kind == .lines) {
                if [0.0, -1, 1].contains(where: { g.minX + $0 <= box.maxX && g.maxX + $0 >= box.minX }) {
                    out.append(GeoFeature(geometry: copies ? s : FeatureGeometry(compacting: s), evaluation: f.evaluation))
                }
                continue
            }
            // The world copy (shift) that meets the box: 0 for features within the world.
            for shift in [0.0, -1, 1] where g.minX + shift <= box.maxX && g.maxX + shift >= box.minX {
                if shift != 0, within { continue }
                let moved = shift == 0 ? s : s.shifted(by: shift)
                guard let (clipped, _) = moved.clipped(to: box) else { continue }
                // (A frame's cover: its features together in memory, see `init(compacting:)`.)
                out.append(GeoFeature(geometry: copies || clipped !== s ? clipped : FeatureGeometry(compacting: clipped), evaluation: f.evaluation))
            }
        }
        return out
    }

    /// Features `indices` simplified for zoom `z` (nil: nothing left), from the zoom's kept
    /// geometry where made before; at most `zoomLimit` zooms are kept, the least recently used
    /// going first.
    private func simplified(zoom z: Int, _ indices: [Int32]) -> [FeatureGeometry?] {
        let s = simplify()
        let tolerance = GeoJSONSimplify.tolerance(zoom: z, options)
        lock.lock()
        clock += 1
        var kept = zooms[z]?.slots ?? []
        zooms[z] = nil                     // (taken out while it is filled: not copied)
        lock.unlock()
        if kept.isEmpty { kept = [Slot](repeating: .unknown, count: features.count) }
        var out: [FeatureGeometry?] = []
        out.reserveCapacity(indices.count)
        for c in indices {
            let i = Int(c)
            switch kept[i] {
            case .gone: out.append(nil)
            case let .geometry(g): out.append(g)
            case .unknown:
                let g = s.simplified(features[i], i, tolerance: tolerance)
                kept[i] = g.map(Slot.geometry) ?? .gone
                out.append(g)
            }
        }
        lock.lock(); defer { lock.unlock() }
        zooms[z] = (kept, clock)
        while zooms.count > zoomLimit, let oldest = zooms.min(by: { $0.value.used < $1.value.used })?.key { zooms[oldest] = nil }
        return out
    }

    /// Zooms whose simplified geometry is kept now.
    public var zoomCount: Int { lock.lock(); defer { lock.unlock() }; return zooms.count }

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
