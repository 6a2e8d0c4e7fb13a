import Foundation

/// A GeoJSON source's polygon rings as MapLibre's tiles hold them (geojson-vt): cut to a tile's
/// square grown by the source's buffer, x first then y, each ring starting where the cut leaves
/// it, closed, and wound exterior clockwise on screen. Walls with a pattern run along these rings
/// (their edge distances restart in each tile). Units: the tiles' grid, 8192 a tile.
struct ExtrusionTileRings {
    private var a: [SIMD2<Double>] = [], b: [SIMD2<Double>] = []

    /// `ring` (closed) cut to [x0, x1] x [y0, y1], into `out` (closed; empty when nothing is
    /// left). `box`: the whole feature's box, which accepts an axis without cutting it when it
    /// lies within (minimum at or past the low side, maximum before the high one).
    mutating func cut(_ ring: [SIMD2<Double>], box: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                      x0: Double, x1: Double, y0: Double, y1: Double, exterior: Bool, into out: inout [SIMD2<Double>]) {
        a = ring
        if !(box.minX >= x0 && box.maxX < x1) { Self.clip(a, axis: 0, x0, x1, into: &b); swap(&a, &b) }
        if !(box.minY >= y0 && box.maxY < y1) { Self.clip(a, axis: 1, y0, y1, into: &b); swap(&a, &b) }
        out.removeAll(keepingCapacity: true)
        guard a.count >= 2 else { return }
        // Rounded to the grid, as the tile stores its points.
        for p in a { out.append(p.rounded(.toNearestOrAwayFromZero)) }
        // Wound as geojson-vt winds it: the whole closed ring reversed (its first point stays).
        var area = 0.0
        for i in 1..<out.count { area += (out[i].x - out[i - 1].x) * (out[i].y + out[i - 1].y) }
        if (area > 0) == exterior { out.reverse() }
    }

    /// geojson-vt's `clipRing` for a polygon ring on one axis.
    static func clip(_ ring: [SIMD2<Double>], axis: Int, _ k1: Double, _ k2: Double, into out: inout [SIMD2<Double>]) {
        out.removeAll(keepingCapacity: true)
        guard ring.count >= 2 else { return }
        func intersect(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ k: Double) -> SIMD2<Double> {
            if axis == 0 { return SIMD2(k, p.y + (q.y - p.y) * (k - p.x) / (q.x - p.x)) }
            return SIMD2(p.x + (q.x - p.x) * (k - p.y) / (q.y - p.y), k)
        }
        for i in 0..<(ring.count - 1) {
            let p = ring[i], q = ring[i + 1]
            let va = axis == 0 ? p.x : p.y, vb = axis == 0 ? q.x : q.y
            if va < k1 {
                if vb >= k1 { out.append(intersect(p, q, k1)) }
            } else if va > k2 {
                if vb <= k2 { out.append(intersect(p, q, k2)) }
            } else {
                out.append(p)
            }
            if vb < k1 && va >= k1 { out.append(intersect(p, q, k1)) }
            if vb > k2 && va <= k2 { out.append(intersect(p, q, k2)) }
        }
        if let last = ring.last {
            let v = axis == 0 ? last.x : last.y
            if v >= k1 && v <= k2 { out.append(last) }
        }
        if out.count >= 2, let f = out.first, let l = out.last, f != l { out.append(f) }
    }
}
