/// Parallel curves of polylines (for line gap widths: casings drawn on both sides of a gap).
public enum PolylineOffset {
    /// The polyline moved sideways by `distance` pixels (positive: to the left of the direction of
    /// travel in y-down coordinates, the side of (-dy, dx)). Interior vertices move along the angle
    /// bisector; where that would reach further than `miterLimit` x |distance|, the corner is cut
    /// (two points), as a bevel join would.
    public static func offset(_ pts: [Point], by distance: Double, miterLimit: Double = 2, into out: inout [Point]) {
        var ends: [Int] = []
        offset(pts, by: distance, miterLimit: miterLimit, splitSharp: false, into: &out, ends: &ends)
    }

    /// As `offset`, but with `splitSharp` a corner sharper than a 2:1 miter (the reference
    /// engines' "flipped bevel": the two sides of a casing then end at the corner instead of
    /// being joined across it) splits the curve: `ends` receives the end index of each piece.
    public static func offset(_ pts: [Point], by distance: Double, miterLimit: Double = 2, splitSharp: Bool,
                              into out: inout [Point], ends: inout [Int]) {
        out.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        defer { if !out.isEmpty { ends.append(out.count) } }
        // Drop repeated points, which have no direction.
        var p: [Point] = []
        p.reserveCapacity(pts.count)
        for q in pts where p.last.map({ ($0 - q).length > 1e-9 }) ?? true { p.append(q) }
        guard p.count >= 2 else { return }
        func normal(_ a: Point, _ b: Point) -> Point {
            let v = b - a, l = v.length
            return Point(-v.y / l, v.x / l)
        }
        out.append(p[0] + normal(p[0], p[1]) * distance)
        for i in 1..<(p.count - 1) {
            let n0 = normal(p[i - 1], p[i]), n1 = normal(p[i], p[i + 1])
            let m = n0 + n1
            let ml = m.length
            let cosHalf = ml / 2                                  // cos of half the turn
            if ml < 1e-9 || 1 / cosHalf > miterLimit {
                out.append(p[i] + n0 * distance)
                if splitSharp && 1 / cosHalf > 2 { ends.append(out.count) }
                out.append(p[i] + n1 * distance)
            } else {
                out.append(p[i] + m * (distance / (ml * cosHalf)))
            }
        }
        out.append(p[p.count - 1] + normal(p[p.count - 2], p[p.count - 1]) * distance)
    }
}
