import Foundation
import MapCore
import Raster

/// Maps an image source's quad onto the screen, row by row, for the image blitter.
///
/// The quad is split, as the reference engines' image-source mesh is, into the triangles
/// (top-left, top-right, bottom-left) and (top-right, bottom-right, bottom-left), each mapped affinely from the placement's space: Web Mercator for
/// `linear` (the reference engines' image sources), longitude/latitude for `lonlat` (each image
/// row at its true latitude). In both spaces a screen row is a line of constant y, and x varies
/// linearly with screen x, so (s, t) is linear along a row within each triangle.
struct ImageQuadMapper {
    /// A 2D affine map (X, Y) -> (s, t).
    struct Affine {
        let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double   // s = aX + bY + c, t = dX + eY + f
        typealias Pair = (Double, Double)
        /// The affine map sending p0, p1, p2 to uv0, uv1, uv2; nil when degenerate.
        init?(_ p: (Pair, Pair, Pair), _ uv: (Pair, Pair, Pair)) {
            let x1 = p.1.0 - p.0.0, y1 = p.1.1 - p.0.1, x2 = p.2.0 - p.0.0, y2 = p.2.1 - p.0.1
            let det = x1 * y2 - x2 * y1
            guard abs(det) > 1e-300, det.isFinite else { return nil }
            let s1 = uv.1.0 - uv.0.0, s2 = uv.2.0 - uv.0.0, t1 = uv.1.1 - uv.0.1, t2 = uv.2.1 - uv.0.1
            a = (s1 * y2 - s2 * y1) / det; b = (s2 * x1 - s1 * x2) / det
            d = (t1 * y2 - t2 * y1) / det; e = (t2 * x1 - t1 * x2) / det
            c = uv.0.0 - a * p.0.0 - b * p.0.1
            f = uv.0.1 - d * p.0.0 - e * p.0.1
        }
    }

    let placement: ImagePlacement
    let world: Double, ox: Double, oy: Double
    let first: Affine, second: Affine
    /// The diagonal runs from top-right (`tr`) to bottom-left (`bl`); `tlSide` is the sign of the
    /// top-left corner's side of it.
    let tr: (Double, Double), bl: (Double, Double), tlSide: Double

    init?(corners: ImageCorners, placement: ImagePlacement, world: Double, ox: Double, oy: Double) {
        self.placement = placement; self.world = world; self.ox = ox; self.oy = oy
        func space(_ p: LngLat) -> (Double, Double) {
            placement == .linear ? (WebMercator.x(lng: p.lng), WebMercator.y(lat: p.lat)) : (p.lng, p.lat)
        }
        let tl = space(corners.topLeft), tr = space(corners.topRight)
        let br = space(corners.bottomRight), bl = space(corners.bottomLeft)
        guard let a = Affine((tl, tr, bl), ((0, 0), (1, 0), (0, 1))),
              let b = Affine((tr, br, bl), ((1, 0), (1, 1), (0, 1))) else { return nil }
        first = a; second = b
        self.tr = tr; self.bl = bl
        tlSide = (bl.0 - tr.0) * (tl.1 - tr.1) - (bl.1 - tr.1) * (tl.0 - tr.0)
    }

    /// The row map for screen row `y` (pixel centres at y + 0.5).
    func row(_ y: Int) -> ImageRowMap {
        let my = (Double(y) + 0.5 - oy) / world
        let Y = placement == .linear ? my : WebMercator.lat(y: my)
        // X = X0 + dX * screenX.
        let X0: Double, dX: Double
        if placement == .linear { X0 = -ox / world; dX = 1 / world } else { X0 = (-ox / world) * 360 - 180; dX = 360 / world }
        func pieces(_ m: Affine) -> (Float, Float, Float, Float) {
            (Float(m.a * X0 + m.b * Y + m.c), Float(m.a * dX), Float(m.d * X0 + m.e * Y + m.f), Float(m.d * dX))
        }
        let p = pieces(first), q = pieces(second)
        // Side of the diagonal: cross(BL - TR, P - TR) is linear in screen x; triangle one lies on TL's side.
        let kx = -(bl.1 - tr.1) * dX
        let k0 = (bl.0 - tr.0) * (Y - tr.1) - (bl.1 - tr.1) * (X0 - tr.0)
        var split = Float.infinity
        var firstLeft = true
        if abs(kx) > 1e-300 {
            split = Float(-k0 / kx)
            // For x > split the sign of the cross is sign(kx).
            firstLeft = (kx > 0) != (tlSide > 0)
        } else {
            firstLeft = (k0 > 0) == (tlSide > 0)
            split = firstLeft ? .infinity : -.infinity
        }
        let left = firstLeft ? p : q, right = firstLeft ? q : p
        return ImageRowMap(s0: left.0, ds: left.1, t0: left.2, dt: left.3, s1: right.0, ds1: right.1, t1: right.2, dt1: right.3, split: split)
    }

    /// Screen position of a corner (the quad's outline is drawn straight between them).
    func screen(_ p: LngLat) -> Point {
        Point(WebMercator.x(lng: p.lng) * world + ox, WebMercator.y(lat: p.lat) * world + oy)
    }
}

extension ImageQuadMapper {
    /// The quad at a bearing as an `ImageWarp`: screen pixels back through the inverse of `map`
    /// (one world copy's view), into the placement's space (longitude and Web Mercator y, then
    /// latitude from `latitudes` for `lonlat`, so every image row stays at its true latitude),
    /// then through the triangle's affine map.
    ///
    /// For `lonlat`, `latitudes` (at least `Self.tableCount(rows)` long, outliving the warp's use)
    /// is filled with the latitudes of Mercator y across `rows`, a quarter pixel apart.
    func warp(_ map: RotatedMap, rows: (Double, Double), world: Double, latitudes: UnsafeMutableBufferPointer<Double>) -> ImageWarp? {
        guard var inverse = map.t.inverted() else { return nil }
        func plane(_ m: Affine) -> ImageWarp.Plane { .init(a: m.a, b: m.b, c: m.c, d: m.d, e: m.e, f: m.f) }
        let trP = Point(tr.0, tr.1), blP = Point(bl.0, bl.1)
        guard placement == .lonlat else {
            return ImageWarp(inverse: inverse, first: plane(first), second: plane(second), tr: trP, bl: blP, firstSide: tlSide)
        }
        // x: longitude at once (affine in Mercator x); y: Mercator y, to latitude by the table.
        inverse = Transform(a: inverse.a * 360, b: inverse.b, c: inverse.c * 360, d: inverse.d, tx: inverse.tx * 360 - 180, ty: inverse.ty)
        let count = Self.tableCount(rows, world: world)
        guard count >= 2, latitudes.count >= count else { return nil }
        let step = Double(count - 2) / (rows.1 - rows.0)
        for k in 0..<count { latitudes[k] = WebMercator.lat(y: rows.0 + Double(k) / step) }
        return ImageWarp(inverse: inverse, first: plane(first), second: plane(second), tr: trP, bl: blP, firstSide: tlSide,
                         table: UnsafePointer(latitudes.baseAddress), tableCount: count, tableY0: rows.0, tableStep: step)
    }

    /// Latitudes a quarter pixel apart over Mercator rows `rows` (at most 65,536; 0 when empty).
    static func tableCount(_ rows: (Double, Double), world: Double) -> Int {
        guard rows.0 < rows.1, world > 0 else { return 0 }
        let n = ((rows.1 - rows.0) * world * 4).rounded(.up)
        return n.isFinite ? Int(min(n, 65_534)) + 2 : 0
    }
}
