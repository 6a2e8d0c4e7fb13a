import Foundation

/// geojson-vt's simplification, prepared once for a source's features: each vertex of a line or
/// ring gets its importance (the squared distance Douglas-Peucker found it at, with the
/// tolerance of the deepest zoom; the ends 1), each line its length and each ring its area, all
/// in normalised Web Mercator. A zoom's tile then keeps the vertices more important than its
/// squared tolerance and drops the lines shorter than its tolerance and the rings smaller than
/// its squared tolerance.
struct GeoJSONSimplify: Sendable {
    /// Per vertex, feature by feature (`vertexStart[i]` is feature i's first; points get 1).
    let importance: [Double]
    let vertexStart: [Int]
    /// Per part, feature by feature (`partStart[i]` is feature i's first): length or area.
    let size: [Double]
    let partStart: [Int]
    /// With `lineMetrics`: per vertex of a line, its distance along its line from the start, as
    /// a fraction of the line's length (what line-progress reads of the original line); nil without.
    let progress: [Double]?

    init(_ features: [GeoFeature], options: GeoJSONSourceOptions) {
        // (geojson-vt's: the tolerance of the source's maxzoom, though tiles there keep every vertex.)
        let t = options.tolerance * (GeoJSONSourceOptions.extent / 512) / (Double(1 << min(max(options.maxZoom, 0), 30)) * GeoJSONSourceOptions.extent)
        let sqTolerance = t * t
        var importance: [Double] = [], size: [Double] = [], vertexStart: [Int] = [], partStart: [Int] = []
        var progress: [Double]? = options.lineMetrics ? [] : nil
        vertexStart.reserveCapacity(features.count + 1); partStart.reserveCapacity(features.count + 1)
        for f in features {
            let g = f.geometry, c = g.coordinates
            vertexStart.append(importance.count); partStart.append(size.count)
            let base = importance.count
            importance.append(contentsOf: repeatElement(g.kind == .points ? 1.0 : 0.0, count: c.count / 2))
            for p in 0..<g.partCount {
                let r = g.part(p)
                switch g.kind {
                case .points:
                    size.append(0)
                case .lines, .polygons:
                    var s = 0.0
                    for k in r.dropFirst() {
                        let x0 = c[2 * k - 2], y0 = c[2 * k - 1], x = c[2 * k], y = c[2 * k + 1]
                        s += g.kind == .polygons ? (x0 * y - x * y0) / 2 : ((x - x0) * (x - x0) + (y - y0) * (y - y0)).squareRoot()
                    }
                    size.append(abs(s))
                    if !r.isEmpty { importance[base + r.lowerBound] = 1; importance[base + r.upperBound - 1] = 1 }
                    if r.count > 2 { Self.douglasPeucker(c, first: r.lowerBound, last: r.upperBound - 1, sqTolerance, into: &importance, base: base) }
                }
            }
            if progress != nil {
                progress?.append(contentsOf: repeatElement(0.0, count: c.count / 2))
                if g.kind == .lines {
                    for p in 0..<g.partCount {
                        let r = g.part(p)
                        var d = 0.0, at: [Double] = [0]
                        for k in r.dropFirst() {
                            let dx = c[2 * k] - c[2 * k - 2], dy = c[2 * k + 1] - c[2 * k - 1]
                            d += (dx * dx + dy * dy).squareRoot()
                            at.append(d)
                        }
                        for (j, k) in r.enumerated() { progress?[base + k] = d > 0 ? at[j] / d : 0 }
                    }
                }
            }
        }
        vertexStart.append(importance.count); partStart.append(size.count)
        self.importance = importance; self.size = size; self.vertexStart = vertexStart; self.partStart = partStart
        self.progress = progress
    }

    /// The tolerance of zoom `z` in normalised units (0 at the source's maxzoom and deeper).
    static func tolerance(zoom z: Int, _ o: GeoJSONSourceOptions) -> Double {
        guard z < o.maxZoom else { return 0 }
        let scale = GeoJSONSourceOptions.extent / 512
        return o.tolerance * scale / (Double(1 << min(max(z, 0), 30)) * GeoJSONSourceOptions.extent)
    }

    /// Douglas-Peucker over vertices first...last of `c` (x, y pairs), setting the importance of
    /// the vertices between (at `base + k`): geojson-vt's `simplify`, ties broken towards the
    /// middle as it breaks them (its positions count three numbers a vertex).
    static func douglasPeucker(_ c: [Double], first: Int, last: Int, _ sqTolerance: Double, into out: inout [Double], base: Int) {
        var stack: [(Int, Int)] = [(first, last)]
        while let (a, b) = stack.popLast() {
            var maxSq = sqTolerance
            let mid = 3 * a + ((3 * b - 3 * a) >> 1)
            var minPosToMid = 3 * (b - a)
            var index = -1
            let ax = c[2 * a], ay = c[2 * a + 1], bx = c[2 * b], by = c[2 * b + 1]
            var i = a + 1
            while i < b {
                let d = sqSegmentDistance(c[2 * i], c[2 * i + 1], ax, ay, bx, by)
                if d > maxSq {
                    index = i; maxSq = d
                } else if d == maxSq {
                    let posToMid = abs(3 * i - mid)
                    if posToMid < minPosToMid { index = i; minPosToMid = posToMid }
                }
                i += 1
            }
            if maxSq > sqTolerance, index >= 0 {
                out[base + index] = maxSq
                if b - index > 1 { stack.append((index, b)) }
                if index - a > 1 { stack.append((a, index)) }
            }
        }
    }

    @inline(__always) static func sqSegmentDistance(_ px: Double, _ py: Double, _ x0: Double, _ y0: Double, _ bx: Double, _ by: Double) -> Double {
        var x = x0, y = y0
        var dx = bx - x, dy = by - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = bx; y = by } else if t > 0 { x += dx * t; y += dy * t }
        }
        dx = px - x; dy = py - y
        return dx * dx + dy * dy
    }

    /// Feature `i`'s geometry at `tolerance` (normalised units; 0: as it is), or nil when nothing
    /// of it is left. Unchanged geometry is returned as it is.
    func simplified(_ f: GeoFeature, _ i: Int, tolerance: Double) -> FeatureGeometry? {
        let g = f.geometry
        guard g.kind != .points, tolerance > 0 else { return g.isEmpty ? nil : g }
        let sq = tolerance * tolerance
        let v0 = vertexStart[i], p0 = partStart[i], c = g.coordinates
        let polygons = g.kind == .polygons
        // Whether anything goes: a part too small or a vertex not important enough.
        var same = true
        check: for p in 0..<g.partCount {
            if size[p0 + p] < (polygons ? sq : tolerance) { same = false; break }
            for k in g.part(p) where importance[v0 + k] <= sq { same = false; break check }
        }
        if same { return g }
        var parts: [[MercatorPoint]] = [], starts: [Int] = []
        // (A line's kept points keep their fractions of its length: `line-progress`.)
        var progress: [Double]? = g.lineProgress == nil ? nil : []
        func ring(_ p: Int) -> [MercatorPoint]? {
            guard size[p0 + p] >= (polygons ? sq : tolerance) else { return nil }
            var out: [MercatorPoint] = []
            for k in g.part(p) where importance[v0 + k] > sq {
                out.append(MercatorPoint(x: c[2 * k], y: c[2 * k + 1]))
                if let lp = g.lineProgress { progress?.append(lp[k]) }
            }
            return out
        }
        if polygons {
            for poly in 0..<(g.polygonStarts.count - 1) {
                var rings: [[MercatorPoint]] = []
                for r in g.polygonStarts[poly]..<g.polygonStarts[poly + 1] {
                    guard let kept = ring(r) else {
                        if rings.isEmpty { break }      // the exterior is gone: its holes are smaller
                        continue
                    }
                    rings.append(kept)
                }
                guard !rings.isEmpty else { continue }
                starts.append(parts.count)
                parts += GeoJSONReader.oriented(rings)
            }
        } else {
            for p in 0..<g.partCount { if let kept = ring(p) { parts.append(kept) } }
        }
        guard !parts.isEmpty else { return nil }
        return FeatureGeometry(kind: g.kind, parts: parts, polygonStarts: starts, lineProgress: progress)
    }
}
