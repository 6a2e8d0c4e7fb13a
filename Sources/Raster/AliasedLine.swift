import Foundation

/// A one-pixel line as a GPU rasterizes `GL_LINES` without smoothing (the diamond-exit rule of
/// the OpenGL specification, 14.5.1): pixel (i, j) is drawn when the segment meets its diamond
/// |x - i - 0.5| + |y - j - 0.5| < 1/2 and leaves it, its end outside. A segment's end pixel is
/// then left to the next segment, and a polyline covers each pixel once but where it crosses
/// itself. MapLibre draws its collision-debug boxes so.
public enum AliasedLine {
    /// Blends premultiplied `color` over the pixels of segment `a` to `b` (pixel coordinates,
    /// centres at halves) in `pixmap`'s rows `rows`.
    public static func draw(from a: Point, to b: Point, color: UInt32, into pixmap: Pixmap, rows: Range<Int>) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, a != b else { return }
        let i0 = max(0, Int((min(a.x, b.x) - 1).rounded(.down))), i1 = min(pixmap.width - 1, Int((max(a.x, b.x) + 1).rounded(.up)))
        let j0 = max(rows.lowerBound, Int((min(a.y, b.y) - 1).rounded(.down))), j1 = min(rows.upperBound - 1, Int((max(a.y, b.y) + 1).rounded(.up)))
        guard i0 <= i1, j0 <= j1 else { return }
        let buf = pixmap.buffer, w = pixmap.width
        for j in j0...j1 {
            for i in i0...i1 where covers(a, b, Point(Double(i) + 0.5, Double(j) + 0.5)) {
                buf[j * w + i] = Blend.over(color, buf[j * w + i])
            }
        }
    }

    /// Whether segment `a` to `b` meets the diamond about `c` and leaves it.
    static func covers(_ a: Point, _ b: Point, _ c: Point) -> Bool {
        @inline(__always) func inside(_ p: Point) -> Bool { abs(p.x - c.x) + abs(p.y - c.y) < 0.5 }
        guard !inside(b) else { return false }
        // The segment's nearest approach to c in the L1 norm: at an end, or where it crosses the
        // diamond's axes (the norm is linear in between).
        let dx = b.x - a.x, dy = b.y - a.y
        var ts: [Double] = [0, 1]
        if dx != 0 { ts.append((c.x - a.x) / dx) }
        if dy != 0 { ts.append((c.y - a.y) / dy) }
        for t in ts where t >= 0 && t <= 1 {
            if inside(Point(a.x + dx * t, a.y + dy * t)) { return true }
        }
        return false
    }
}
