/// Polygons filled without anti-aliasing the way a GPU fills their triangles: a pixel is painted,
/// wholly, when its centre lies inside (non-zero winding). Centres exactly on an edge belong to
/// the pixel span on the edge's right, so polygons sharing an edge share no pixel. This is what
/// `fill-antialias: false` draws in the reference engines (a coverage threshold differs from it
/// at corners and along slanted edges).
///
/// Row by row over the edges that span it (an active edge list, the edges sorted by first row),
/// so a ring of thousands of points costs its crossings, not its points times the rows.
/// Keeps its scratch storage between calls.
public struct CentreFill {
    /// An edge from a to b with the rows whose centres it spans, [first, end).
    private struct Edge {
        let ax: Double, ay: Double, bx: Double, by: Double
        let winding: Int
        let first: Int, end: Int
    }
    private var edges: [Edge] = []
    private var active: [Int] = []
    private var crossings: [Double] = []

    public init() {}

    /// Fills the rings `points[0..<ends[0]]`, `points[ends[0]..<ends[1]]`, … (each closed back to
    /// its first point) with `color` (premultiplied) over the rows `rows` of `pixmap`.
    public mutating func fill(_ points: UnsafeBufferPointer<Point>, ends: [Int], color: PremultipliedColor,
                              onto pixmap: Pixmap, rows: Range<Int>) {
        let y0 = max(rows.lowerBound, 0), y1 = min(rows.upperBound, pixmap.height)
        guard y0 < y1 else { return }
        // A row's centre yc crosses the edge when it lies in [min y, max y) of its ends: the rows
        // from pixelIndex(min y) to pixelIndex(max y), here within y0..<y1.
        func row(_ v: Double) -> Int { min(max(pixelIndex(v), y0), y1) }
        edges.removeAll(keepingCapacity: true)
        var start = 0
        for end in ends {
            defer { start = end }
            guard end - start >= 2, end <= points.count else { continue }
            var a = points[end - 1]
            for i in start..<end {
                let b = points[i]
                defer { a = b }
                guard !a.y.isNaN, !b.y.isNaN, a.y != b.y else { continue }
                let (lo, hi) = a.y < b.y ? (a.y, b.y) : (b.y, a.y)
                let first = row(lo), last = row(hi)
                guard first < last else { continue }
                // Right of the pixmap an edge changes no pixel's winding; wholly left of it, it
                // counts as the same edge standing at x = -1.
                if min(a.x, b.x) >= Double(pixmap.width) { continue }
                if max(a.x, b.x) < 0 {
                    edges.append(Edge(ax: -1, ay: a.y, bx: -1, by: b.y, winding: a.y < b.y ? 1 : -1, first: first, end: last))
                } else {
                    edges.append(Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y, winding: a.y < b.y ? 1 : -1, first: first, end: last))
                }
            }
        }
        guard !edges.isEmpty else { return }
        edges.sort { $0.first < $1.first }
        // The active edges (indices into `edges`) and their crossings of the current row, kept
        // in x order: a row's order is mostly the last row's, so the insertion sort mostly only
        // places new edges. (Buffers, not arrays, in the loop over rows.)
        let count = edges.count
        if active.count < count { active = Array(repeating: 0, count: count) }
        if crossings.count < count { crossings = Array(repeating: 0, count: count) }
        var blitter = SolidBlitter(pixmap: pixmap, color: color)
        let width = pixmap.width
        edges.withUnsafeBufferPointer { edges in
            active.withUnsafeMutableBufferPointer { active in
                crossings.withUnsafeMutableBufferPointer { xs in
                    var live = 0, next = 0
                    var y = edges[0].first
                    while y < y1 {
                        while next < count && edges[next].first <= y { active[live] = next; live += 1; next += 1 }
                        let yc = Double(y) + 0.5
                        // Edges that ended leave; an edge whose crossing is not finite crosses nowhere.
                        var kept = 0
                        for k in 0..<live {
                            let id = active[k], e = edges[id]
                            guard e.end > y else { continue }
                            var x = e.ax + (yc - e.ay) * (e.bx - e.ax) / (e.by - e.ay)
                            if x.isNaN { x = .infinity }         // (last, and skipped below)
                            var j = kept
                            while j > 0 && xs[j - 1] > x { xs[j] = xs[j - 1]; active[j] = active[j - 1]; j -= 1 }
                            xs[j] = x; active[j] = id
                            kept += 1
                        }
                        live = kept
                        if live == 0 {
                            guard next < count else { break }
                            y = edges[next].first
                            continue
                        }
                        var winding = 0, previous = -1
                        for k in 0..<live where xs[k].isFinite {
                            if previous >= 0 && winding != 0 {
                                let first = max(0, pixelIndex(xs[previous])), end = min(width, pixelIndex(xs[k]))
                                if first < end { blitter.blitSpan(x: first, y: y, count: end - first, alpha: 255) }
                            }
                            winding += edges[active[k]].winding
                            previous = k
                        }
                        // (Still inside: the edges that close it lie right of the pixmap.)
                        if previous >= 0 && winding != 0 {
                            let first = max(0, pixelIndex(xs[previous]))
                            if first < width { blitter.blitSpan(x: first, y: y, count: width - first, alpha: 255) }
                        }
                        y += 1
                    }
                }
            }
        }
    }
}
