import Foundation

/// Flat-earth distances in metres near one latitude (the cheap-ruler approximation MapLibre's
/// `distance` uses: WGS84 ellipsoid, scales fixed at the ruler's latitude). Positions are
/// longitude, latitude.
struct CheapRuler {
    let kx: Double
    let ky: Double

    init(latitude: Double) {
        let re = 6378.137, fe = 1 / 298.257223563
        let e2 = fe * (2 - fe)
        let rad = Double.pi / 180
        let m = rad * re * 1000
        let coslat = cos(latitude * rad)
        let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
        let w = w2.squareRoot()
        kx = m * w * coslat
        ky = m * w * w2 * (1 - e2)
    }

    @inline(__always) static func wrap(_ degrees: Double) -> Double {
        var d = degrees
        while d < -180 { d += 360 }
        while d > 180 { d -= 360 }
        return d
    }

    func distance(_ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = Self.wrap(a.x - b.x) * kx, dy = (a.y - b.y) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The point of segment a-b nearest to `p`, and its squared distance in metres.
    @inline(__always) func nearest(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> (point: PlanePoint, squared: Double) {
        var x = a.x, y = a.y
        var dx = Self.wrap(b.x - x) * kx, dy = (b.y - y) * ky
        if dx != 0 || dy != 0 {
            let t = (Self.wrap(p.x - x) * kx * dx + (p.y - y) * ky * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x; y = b.y
            } else if t > 0 {
                x += dx / kx * t; y += dy / ky * t
            }
        }
        dx = Self.wrap(p.x - x) * kx
        dy = (p.y - y) * ky
        return (PlanePoint(x, y), dx * dx + dy * dy)
    }

    /// From `p` to the nearest point of `line` (infinity for a line of fewer than two
    /// positions), measured as MapLibre's `pointOnLine` then `distance` measure it.
    func distance(_ p: PlanePoint, toLine line: ArraySlice<PlanePoint>) -> Double {
        var best = Double.infinity
        var nearest: PlanePoint?
        var i = line.startIndex
        while i + 1 < line.endIndex {
            let n = self.nearest(p, line[i], line[i + 1])
            if n.squared < best { best = n.squared; nearest = n.point }
            i += 1
        }
        return nearest.map { distance(p, $0) } ?? .infinity
    }

    /// From `p` to segment a-b.
    @inline(__always) func distance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        distance(p, nearest(p, a, b).point)
    }

    func segmentDistance(_ p1: PlanePoint, _ p2: PlanePoint, _ q1: PlanePoint, _ q2: PlanePoint) -> Double {
        min(distance(p1, q1, q2), distance(p2, q1, q2), distance(q1, p1, p2), distance(q2, p1, p2))
    }
}
