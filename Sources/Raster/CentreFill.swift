/// Polygons filled without anti-aliasing the way a GPU fills their triangles: a pixel is painted,
/// wholly, when its centre lies inside (non-zero winding). Centres exactly on an edge belong to
/// the pixel span on the edge's right, so polygons sharing an edge share no pixel. This is what
/// `fill-antialias: false` draws in the reference engines (a coverage threshold differs from it
/// at corners and along slanted edges).
///
/// Keeps its scratch storage between calls.
public struct CentreFill {
    private var crossings: [(x: Double, winding: Int)] = []

    public init() {}

    /// Fills the rings `points[0..<ends[0]]`, `points[ends[0]..<ends[1]]`, … (each closed back to
    /// its first point) with `color` (premultiplied) over the rows `rows` of `pixmap`.
    public mutating func fill(_ points: UnsafeBufferPointer<Point>, ends: [Int], color: PremultipliedColor,
                              onto pixmap: Pixmap, rows: Range<Int>) {
        var minY = Double.infinity, maxY = -Double.infinity
        for q in points where q.y.isFinite { minY = min(minY, q.y); maxY = max(maxY, q.y) }
        guard minY <= maxY else { return }
        let y0 = max(rows.lowerBound, 0, pixelIndex(minY)), y1 = min(rows.upperBound, pixmap.height, pixelIndex(maxY))
        guard y0 < y1 else { return }
        var blitter = SolidBlitter(pixmap: pixmap, color: color)
        for y in y0..<y1 {
            let yc = Double(y) + 0.5
            crossings.removeAll(keepingCapacity: true)
            var start = 0
            for end in ends {
                defer { start = end }
                guard end - start >= 2 else { continue }
                var a = points[end - 1]
                for i in start..<end {
                    let b = points[i]
                    defer { a = b }
                    let up = a.y <= yc && yc < b.y, down = b.y <= yc && yc < a.y
                    guard up || down else { continue }
                    let x = a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y)
                    if x.isFinite { crossings.append((x, up ? 1 : -1)) }
                }
            }
            guard crossings.count >= 2 else { continue }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for k in 0..<(crossings.count - 1) {
                winding += crossings[k].winding
                guard winding != 0 else { continue }
                let first = max(0, pixelIndex(crossings[k].x)), end = min(pixmap.width, pixelIndex(crossings[k + 1].x))
                if first < end { blitter.blitSpan(x: first, y: y, count: end - first, alpha: 255) }
            }
        }
    }
}
