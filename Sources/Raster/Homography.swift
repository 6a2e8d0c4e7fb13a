/// A plane projective map: (x, y) to ((a x + b y + c) / w, (d x + e y + f) / w) with
/// w = g x + h y + i (a perspective view of a plane; affine maps are those with g = h = 0).
public struct Homography: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double, i: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double, i: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f; self.g = g; self.h = h; self.i = i
    }

    @inline(__always) public func apply(_ x: Double, _ y: Double) -> Point {
        let w = g * x + h * y + i
        return Point((a * x + b * y + c) / w, (d * x + e * y + f) / w)
    }

    /// The inverse map (nil when singular).
    public func inverted() -> Homography? {
        // The adjugate over the determinant (any non-zero scale gives the same map).
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        return Homography(a: A * k, b: -(b * i - c * h) * k, c: (b * f - c * e) * k,
                          d: B * k, e: (a * i - c * g) * k, f: -(a * f - c * d) * k,
                          g: C * k, h: -(a * h - b * g) * k, i: (a * e - b * d) * k)
    }

    /// This map followed by the affine map `t`.
    public func then(_ t: Transform) -> Homography {
        Homography(a: t.a * a + t.c * d + t.tx * g, b: t.a * b + t.c * e + t.tx * h, c: t.a * c + t.c * f + t.tx * i,
                   d: t.b * a + t.d * d + t.ty * g, e: t.b * b + t.d * e + t.ty * h, f: t.b * c + t.d * f + t.ty * i,
                   g: g, h: h, i: i)
    }
}

extension GroundProjection {
    /// The flat screen to the screen as a homography (without the planes).
    public var homography: Homography {
        Homography(a: m.0, b: m.1, c: m.2, d: m.3, e: m.4, f: m.5, g: m.6, h: m.7, i: m.8)
    }
}
