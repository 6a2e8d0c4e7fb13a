import Foundation

/// A square of the tile pyramid in normalised Web Mercator, and geometry cut to it.
///
/// Tiles carry their features a little beyond their edges (a buffer); a map drawn from several
/// tiles keeps each tile's share inside its own square, so nothing is drawn twice where tiles
/// meet. Cuts are exact: a tile's edges are multiples of 2^-z, and a crossing is computed from the
/// segment's two ends in a fixed order, so two tiles cutting the same segment at their common edge
/// make the same point (and the pieces join again, `CoverFeatures`).
public struct TileSquare: Equatable, Sendable {
    public let minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(_ tile: TileID) {
        let s = 1 / Double(1 << tile.z)
        minX = Double(tile.x) * s; minY = Double(tile.y) * s; maxX = Double(tile.x + 1) * s; maxY = Double(tile.y + 1) * s
    }

    /// Whether p lies on one of the square's edge lines.
    @inline(__always) func onEdge(_ x: Double, _ y: Double) -> Bool {
        x == minX || x == maxX || y == minY || y == maxY
    }

    /// Whether the segment a-b runs along one edge line (both ends on the same one).
    @inline(__always) func alongEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
        (ax == bx && (ax == minX || ax == maxX)) || (ay == by && (ay == minY || ay == maxY))
    }

    /// Inside, with the east and south edges left out, so that a point on an edge between two
    /// tiles belongs to one of them.
    @inline(__always) func holds(_ x: Double, _ y: Double) -> Bool {
        x >= minX && x < maxX && y >= minY && y < maxY
    }
}

/// The crossing of segment p-q with the vertical line x = v (or the horizontal y = v), computed
/// from the end with the smaller coordinate along the line's normal, so that the answer does
/// not depend on the segment's direction.
@inline(__always) private func crossX(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ v: Double) -> (Double, Double) {
    let (ax, ay, bx, by) = px < qx ? (px, py, qx, qy) : (qx, qy, px, py)
    return (v, ay + (by - ay) * ((v - ax) / (bx - ax)))
}
@inline(__always) private func crossY(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ v: Double) -> (Double, Double) {
    let (ax, ay, bx, by) = py < qy ? (px, py, qx, qy) : (qx, qy, px, py)
    return (ax + (bx - ax) * ((v - ay) / (by - ay)), v)
}

extension FeatureGeometry {
    /// The geometry inside `square`, and whether what is left reaches its edges (another tile
    /// may hold the rest); nil when nothing is left. Points keep those `square.holds`; lines are
    /// cut where they leave and re-enter; polygon rings are clipped (Sutherland-Hodgman), their
    /// winding kept, and the edges that run along the square's sides are left out of `outline`.
    public func clipped(to square: TileSquare) -> (geometry: FeatureGeometry, touchesEdge: Bool)? {
        if minX >= square.minX, maxX <= square.maxX, minY >= square.minY, maxY <= square.maxY {
            // Wholly inside (edges included): kept as it is, unless points lie on the east or south edge.
            let touches = minX == square.minX || maxX == square.maxX || minY == square.minY || maxY == square.maxY
            if !touches { return (self, false) }
            if kind == .lines { return (self, true) }
        }
        if maxX < square.minX || minX > square.maxX || maxY < square.minY || minY > square.maxY { return nil }
        switch kind {
        case .points: return clippedPoints(square)
        case .lines: return clippedLines(square)
        case .polygons: return clippedPolygons(square)
        }
    }

    private func clippedPoints(_ s: TileSquare) -> (geometry: FeatureGeometry, touchesEdge: Bool)? {
        var parts: [[MercatorPoint]] = []
        var touches = false
        for i in 0..<partCount {
            let kept = part(i).compactMap { k -> MercatorPoint? in
                let x = coordinates[2 * k], y = coordinates[2 * k + 1]
                guard s.holds(x, y) else { return nil }
                if s.onEdge(x, y) { touches = true }
                return MercatorPoint(x: x, y: y)
            }
            if !kept.isEmpty { parts.append(kept) }
        }
        guard !parts.isEmpty else { return nil }
        return (FeatureGeometry(kind: .points, parts: parts), touches)
    }

    private func clippedLines(_ s: TileSquare) -> (geometry: FeatureGeometry, touchesEdge: Bool)? {
        var parts: [[MercatorPoint]] = []
        var touches = false
        for i in 0..<partCount {
            let r = part(i)
            guard r.count >= 2 else { continue }
            var current: [MercatorPoint] = []
            for k in r.lowerBound..<(r.upperBound - 1) {
                let ax = coordinates[2 * k], ay = coordinates[2 * k + 1]
                let bx = coordinates[2 * k + 2], by = coordinates[2 * k + 3]
                guard let (p, q) = Self.clipSegment(ax, ay, bx, by, s) else {
                    if current.count >= 2 { parts.append(current) }
                    current = []
                    continue
                }
                if let last = current.last, last != p {
                    if current.count >= 2 { parts.append(current) }
                    current = []
                }
                if current.isEmpty { current.append(p) }
                current.append(q)
                if q.x != bx || q.y != by {           // it leaves the square here
                    if current.count >= 2 { parts.append(current) }
                    current = []
                }
            }
            if current.count >= 2 { parts.append(current) }
        }
        guard !parts.isEmpty else { return nil }
        for p in parts { if let a = p.first, let b = p.last, s.onEdge(a.x, a.y) || s.onEdge(b.x, b.y) { touches = true } }
        return (FeatureGeometry(kind: .lines, parts: parts), touches)
    }

    /// The part of segment a-b inside the square (Liang-Barsky on the four sides, then the
    /// crossings made exact by `crossX` / `crossY`); nil when none is.
    static func clipSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                            _ s: TileSquare) -> (MercatorPoint, MercatorPoint)? {
        var p = (ax, ay), q = (bx, by)
        // Each side in turn: x >= minX, x <= maxX, y >= minY, y <= maxY.
        if p.0 < s.minX && q.0 < s.minX { return nil }
        if p.0 < s.minX { p = crossX(p.0, p.1, q.0, q.1, s.minX) } else if q.0 < s.minX { q = crossX(p.0, p.1, q.0, q.1, s.minX) }
        if p.0 > s.maxX && q.0 > s.maxX { return nil }
        if p.0 > s.maxX { p = crossX(p.0, p.1, q.0, q.1, s.maxX) } else if q.0 > s.maxX { q = crossX(p.0, p.1, q.0, q.1, s.maxX) }
        if p.1 < s.minY && q.1 < s.minY { return nil }
        if p.1 < s.minY { p = crossY(p.0, p.1, q.0, q.1, s.minY) } else if q.1 < s.minY { q = crossY(p.0, p.1, q.0, q.1, s.minY) }
        if p.1 > s.maxY && q.1 > s.maxY { return nil }
        if p.1 > s.maxY { p = crossY(p.0, p.1, q.0, q.1, s.maxY) } else if q.1 > s.maxY { q = crossY(p.0, p.1, q.0, q.1, s.maxY) }
        // (A crossing of one side can land outside another: the segment missed the corner.)
        guard p.0 >= s.minX, p.0 <= s.maxX, q.0 >= s.minX, q.0 <= s.maxX,
              p.1 >= s.minY, p.1 <= s.maxY, q.1 >= s.minY, q.1 <= s.maxY else { return nil }
        return (MercatorPoint(x: p.0, y: p.1), MercatorPoint(x: q.0, y: q.1))
    }

    private func clippedPolygons(_ s: TileSquare) -> (geometry: FeatureGeometry, touchesEdge: Bool)? {
        var parts: [[MercatorPoint]] = [], starts: [Int] = []
        var outline: [[MercatorPoint]] = []
        var touches = false
        for poly in 0..<(polygonStarts.count - 1) {
            var first = true
            for ringIndex in polygonStarts[poly]..<polygonStarts[poly + 1] {
                let r = part(ringIndex)
                var ring: [MercatorPoint] = []
                ring.reserveCapacity(r.count)
                for k in r { ring.append(MercatorPoint(x: coordinates[2 * k], y: coordinates[2 * k + 1])) }
                if ring.count > 1, ring.first == ring.last { ring.removeLast() }
                let kept = Self.clipRing(ring, s)
                guard kept.count >= 3 else {
                    if first { break }          // the exterior is gone: so are its holes
                    continue
                }
                if first { starts.append(parts.count); first = false }
                // The outline: the ring's edges, broken where they run along a side (walked from
                // the edge after the first such one, so that no run wraps around the start).
                let n = kept.count
                for a in kept where s.onEdge(a.x, a.y) { touches = true; break }
                if let cutAt = (0..<n).first(where: { s.alongEdge(kept[$0].x, kept[$0].y, kept[($0 + 1) % n].x, kept[($0 + 1) % n].y) }) {
                    var run: [MercatorPoint] = []
                    for step in 1...n {
                        let i = (cutAt + step) % n
                        let a = kept[i], b = kept[(i + 1) % n]
                        if s.alongEdge(a.x, a.y, b.x, b.y) {
                            if run.count >= 2 { outline.append(run) }
                            run = []
                            continue
                        }
                        if run.isEmpty { run.append(a) }
                        run.append(b)
                    }
                    if run.count >= 2 { outline.append(run) }
                } else {
                    outline.append(kept + [kept[0]])
                }
                parts.append(kept + [kept[0]])
            }
        }
        guard !parts.isEmpty else { return nil }
        let g = FeatureGeometry(kind: .polygons, parts: parts, polygonStarts: starts,
                                outline: touches ? FeatureGeometry(kind: .lines, parts: outline) : nil)
        return (g, touches)
    }

    /// A ring (not closed) clipped to the square, side by side (Sutherland-Hodgman).
    static func clipRing(_ ring: [MercatorPoint], _ s: TileSquare) -> [MercatorPoint] {
        var points = ring
        for side in 0..<4 {
            guard !points.isEmpty else { break }
            let v: Double = side == 0 ? s.minX : side == 1 ? s.maxX : side == 2 ? s.minY : s.maxY
            func inside(_ p: MercatorPoint) -> Bool {
                switch side {
                case 0: return p.x >= v
                case 1: return p.x <= v
                case 2: return p.y >= v
                default: return p.y <= v
                }
            }
            var out: [MercatorPoint] = []
            out.reserveCapacity(points.count + 4)
            var a = points[points.count - 1]
            var aIn = inside(a)
            for b in points {
                let bIn = inside(b)
                if bIn != aIn {
                    let c = side < 2 ? crossX(a.x, a.y, b.x, b.y, v) : crossY(a.x, a.y, b.x, b.y, v)
                    out.append(MercatorPoint(x: c.0, y: c.1))
                }
                if bIn { out.append(b) }
                a = b; aIn = bIn
            }
            points = out
        }
        return points
    }
}
