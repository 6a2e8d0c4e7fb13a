import Foundation

/// MapLibre's globe camera, its "vertical-perspective" projection (GL JS
/// `vertical_perspective_transform.ts`, `_calcMatrices` and `_computeClippingPlane`;
/// `globe_utils.ts`; 3D-AND-LAYERS.md (b)): the Earth a sphere of radius
/// `worldSize / (2π cos(centre latitude))` pixels (at the centre the scale is Mercator's), seen from
/// the pitched camera's distance, turned so that the centre faces it.
///
/// Points of the sphere are unit vectors: (sin λ cos φ, sin φ, cos λ cos φ), y north, z towards
/// (0, 0). The horizon is the plane through the points where the camera's lines of sight touch the
/// sphere: what lies behind it is the far side, hidden.
public struct GlobeTransform: Sendable {
    public let width: Double, height: Double
    /// The Mercator world's size in pixels at the zoom, and the sphere's radius in pixels.
    public let worldSize: Double, radius: Double
    public let center: LngLat
    /// Radians.
    public let pitch: Double, bearing: Double, fieldOfView: Double
    public let cameraToCenterDistance: Double
    public let near: Double, far: Double
    /// The camera, on the unit sphere's scale, and the horizon's plane: a point p of the sphere
    /// is on the near side when p · (x, y, z) + w >= 0.
    public let camera: SIMD3<Double>
    public let horizonPlane: SIMD4<Double>
    /// Unit sphere (x, y, z, 1) to clip space, row-major; and back.
    let matrix: [Double]
    let inverse: [Double]?

    /// `pitch` and `bearing` in degrees; `width` x `height` the viewport in pixels.
    public init(center: LngLat, zoom: Double, pitch pitchDegrees: Double, bearing bearingDegrees: Double,
                width: Int, height: Int, fieldOfView: Double = PerspectiveTransform.defaultFieldOfView) {
        let w = Double(max(1, width)), h = Double(max(1, height))
        self.width = w; self.height = h
        self.center = center
        worldSize = 512 * exp2(zoom)
        let lat = center.lat * Double.pi / 180, lng = center.lng * Double.pi / 180
        radius = worldSize / (2 * Double.pi * cos(lat))
        pitch = pitchDegrees * Double.pi / 180
        bearing = bearingDegrees * Double.pi / 180
        self.fieldOfView = fieldOfView
        let ctc = 0.5 / tan(fieldOfView / 2) * h
        cameraToCenterDistance = ctc
        near = 0.5
        far = ctc + 2 * radius
        // perspective . translate(0, 0, -ctc) . rotateX(-pitch) . rotateZ(bearing) . translate(0, 0, -R)
        //   . rotateX(lat) . rotateY(-lng) . scale(R)
        var m = PerspectiveTransform.perspective(fieldOfView: fieldOfView, aspect: w / h, near: near, far: far)
        m = PerspectiveTransform.multiply(m, Self.translation(0, 0, -ctc))
        m = PerspectiveTransform.multiply(m, Self.rotationX(-pitch))
        m = PerspectiveTransform.multiply(m, Self.rotationZ(bearing))
        m = PerspectiveTransform.multiply(m, Self.translation(0, 0, -radius))
        m = PerspectiveTransform.multiply(m, Self.rotationX(lat))
        m = PerspectiveTransform.multiply(m, Self.rotationY(-lng))
        m = PerspectiveTransform.multiply(m, [radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, 1])
        matrix = m
        inverse = PerspectiveTransform.invert(m)
        // The camera: back along the view axis by ctc, then the same turns undone.
        var c = SIMD3<Double>(0, 0, ctc / radius)
        c = Self.turned(c, by: Self.rotationX(pitch))
        c = Self.turned(c, by: Self.rotationZ(-bearing))
        c.z += 1
        c = Self.turned(c, by: Self.rotationX(-lat))
        c = Self.turned(c, by: Self.rotationY(lng))
        camera = c
        let distance = (c * c).sum().squareRoot()
        let n = c / distance
        horizonPlane = SIMD4(n.x, n.y, n.z, -1 / distance)
    }

    /// The unit vector of `p` on the sphere.
    public static func surface(_ p: LngLat) -> SIMD3<Double> {
        let l = p.lng * Double.pi / 180, f = p.lat * Double.pi / 180
        return SIMD3(sin(l) * cos(f), sin(f), cos(l) * cos(f))
    }

    /// The place of unit vector `v` on the sphere.
    public static func lngLat(_ v: SIMD3<Double>) -> LngLat {
        let r = (v * v).sum().squareRoot()
        return LngLat(lng: atan2(v.x, v.z) * 180 / Double.pi, lat: asin(min(max(v.y / r, -1), 1)) * 180 / Double.pi)
    }

    /// Whether point `v` of the sphere (scaled by 1 + height / radius for a point above it) is on
    /// the side the camera sees.
    public func isSeen(_ v: SIMD3<Double>) -> Bool {
        (v * SIMD3(horizonPlane.x, horizonPlane.y, horizonPlane.z)).sum() + horizonPlane.w >= 0
    }

    /// Where point `v` of the unit sphere lands on screen, and its clip: x, y, w (w, its distance
    /// along the view axis, is the camera distance at the centre).
    public func project(_ v: SIMD3<Double>) -> (x: Double, y: Double, clip: SIMD4<Double>) {
        let c = clip(v)
        return ((c.x / c.w + 1) * width / 2, (1 - c.y / c.w) * height / 2, c)
    }

    /// Where `p` lands on screen, its clip w, and whether the camera sees it.
    public func project(_ p: LngLat) -> (x: Double, y: Double, w: Double, seen: Bool) {
        let v = Self.surface(p), s = project(v)
        return (s.x, s.y, s.clip.w, isSeen(v))
    }

    /// Point `v` of the unit sphere in clip space.
    public func clip(_ v: SIMD3<Double>) -> SIMD4<Double> {
        let m = matrix
        return SIMD4(m[0] * v.x + m[1] * v.y + m[2] * v.z + m[3],
                     m[4] * v.x + m[5] * v.y + m[6] * v.z + m[7],
                     m[8] * v.x + m[9] * v.y + m[10] * v.z + m[11],
                     m[12] * v.x + m[13] * v.y + m[14] * v.z + m[15])
    }

    /// The point of the sphere seen at screen pixel (x, y): where the line of sight first meets
    /// it; nil past the globe's edge.
    public func unproject(x: Double, y: Double) -> LngLat? {
        guard let inv = inverse else { return nil }
        let nx = x / width * 2 - 1, ny = 1 - y / height * 2
        guard let a = PerspectiveTransform.unprojected(inv, nx, ny, -1), let b = PerspectiveTransform.unprojected(inv, nx, ny, 1) else { return nil }
        // |a + t d| = 1: t^2 |d|^2 + 2 t a.d + |a|^2 - 1 = 0, the nearer root.
        let d = b - a
        let qa = (d * d).sum(), qb = 2 * (a * d).sum(), qc = (a * a).sum() - 1
        let disc = qb * qb - 4 * qa * qc
        guard qa > 0, disc >= 0 else { return nil }
        let t = (-qb - disc.squareRoot()) / (2 * qa)
        return Self.lngLat(a + d * t)
    }

    /// How much of the globe the "globe" projection shows at `zoom` (MapLibre's "globeness": 1
    /// below zoom 11, 0 from zoom 12, linear between; `globe_projection.ts`).
    public static func globeness(zoom: Double) -> Double { min(max(12 - zoom, 0), 1) }

    /// Where `p` lands on screen between Mercator (`mercator`, the same camera) and this globe, at
    /// globeness `g`: their clip x, y and w mixed, as MapLibre's vertex shader mixes them
    /// (`_projection_globe.vertex.glsl`).
    public func project(_ p: LngLat, blending mercator: PerspectiveTransform, globeness g: Double) -> (x: Double, y: Double) {
        let m = mercator.project(WebMercator.project(p))
        let mc = SIMD3((m.x / width * 2 - 1) * m.w, (1 - m.y / height * 2) * m.w, m.w)
        let gc = clip(Self.surface(p)), globe = SIMD3(gc.x, gc.y, gc.w)
        let c = mc + (globe - mc) * g
        return ((c.x / c.z + 1) * width / 2, (1 - c.y / c.z) * height / 2)
    }

    // Rotations and translations of gl-matrix (right-handed, row-major here).
    static func translation(_ x: Double, _ y: Double, _ z: Double) -> [Double] { [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1] }
    static func rotationX(_ a: Double) -> [Double] { let c = cos(a), s = sin(a); return [1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1] }
    static func rotationY(_ a: Double) -> [Double] { let c = cos(a), s = sin(a); return [c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1] }
    static func rotationZ(_ a: Double) -> [Double] { let c = cos(a), s = sin(a); return [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }
    /// `v` through the upper 3 x 3 of row-major `m` (one of the rotations above).
    static func turned(_ v: SIMD3<Double>, by m: [Double]) -> SIMD3<Double> {
        SIMD3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[4] * v.x + m[5] * v.y + m[6] * v.z, m[8] * v.x + m[9] * v.y + m[10] * v.z)
    }
}
