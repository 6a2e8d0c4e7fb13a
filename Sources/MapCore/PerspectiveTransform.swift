import Foundation
import Raster

/// MapLibre's pitched Mercator camera (GL JS `mercator_transform.ts`, `_calcMatrices`;
/// 3D-AND-LAYERS.md (a)): a perspective of vertical field of view `fov` from a camera
/// `cameraToCenterDistance` = 0.5 / tan(fov / 2) x height pixels from the centre, pitched about
/// the screen's x axis and turned by the bearing, with MapLibre's near and far planes. World
/// units are pixels of the zoom's world (512 x 2^zoom wide), heights are in those pixels too.
///
/// At pitch 0 it gives the flat map's own positions (w = the camera distance everywhere).
public struct PerspectiveTransform: Sendable {
    /// MapLibre's default vertical field of view, 2 atan(0.375) (36.87 degrees).
    public static let defaultFieldOfView = 0.6435011087932844
    /// The pitch beyond which MapLibre puts no ground (89.25 degrees).
    public static let maxHorizonAngle = 89.25 * Double.pi / 180

    public let width: Double, height: Double
    /// The world's size in pixels, and the centre in its pixels.
    public let worldSize: Double
    public let centerX: Double, centerY: Double
    /// Radians.
    public let pitch: Double, bearing: Double, fieldOfView: Double
    public let cameraToCenterDistance: Double
    public let near: Double, far: Double
    /// How far above the centre the horizon is on screen, in pixels (infinite at pitch 0).
    public let horizon: Double
    /// The screen row where the ground begins: rows above it show none (where the far plane
    /// cuts the ground, a little above the horizon; 0 when the ground fills the view's top).
    public let groundTopY: Double
    /// World pixels (x, y, z, 1) to clip space, row-major.
    let matrix: [Double]
    /// Clip space to world pixels (nil if the matrix cannot be inverted).
    let inverse: [Double]?

    /// `pitch` and `bearing` in degrees; `width` x `height` the viewport in pixels.
    public init(center: LngLat, zoom: Double, pitch pitchDegrees: Double, bearing bearingDegrees: Double,
                width: Int, height: Int, fieldOfView: Double = Self.defaultFieldOfView) {
        let w = Double(max(1, width)), h = Double(max(1, height))
        self.width = w; self.height = h
        worldSize = 512 * exp2(zoom)
        let m = WebMercator.project(center)
        centerX = m.x * worldSize; centerY = m.y * worldSize
        pitch = pitchDegrees * Double.pi / 180
        bearing = bearingDegrees * Double.pi / 180
        self.fieldOfView = fieldOfView
        let ctc = 0.5 / tan(fieldOfView / 2) * h
        cameraToCenterDistance = ctc
        horizon = pitch > 0 ? ctc * min(0.85 * tan(Double.pi / 2 - pitch), tan(Self.maxHorizonAngle - pitch)) : .infinity
        // The far plane: the farthest ground the view's top edge (or the horizon) reaches.
        let ground = Double.pi / 2 + pitch
        func reach(_ angle: Double) -> Double {
            sin(angle) * ctc / sin(min(max(Double.pi - ground - angle, 0.01), Double.pi - 0.01))
        }
        let toTop = reach(fieldOfView / 2)
        let toHorizon = reach(horizon.isFinite ? atan(horizon / ctc) : Double.pi / 2)
        far = (cos(Double.pi / 2 - pitch) * min(toTop, toHorizon) + ctc) * 1.01
        near = h / 50
        // perspective . scale(1, -1, 1) . translate(0, 0, -ctc) . rotateX(pitch) . rotateZ(-bearing) . translate(-cx, -cy, 0)
        var p = Self.perspective(fieldOfView: fieldOfView, aspect: w / h, near: near, far: far)
        p = Self.multiply(p, [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        p = Self.multiply(p, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -ctc, 0, 0, 0, 1])
        let cp = cos(pitch), sp = sin(pitch)
        p = Self.multiply(p, [1, 0, 0, 0, 0, cp, -sp, 0, 0, sp, cp, 0, 0, 0, 0, 1])
        let ca = cos(-bearing), sa = sin(-bearing)
        p = Self.multiply(p, [ca, -sa, 0, 0, sa, ca, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        p = Self.multiply(p, [1, 0, 0, -centerX, 0, 1, 0, -centerY, 0, 0, 1, 0, 0, 0, 0, 1])
        matrix = p
        inverse = Self.invert(p)
        // The row at angle a above the view axis sees the ground at depth
        // ctc cos(pitch) cos(a) / cos(pitch + a): the rows deeper than the far plane show none.
        let farPlane = far, c = ctc, pt = pitch
        func depth(_ a: Double) -> Double {
            let d = cos(pt + a)
            return d <= 0 ? .infinity : c * cos(pt) * cos(a) / d
        }
        var top = 0.0
        let topAngle = atan(h / 2 / ctc)
        if depth(topAngle) > farPlane {
            var lo = -topAngle, hi = topAngle              // depth(lo) <= far < depth(hi)
            for _ in 0..<60 { let mid = (lo + hi) / 2; if depth(mid) > farPlane { hi = mid } else { lo = mid } }
            top = h / 2 - ctc * tan(lo)
        }
        groundTopY = max(top, 0)
    }

    /// The box (Web Mercator) holding the ground seen in rows top..<bottom of the screen (the
    /// centre alone when those rows show no ground).
    public func groundBox(top: Double, bottom: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let t = max(top, groundTopY + 1e-3)        // (exactly on the far plane the ground may be lost to rounding)
        guard bottom > t else {
            return (centerX / worldSize, centerY / worldSize, centerX / worldSize, centerY / worldSize)
        }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(0.0, t), (width, t), (0.0, bottom), (width, bottom)] {
            guard let m = unproject(x: x, y: y) else { continue }
            minX = min(minX, m.x); maxX = max(maxX, m.x); minY = min(minY, m.y); maxY = max(maxY, m.y)
        }
        guard minX <= maxX else { return (centerX / worldSize, centerY / worldSize, centerX / worldSize, centerY / worldSize) }
        return (minX, minY, maxX, maxY)
    }

    /// The ground seen from this camera as a map of the flat screen (the view at pitch 0 with
    /// the same centre, zoom and bearing) onto this screen, with the near and far planes.
    public var groundProjection: GroundProjection {
        let r = bearing, cs = cos(r), sn = sin(r)
        // Flat screen (fx, fy) to world pixels: X = ax fx + bx fy + tx, Y = ay fx + by fy + ty.
        let ax = cs, bx = -sn, tx = centerX - cs * width / 2 + sn * height / 2
        let ay = sn, by = cs, ty = centerY - sn * width / 2 - cs * height / 2
        let m = matrix
        func row(_ i: Int) -> (Double, Double, Double) {
            (m[i * 4] * ax + m[i * 4 + 1] * ay, m[i * 4] * bx + m[i * 4 + 1] * by, m[i * 4] * tx + m[i * 4 + 1] * ty + m[i * 4 + 3])
        }
        let cx = row(0), cy = row(1), cw = row(3)
        let hw = width / 2, hh = height / 2
        return GroundProjection(((cx.0 + cw.0) * hw, (cx.1 + cw.1) * hw, (cx.2 + cw.2) * hw,
                                 (cw.0 - cy.0) * hh, (cw.1 - cy.1) * hh, (cw.2 - cy.2) * hh,
                                 cw.0, cw.1, cw.2), near: near, far: far)
    }

    /// Where a point of the map (Web Mercator, 0...1) at `height` world pixels above the ground
    /// lands on screen, and its clip w (its distance along the view axis: the camera distance at
    /// the centre; a point behind the camera has w <= 0).
    public func project(_ point: MercatorPoint, height z: Double = 0) -> (x: Double, y: Double, w: Double) {
        let x = point.x * worldSize, y = point.y * worldSize
        let m = matrix
        let cx = m[0] * x + m[1] * y + m[2] * z + m[3]
        let cy = m[4] * x + m[5] * y + m[6] * z + m[7]
        let cw = m[12] * x + m[13] * y + m[14] * z + m[15]
        return ((cx / cw + 1) * width / 2, (1 - cy / cw) * height / 2, cw)
    }

    /// The point of the ground (Web Mercator) seen at screen pixel (x, y); nil where the ray
    /// from the camera meets no ground (at or above the horizon).
    public func unproject(x: Double, y: Double) -> MercatorPoint? {
        guard let inv = inverse else { return nil }
        let nx = x / width * 2 - 1, ny = 1 - y / height * 2
        guard let a = Self.unprojected(inv, nx, ny, -1), let b = Self.unprojected(inv, nx, ny, 1), a.z != b.z else { return nil }
        // Where the segment from the near to the far plane crosses the ground (z = 0).
        let t = a.z / (a.z - b.z)
        guard t >= 0, t <= 1 else { return nil }
        return MercatorPoint(x: (a.x + (b.x - a.x) * t) / worldSize, y: (a.y + (b.y - a.y) * t) / worldSize)
    }

    /// Clip point (nx, ny, z) taken back through inverse matrix `inv` (row-major), divided by its
    /// w; nil where w is 0.
    static func unprojected(_ inv: [Double], _ nx: Double, _ ny: Double, _ z: Double) -> SIMD3<Double>? {
        var r = SIMD4<Double>()
        for i in 0..<4 { r[i] = inv[i * 4] * nx + inv[i * 4 + 1] * ny + inv[i * 4 + 2] * z + inv[i * 4 + 3] }
        guard r.w != 0 else { return nil }
        return SIMD3(r.x, r.y, r.z) / r.w
    }

    /// gl-matrix's `perspective` (row-major): vertical field of view in radians, depths near...far
    /// to clip z -1...1.
    static func perspective(fieldOfView: Double, aspect: Double, near: Double, far: Double) -> [Double] {
        let f = 1 / tan(fieldOfView / 2)
        return [f / aspect, 0, 0, 0,
                0, f, 0, 0,
                0, 0, (far + near) / (near - far), 2 * far * near / (near - far),
                0, 0, -1, 0]
    }

    /// Row-major 4 x 4 product.
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                r[i * 4 + j] = a[i * 4] * b[j] + a[i * 4 + 1] * b[4 + j] + a[i * 4 + 2] * b[8 + j] + a[i * 4 + 3] * b[12 + j]
            }
        }
        return r
    }

    /// Row-major 4 x 4 inverse by Gauss-Jordan elimination with partial pivoting (nil: singular).
    static func invert(_ m: [Double]) -> [Double]? {
        var a = m, r: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        for c in 0..<4 {
            var pivot = c
            for i in (c + 1)..<4 where abs(a[i * 4 + c]) > abs(a[pivot * 4 + c]) { pivot = i }
            guard abs(a[pivot * 4 + c]) > 1e-300 else { return nil }
            if pivot != c {
                for j in 0..<4 { a.swapAt(c * 4 + j, pivot * 4 + j); r.swapAt(c * 4 + j, pivot * 4 + j) }
            }
            let d = a[c * 4 + c]
            for j in 0..<4 { a[c * 4 + j] /= d; r[c * 4 + j] /= d }
            for i in 0..<4 where i != c {
                let k = a[i * 4 + c]
                guard k != 0 else { continue }
                for j in 0..<4 { a[i * 4 + j] -= k * a[c * 4 + j]; r[i * 4 + j] -= k * r[c * 4 + j] }
            }
        }
        return r
    }
}
