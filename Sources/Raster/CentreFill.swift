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
    private var crossings: [(x: Double, winding: Int)] = []

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
                if first < last { edges.append(Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y, winding: a.y < b.y ? 1 : -1, first: first, end: last)) }
            }
        }
        guard edges.count >= 2 else { return }
        edges.sort { $0.first < $1.first }
        active.removeAll(keepingCapacity: true)
        var blitter = SolidBlitter(pixmap: pixmap, color: color)
        var next = 0
        var y = edges[0].first
        while y < y1 {
            while next < edges.count && edges[next].first <= y { active.append(next); next += 1 }
            active.removeAll { edges[$0].end <= y }
            if active.isEmpty {
                guard next < edges.count else { break }
                y = edges[next].first
                continue
            }
            let yc = Double(y) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for k in active {
                let e = edges[k]
                let x = e.ax + (yc - e.ay) * (e.bx - e.ax) / (e.by - e.ay)
                if x.isFinite { crossings.append((x, e.winding)) }
            }
            if crossings.count >= 2 {
                crossings.sort { $0.x < $1.x }
                var winding = 0
                for k in 0..<(crossings.count - 1) {
                    winding += crossings[k].winding
                    guard winding != 0 else { continue }
                    let first = max(0, pixelIndex(crossings[k].x)), end = min(pixmap.width, pixelIndex(crossings[k + 1].x))
                    if first < end { blitter.blitSpan(x: first, y: y, count: end - first, alpha: 255) }
                }
            }
            y += 1
        }
    }
}
