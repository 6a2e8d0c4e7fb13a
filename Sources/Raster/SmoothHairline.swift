/// Segments drawn the way a GPU draws 2-pixel-wide lines under a distance shader: the way the
/// reference engines outline a translucent anti-aliased fill.
///
/// A segment whose x extent is the larger (x-major) covers the columns whose centres lie in its
/// x extent (half-open, so a ring's segments share no column at their shared vertices) and in
/// each such column the pixels whose centres lie within 1 pixel, vertically, of the segment at
/// the column's centre; y-major segments the same with the axes swapped. A covered pixel at that
/// distance `d` gets `color` (premultiplied) at `1 - smoothstep(0, 1, d)`, blended source-over.
public enum SmoothHairline {
    /// Draws the segments of each run `points[0..<ends[0]]`, `points[ends[0]..<ends[1]]`, …
    /// (closed back to its first point where `closed[k]` is true; `closed` may be empty: none
    /// are) over the rows `rows` of `pixmap`.
    public static func draw(_ points: UnsafeBufferPointer<Point>, ends: [Int], closed: [Bool], color: PremultipliedColor,
                            onto pixmap: Pixmap, rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<pixmap.height)
        guard !rows.isEmpty, pixmap.width > 0, color.alpha > 0 else { return }
        var start = 0
        for (k, end) in ends.enumerated() {
            defer { start = end }
            guard end - start >= 2, end <= points.count else { continue }
            for i in start..<(end - 1) { segment(points[i], points[i + 1], color, pixmap, rows) }
            if k < closed.count, closed[k] { segment(points[end - 1], points[start], color, pixmap, rows) }
        }
    }

    /// Alpha in 1/256 for a pixel at distance `d` (< 1) from the line.
    @inline(__always) private static func weight(_ d: Double) -> UInt32 {
        let t = min(max(d, 0), 1)
        // (Rounded half up by truncation, as `rounded()` rounds a value in 0...256, without its
        // C library call.)
        let v = (1 - t * t * (3 - 2 * t)) * 256
        let whole = UInt32(v)
        return v - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    private static func segment(_ a: Point, _ b: Point, _ color: PremultipliedColor, _ pixmap: Pixmap, _ rows: Range<Int>) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, a != b else { return }
        let w = pixmap.width
        // (Off the rows or columns drawn: nothing.)
        guard max(a.y, b.y) >= Double(rows.lowerBound) - 1, min(a.y, b.y) <= Double(rows.upperBound) + 1,
              max(a.x, b.x) >= -1, min(a.x, b.x) <= Double(w) + 1 else { return }
        if abs(b.x - a.x) >= abs(b.y - a.y) {
            // x-major: columns by centre in [min x, max x), rows within 1 of the line.
            let (p, q) = a.x <= b.x ? (a, b) : (b, a)
            let slope = (q.y - p.y) / (q.x - p.x)
            let c0 = max(0, pixelIndex(p.x)), c1 = min(w, pixelIndex(q.x))
            guard c0 < c1 else { return }
            for c in c0..<c1 {
                let yl = p.y + (Double(c) + 0.5 - p.x) * slope
                let r0 = max(rows.lowerBound, pixelIndex(yl - 1)), r1 = min(rows.upperBound, pixelIndex(yl + 1))
                guard r0 < r1 else { continue }
                for r in r0..<r1 {
                    let s = weight(abs(Double(r) + 0.5 - yl))
                    guard s > 0 else { continue }
                    let px = pixmap.pixels + r * w + c
                    px.pointee = Blend.over(Blend.scale(color.packed, s), px.pointee)
                }
            }
        } else {
            let (p, q) = a.y <= b.y ? (a, b) : (b, a)
            let slope = (q.x - p.x) / (q.y - p.y)
            let r0 = max(rows.lowerBound, pixelIndex(p.y)), r1 = min(rows.upperBound, pixelIndex(q.y))
            guard r0 < r1 else { return }
            for r in r0..<r1 {
                let xl = p.x + (Double(r) + 0.5 - p.y) * slope
                let c0 = max(0, pixelIndex(xl - 1)), c1 = min(w, pixelIndex(xl + 1))
                guard c0 < c1 else { continue }
                for c in c0..<c1 {
                    let s = weight(abs(Double(c) + 0.5 - xl))
                    guard s > 0 else { continue }
                    let px = pixmap.pixels + r * w + c
                    px.pointee = Blend.over(Blend.scale(color.packed, s), px.pointee)
                }
            }
        }
    }
}
