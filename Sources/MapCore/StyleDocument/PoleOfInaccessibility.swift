import Foundation

/// Where a polygon's label goes with `symbol-placement: point`: its pole of inaccessibility,
/// the inner point farthest from its edges, found as MapLibre finds it (its
/// `find_pole_of_inaccessibility.ts`, after Mapbox's polylabel): square cells over the outer
/// ring's box, the most promising split first, until no cell can beat the best point by more
/// than `precision`. The first guess is the ring's centroid. Units are whatever the rings are in
/// (MapLibre: tile units, precision 16).
public enum PoleOfInaccessibility {
    /// Most cells examined: a degenerate or enormous polygon ends with the best found so far.
    static let probeLimit = 100_000

    /// The pole of `rings` (the outer ring first, then its holes; each a closed or open ring of
    /// x, y pairs), or nil for no ring.
    public static func find(_ rings: [[(x: Double, y: Double)]], precision: Double) -> (x: Double, y: Double)? {
        guard let outer = rings.first, let first = outer.first else { return nil }
        var minX = first.x, minY = first.y, maxX = first.x, maxY = first.y
        for p in outer { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        let width = maxX - minX, height = maxY - minY
        let size = min(width, height)
        guard size > 0, size.isFinite else { return (minX, minY) }
        var h = size / 2
        var queue: [Cell] = []
        var x = minX
        while x < maxX && queue.count < probeLimit {
            var y = minY
            while y < maxY && queue.count < probeLimit {
                queue.append(Cell(x + h, y + h, h, rings))
                y += size
            }
            x += size
        }
        var best = centroidCell(rings)
        var probes = queue.count
        // The most promising cell first.
        var heap = BinaryHeap<Cell> { $0.max > $1.max }
        for cell in queue { heap.push(cell) }
        while let cell = heap.pop() {
            if cell.d > best.d || best.d == 0 { best = cell }
            if cell.max - best.d <= precision { continue }
            guard probes < probeLimit else { break }
            h = cell.h / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] { heap.push(Cell(cell.x + dx, cell.y + dy, h, rings)) }
            probes += 4
        }
        return (best.x, best.y)
    }

    /// A square cell: its centre, half its side, its centre's signed distance to the polygon
    /// (negative outside) and the most any point in it could have.
    struct Cell {
        let x: Double, y: Double, h: Double, d: Double, max: Double
        init(_ x: Double, _ y: Double, _ h: Double, _ rings: [[(x: Double, y: Double)]]) {
            self.x = x; self.y = y; self.h = h
            d = PoleOfInaccessibility.distance(x, y, rings)
            max = d + h * 2.0.squareRoot()
        }
    }

    /// The signed distance from (x, y) to the rings' edges: positive inside (even-odd over all
    /// rings), negative outside.
    static func distance(_ x: Double, _ y: Double, _ rings: [[(x: Double, y: Double)]]) -> Double {
        var inside = false
        var best = Double.infinity
        for ring in rings where !ring.isEmpty {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.y > y) != (b.y > y) && x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                best = min(best, segmentDistanceSquared(x, y, a, b))
                j = i
            }
        }
        return (inside ? 1 : -1) * best.squareRoot()
    }

    private static func segmentDistanceSquared(_ px: Double, _ py: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        var x = a.x, y = a.y
        var dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b.x; y = b.y } else if t > 0 { x += dx * t; y += dy * t }
        }
        dx = px - x; dy = py - y
        return dx * dx + dy * dy
    }

    /// The outer ring's centroid as a cell of no size (its first point when the ring has no area).
    static func centroidCell(_ rings: [[(x: Double, y: Double)]]) -> Cell {
        let ring = rings[0]
        var area = 0.0, cx = 0.0, cy = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            let f = a.x * b.y - b.x * a.y
            cx += (a.x + b.x) * f; cy += (a.y + b.y) * f
            area += f * 3
            j = i
        }
        if area == 0 { return Cell(ring[0].x, ring[0].y, 0, rings) }
        return Cell(cx / area, cy / area, 0, rings)
    }
}
