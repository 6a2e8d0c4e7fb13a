import Foundation

extension LngLat {
    /// The Earth's mean radius, km (IUGG).
    public static let meanEarthRadiusKm = 6371.0088

    /// Great-circle distance in km on a sphere of the Earth's mean radius.
    public func distanceKm(to other: LngLat) -> Double {
        let f1 = lat * Double.pi / 180, f2 = other.lat * Double.pi / 180
        let df = f2 - f1, dl = (other.lng - lng) * Double.pi / 180
        let h = sin(df / 2) * sin(df / 2) + cos(f1) * cos(f2) * sin(dl / 2) * sin(dl / 2)
        return 2 * Self.meanEarthRadiusKm * asin(min(1, h.squareRoot()))
    }

    /// The distance in km to a polyline, segment by segment in the plane tangent here, for
    /// lines of short segments (a few hundred km: the plane's error is well under a kilometre).
    public func distanceKm(toLine line: [LngLat]) -> Double {
        let kmPerDegree = Self.meanEarthRadiusKm * Double.pi / 180, c = cos(lat * Double.pi / 180)
        func local(_ q: LngLat) -> (x: Double, y: Double) {
            var dl = q.lng - lng
            dl -= 360 * ((dl + 180) / 360).rounded(.down)
            return (dl * c * kmPerDegree, (q.lat - lat) * kmPerDegree)
        }
        if line.count == 1 { return distanceKm(to: line[0]) }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let u = local(a), v = local(b)
            let dx = v.x - u.x, dy = v.y - u.y, n = dx * dx + dy * dy
            let k = n > 0 ? min(max(-(u.x * dx + u.y * dy) / n, 0), 1) : 0
            let x = u.x + k * dx, y = u.y + k * dy
            best = min(best, (x * x + y * y).squareRoot())
        }
        return best
    }
}
