import Foundation

/// The globe's screen back onto the flat map's screen: what point of the sphere each pixel shows
/// (the first crossing of its line of sight, or past the globe's edge the point of the edge the
/// line passes nearest), as a point of the flat screen `SphereProjection` draws from.
public struct SphereUnprojection: Sendable {
    /// Clip space to the unit sphere's space, row-major 4 x 4.
    let inverse: [Double]
    let width: Double, height: Double
    /// Normalised Mercator to the flat screen: (a x + b y + c, d x + e y + f).
    let toFlat: (Double, Double, Double, Double, Double, Double)

    /// `inverse`: the globe camera's clip space to the unit sphere; `flatToMercator` the flat
    /// screen to normalised Mercator (ax, bx, tx, ay, by, ty); nil when either is singular.
    public init?(inverse: [Double], width: Double, height: Double, flatToMercator f: (Double, Double, Double, Double, Double, Double)) {
        guard inverse.count == 16 else { return nil }
        let det = f.0 * f.4 - f.1 * f.3
        guard det != 0, det.isFinite else { return nil }
        self.inverse = inverse
        self.width = width; self.height = height
        let k = 1 / det
        // The inverse affine map: flat = M^-1 (m - t).
        let a = f.4 * k, b = -f.1 * k, d = -f.3 * k, e = f.0 * k
        toFlat = (a, b, -(a * f.2 + b * f.5), d, e, -(d * f.2 + e * f.5))
    }

    /// The line of sight through screen point (x, y) in the unit sphere's space: its point on
    /// the near plane and the step to the far plane's.
    @inline(__always) func sight(_ x: Double, _ y: Double) -> (a: SIMD3<Double>, dir: SIMD3<Double>) {
        let nx = x / width * 2 - 1, ny = 1 - y / height * 2
        let m = inverse
        // Clip (nx, ny, z, 1) for z = -1 and 1, through the inverse.
        let bx = m[0] * nx + m[1] * ny + m[3], by = m[4] * nx + m[5] * ny + m[7]
        let bz = m[8] * nx + m[9] * ny + m[11], bw = m[12] * nx + m[13] * ny + m[15]
        let a = SIMD3(bx - m[2], by - m[6], bz - m[10]) / (bw - m[14])
        let b = SIMD3(bx + m[2], by + m[6], bz + m[10]) / (bw + m[14])
        return (a, b - a)
    }

    /// The unit vector seen at screen point (x, y) (pixel centres at half pixels).
    @inline(__always) public func unit(_ x: Double, _ y: Double) -> SIMD3<Double> {
        let (a, dir) = sight(x, y)
        let qa = (dir * dir).sum(), qb = 2 * (a * dir).sum(), qc = (a * a).sum() - 1
        let disc = qb * qb - 4 * qa * qc
        // (Past the edge: the point of the line nearest the centre, put on the sphere.)
        let t = (-qb - max(disc, 0).squareRoot()) / (2 * qa)
        let p = a + dir * t
        let len = (p * p).sum().squareRoot()
        return len > 0 ? p / len : SIMD3(0, 0, 1)
    }

    /// Normalised Mercator of unit vector `v` (y unbounded towards the poles).
    @inline(__always) public static func mercator(_ v: SIMD3<Double>) -> (x: Double, y: Double) {
        let x = atan2(v.x, v.z) / (2 * Double.pi) + 0.5
        let s = min(max(v.y, -0.999_999_999), 0.999_999_999)
        let y = 0.5 - log((1 + s) / (1 - s)) / (4 * Double.pi)
        return (x, y)
    }

    /// The lowest normalised Mercator x `flat` gives: its points are in the world copy that
    /// starts there (an image that spans the antimeridian is sampled in one piece).
    public var wrapFrom = 0.0

    /// The flat screen point screen point (x, y) shows (in the copy from `wrapFrom`).
    @inline(__always) public func flat(_ x: Double, _ y: Double) -> Point {
        var m = Self.mercator(unit(x, y))
        if m.x < wrapFrom || m.x >= wrapFrom + 1 { m.x -= (m.x - wrapFrom).rounded(.down) }
        return flat(mercator: m)
    }

    /// The flat screen point of normalised Mercator `m`.
    @inline(__always) func flat(mercator m: (x: Double, y: Double)) -> Point {
        let f = toFlat
        return Point(f.0 * m.x + f.1 * m.y + f.2, f.3 * m.x + f.4 * m.y + f.5)
    }
}
