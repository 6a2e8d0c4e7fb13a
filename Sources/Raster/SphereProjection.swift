import Foundation

/// The globe's surface seen by its camera: maps the flat map's screen (where the map would be in
/// Web Mercator at pitch 0, with the same centre, zoom and bearing) onto the sphere and the
/// sphere onto the screen, for geometry the rasterizer draws.
///
/// A straight flat edge is a curve on the sphere: it is cut into pieces no longer than a cell of
/// the subdivision grid (MapLibre's granularity: `step`, in Mercator units), each drawn straight
/// between its projected ends, as MapLibre draws its subdivided triangles.
///
/// The far side: a point behind the horizon (the plane through the points where the lines of
/// sight touch the sphere) is moved onto the horizon's circle, along the plane, straight out
/// from a point near its centre (`pivot`, a hair off it, so that the point where the map is
/// singular is nowhere a map's edges are: not on the antimeridian behind a globe centred on
/// Greenwich). That map is continuous everywhere but at the point of the far side behind the
/// pivot, `antipode`, so a closed contour stays closed, and the winding number it has about a seen point
/// is its winding number on the flat map less the one it has about the antipode. The rasterizer
/// counts that one (`antipodeWinding`) and adds the disc (`limb`) as many times: a fill that
/// covers the far side's middle (a world's land, the background) stays whole on the seen side,
/// and what lies wholly behind the horizon comes to nothing.
///
/// Between zoom 11 and 12 the globe blends into Mercator: clip x, y and w of the two cameras are
/// mixed by the globeness, as MapLibre's vertex shader mixes them.
///
/// A class: layers and the rasterizer ask it something for each block and edge, and a value of
/// its size copied each time cost more than what was asked.
public final class SphereProjection: Sendable {
    /// Flat screen to normalised Mercator: (ax x + bx y + tx, ay x + by y + ty).
    public let ax: Double, bx: Double, tx: Double, ay: Double, by: Double, ty: Double
    /// Unit sphere (x, y, z, 1) to the screen, homogeneous: (X w, Y w, w).
    let rx: SIMD4<Double>, ry: SIMD4<Double>, rw: SIMD4<Double>
    /// The horizon: a point v of the unit sphere is seen when v . normal >= offset.
    public let normal: SIMD3<Double>, offset: Double
    /// The normal's length across the equator's plane and its longitude (`isBehind`).
    let normalAcross: Double, normalLongitude: Double
    /// Two unit vectors across the horizon's plane, and the horizon circle's radius.
    let across: (SIMD3<Double>, SIMD3<Double>), rim: Double
    /// What the far side is moved out from: its offset in the horizon's plane from the circle's centre.
    let pivot: SIMD3<Double>
    /// The radius in the horizon's plane the far side is laid on: the horizon's, grown by about a
    /// pixel and a half on screen. What lies past the globe's edge is then cut by pixel centres
    /// (`discSpan`), as a GPU cuts the globe's mesh at the horizon: a fill that reaches the edge
    /// covers the pixels there whole, with no seam of half-covered pixels.
    let outer: Double
    /// The camera on the unit sphere's scale, the clip-to-sphere inverse and the viewport: what
    /// `discSpan` finds the globe's edge from.
    let camera: SIMD3<Double>, width: Double, height: Double
    let inverseRows: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)
    /// Between the globe and Mercator: the Mercator camera's flat screen to screen, and how much of
    /// the globe shows (nil: the globe alone).
    let mercator: GroundProjection?
    public let globeness: Double
    /// The seen cap's box in normalised Mercator (its x range [capMinX, capMaxX] may pass 0 or
    /// 1; the whole width when the cap holds a pole): what lies outside it is behind the globe.
    let capMinX: Double, capMaxX: Double, capMinY: Double, capMaxY: Double
    /// The subdivision grid's cell, in normalised Mercator units.
    public let step: Double
    /// On the whole globe, each screen row's x range inside the surface mesh's clipped outline
    /// (`meshEdgeSpans`; (nan, nan): none); empty while blending into Mercator.
    let edgeSpans: [SIMD2<Double>]
    /// The far side's middle on the flat screen (in world copy 0), and one world to its east on
    /// the flat screen: geometry may reach past copy 0's edges (a feature across the
    /// antimeridian), and the winding about the point on the sphere is the sum of the windings
    /// about its copies (`antipodeWinding`).
    public let antipode: Point, worldStep: Point
    /// (The limb's basis: two unit vectors across the horizon's plane.)

    /// `matrix`: the globe camera's row-major 4 x 4 from the unit sphere to clip space; `width` x
    /// `height` the viewport; `flatToMercator` the flat screen to Mercator (ax, bx, tx, ay, by, ty);
    /// `horizon` the plane (normal, -offset); `mercator` and `globeness` the blend.
    public init(matrix m: [Double], inverse: [Double], camera: SIMD3<Double>, width: Double, height: Double,
                flatToMercator f: (Double, Double, Double, Double, Double, Double),
                horizon: SIMD4<Double>, mercator: GroundProjection?, globeness: Double, step: Double,
                surface: SurfaceMesh? = nil) {
        ax = f.0; bx = f.1; tx = f.2; ay = f.3; by = f.4; ty = f.5
        let hw = width / 2, hh = height / 2
        let cx = SIMD4(m[0], m[1], m[2], m[3]), cy = SIMD4(m[4], m[5], m[6], m[7]), cw = SIMD4(m[12], m[13], m[14], m[15])
        rx = (cx + cw) * hw
        ry = (cw - cy) * hh
        rw = cw
        normal = SIMD3(horizon.x, horizon.y, horizon.z)
        normalAcross = (horizon.x * horizon.x + horizon.z * horizon.z).squareRoot()
        normalLongitude = atan2(horizon.x, horizon.z)
        offset = -horizon.w
        rim = max(0, 1 - offset * offset).squareRoot()
        // (Any vector not along the normal, made perpendicular to it.)
        let seed: SIMD3<Double> = abs(normal.y) < 0.9 ? SIMD3(0, 1, 0) : SIMD3(1, 0, 0)
        var u = seed - normal * (seed * normal).sum()
        u /= (u * u).sum().squareRoot()
        let v = SIMD3(normal.y * u.z - normal.z * u.y, normal.z * u.x - normal.x * u.z, normal.x * u.y - normal.y * u.x)
        across = (u, v)
        pivot = (u * 0.8 + v * 0.6) * (1e-7 * max(rim, 1e-9))
        // The cap: within acos(offset) of the normal's place (grown by a hair).
        do {
            let radius = acos(min(max(offset, -1), 1)) + 1e-3
            let latN = asin(min(max(normal.y, -1), 1)), lngN = atan2(normal.x, normal.z)
            func y(_ lat: Double) -> Double {
                lat >= Double.pi / 2 ? -1 : lat <= -Double.pi / 2 ? 2 : 0.5 - log(tan(Double.pi / 4 + lat / 2)) / (2 * Double.pi)
            }
            capMinY = y(latN + radius); capMaxY = y(latN - radius)
            let poleInside = latN + radius >= Double.pi / 2 || latN - radius <= -Double.pi / 2
            let spread = poleInside ? Double.pi : asin(min(1, sin(radius) / max(cos(latN), 1e-12)))
            if poleInside || spread >= Double.pi / 2 - 1e-9 && radius >= Double.pi / 2 {
                capMinX = -1; capMaxX = 2
            } else {
                capMinX = (lngN - spread) / (2 * Double.pi) + 0.5; capMaxX = (lngN + spread) / (2 * Double.pi) + 0.5
            }
        }
        self.camera = camera
        let inv = inverse.count == 16 ? inverse : [Double](repeating: 0, count: 16)
        inverseRows = (SIMD4(inv[0], inv[1], inv[2], inv[3]), SIMD4(inv[4], inv[5], inv[6], inv[7]),
                       SIMD4(inv[8], inv[9], inv[10], inv[11]), SIMD4(inv[12], inv[13], inv[14], inv[15]))
        self.width = width; self.height = height
        // The disc's smallest screen radius, from four points of the horizon round its middle.
        do {
            let centre = normal * offset
            func onScreen(_ p: SIMD3<Double>) -> Point {
                let h = SIMD4(p, 1)
                let w = (cw * h).sum()
                let X: Double = ((cx + cw) * hw * h).sum(), Y: Double = ((cw - cy) * hh * h).sum()
                return Point(X / w, Y / w)
            }
            var pts: [Point] = []
            for k in 0..<4 {
                let t = Double(k) * Double.pi / 2
                pts.append(onScreen(centre + (u * cos(t) + v * sin(t)) * rim))
            }
            var mx = 0.0, my = 0.0
            for p in pts { mx += p.x / 4; my += p.y / 4 }
            var r = Double.infinity
            for p in pts {
                let dx = p.x - mx, dy = p.y - my
                r = min(r, (dx * dx + dy * dy).squareRoot())
            }
            outer = rim * (1 + (r > 1 && r.isFinite ? min(1.5 / r, 0.05) : 0))
        }
        self.mercator = globeness < 1 ? mercator : nil
        self.globeness = min(max(globeness, 0), 1)
        self.step = step > 0 && step.isFinite ? step : 1.0 / 128
        // (The surface's mesh: the layers' own, on the subdivision grid, unless a terrain's.)
        let mesh = surface ?? SurfaceMesh(cells: Int((1 / self.step).rounded()), diagonal: .rising)
        edgeSpans = self.globeness >= 1
            ? Self.meshEdgeSpans(rows: Int(height.rounded(.up)), mesh: mesh, normal: normal, offset: offset,
                                 across: across, rim: rim, rx: rx, ry: ry, rw: rw)
            : []
        // The antipode on the flat screen: its Mercator point, back through the affine map.
        let a = pivot - normal * max(0, 1 - (pivot * pivot).sum()).squareRoot()
        let lng = atan2(a.x, a.z), lat = asin(min(max(a.y, -1), 1))
        let mx = lng / (2 * Double.pi) + 0.5
        let my = min(max(0.5 - log(tan(Double.pi / 4 + lat / 2)) / (2 * Double.pi), -2), 3)
        let det = f.0 * f.4 - f.1 * f.3
        if det != 0 && det.isFinite {
            // (In world copy 0, where the globe's geometry is given.)
            let dx = mx - f.2, dy = my - f.5
            antipode = Point((f.4 * dx - f.1 * dy) / det, (-f.3 * dx + f.0 * dy) / det)
            worldStep = Point(f.4 / det, -f.3 / det)
        } else {
            antipode = Point(.infinity, .infinity)
            worldStep = Point(0, 0)
        }
    }

    /// The seen disc's edge on the screen (the circle the far side is laid on), once round with
    /// winding number +1 (a crossing of the ray to the right of the centre going down counts +1,
    /// as in `antipodeWinding`): 128 points.
    public func limb() -> [Point] {
        var ring: [Point] = []
        ring.reserveCapacity(128)
        let centre = normal * offset
        let (u, v) = across
        for k in 0..<128 {
            let t = Double(k) / 128 * 2 * Double.pi
            let p = SIMD4(centre + (u * cos(t) + v * sin(t)) * outer, 1)
            let X = (rx * p).sum(), Y = (ry * p).sum(), W = (rw * p).sum()
            ring.append(Point(X / W, Y / W))
        }
        var sx = 0.0, sy = 0.0
        for p in ring { sx += p.x; sy += p.y }
        if Self.winding(ring, about: Point(sx / 128, sy / 128)) < 0 { ring.reverse() }
        return ring
    }

    /// Where screen row `y` (a pixel centre's y) crosses the globe as drawn: on the whole globe
    /// the x range inside its mesh's clipped outline (`meshEdgeSpans`), blending into Mercator
    /// the x between which pixel centres' lines of sight meet the sphere; nil where none do.
    public func discSpan(_ y: Double) -> (Double, Double)? {
        let r = Int(y.rounded(.down))
        let circle = discSpan(y, radius: 1)
        guard !edgeSpans.isEmpty, r >= 0, r < edgeSpans.count, let c = circle else { return circle }
        let s = edgeSpans[r]
        // (A row whose outline crossings were lost, behind the camera at a steep pitch, keeps
        // the sphere's span: the mesh's is never far inside it.)
        guard !s.x.isNaN, s.y - s.x >= 0.5 * (c.1 - c.0) else { return c.1 - c.0 > 4 ? c : nil }
        return (s.x, s.y)
    }

    /// How near the line of sight through screen point (x, y) passes the globe's centre, in
    /// the sphere's radii (below 1: it meets the globe).
    public func closestApproach(_ x: Double, _ y: Double) -> Double {
        let d = sight(x, y)
        let along = (camera * d).sum() / (d * d).sum()
        let nearest = camera - d * along
        return (nearest * nearest).sum().squareRoot()
    }

    /// The direction of the line of sight from the camera (`eye`) through screen point (x, y),
    /// in the unit sphere's space (not normalised).
    @inline(__always) public func sight(_ x: Double, _ y: Double) -> SIMD3<Double> {
        let r = inverseRows
        let q = SIMD4<Double>(x / width * 2 - 1, 1 - y / height * 2, 1, 1)
        let p = SIMD4((r.0 * q).sum(), (r.1 * q).sum(), (r.2 * q).sum(), (r.3 * q).sum())
        return SIMD3(p.x, p.y, p.z) / p.w - camera
    }

    /// The angle (radians of the sphere) one pixel spans at the scale of flat point `centre`
    /// (the screen's centre): 2 pi cos(its latitude) / the world's size in pixels (MapLibre's
    /// globe extrude scale with its radius correction).
    public func anglePerPixel(atFlat centre: Point) -> Double {
        2 * Double.pi * cosLatitude(atFlat: centre) * (ax * ax + ay * ay).squareRoot()
    }

    /// The cosine of the latitude of flat point `p` (the sech of its Mercator y; 0 past the poles).
    @inline(__always) public func cosLatitude(atFlat p: Point) -> Double {
        let y = min(max(mercator(p).y, 0), 1)
        return 1 / cosh(Double.pi * (1 - 2 * y))
    }

    /// The camera's place in the unit sphere's space.
    public var eye: SIMD3<Double> { camera }

    /// The depth (clip w) of point `v` of the unit sphere's space: proportional to its
    /// distance from the camera along the line of sight through the screen's centre.
    @inline(__always) public func depth(_ v: SIMD3<Double>) -> Double { (rw * SIMD4(v, 1)).sum() }

    /// The depth of the sphere's point seen at the screen's centre (MapLibre's camera to
    /// centre distance, in the units of `depth`); nil when the centre's line of sight misses it.
    public var centreDepth: Double? {
        let d = sight(width / 2, height / 2)
        let a = (d * d).sum(), b = 2 * (camera * d).sum(), c = (camera * camera).sum() - 1
        let disc = b * b - 4 * a * c
        guard disc >= 0, a > 0 else { return nil }
        let t = (-b - disc.squareRoot()) / (2 * a)
        return depth(camera + d * t)
    }

    /// The screen point where the globe's centre lies (the middle of its disc, near enough for
    /// directions about it).
    public var centreOnScreen: Point {
        let h = SIMD4<Double>(0, 0, 0, 1)
        let W = (rw * h).sum()
        return Point((rx * h).sum() / W, (ry * h).sum() / W)
    }

    /// Where screen row `y` crosses the sphere of `radius` (the unit sphere's units) about the
    /// globe's centre: the x whose lines of sight pass within it.
    public func discSpan(_ y: Double, radius: Double) -> (Double, Double)? {
        // The line of sight through (x, y) runs from the camera along d(x) = P(x) - C w(x), where
        // P w is the far plane's point through the inverse: linear in x. It meets the unit sphere
        // where (C . d)^2 - |d|^2 (|C|^2 - 1) >= 0, a quadratic in x.
        let r = inverseRows, ny = 1 - y / height * 2
        let sx = 2 / width            // d(nx)/dx
        // The far plane's point at x = 0 (nx = -1, z = 1), and its change per pixel.
        let q = SIMD4<Double>(-1, ny, 1, 1)
        let p0 = SIMD4((r.0 * q).sum(), (r.1 * q).sum(), (r.2 * q).sum(), (r.3 * q).sum())
        let p1 = SIMD4(r.0.x, r.1.x, r.2.x, r.3.x) * sx
        let d0 = SIMD3(p0.x, p0.y, p0.z) - camera * p0.w, d1 = SIMD3(p1.x, p1.y, p1.z) - camera * p1.w
        let k = (camera * camera).sum() - radius * radius
        let c0 = (camera * d0).sum(), c1 = (camera * d1).sum()
        let A = c1 * c1 - k * (d1 * d1).sum(), B = 2 * (c0 * c1 - k * (d0 * d1).sum()), C = c0 * c0 - k * (d0 * d0).sum()
        guard A < 0 else { return nil }
        let disc = B * B - 4 * A * C
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        let x0 = (-B + root) / (2 * A), x1 = (-B - root) / (2 * A)
        return (min(x0, x1), max(x0, x1))
    }

    /// The winding number of closed `ring` about `p`: crossings of the ray to the right of `p`,
    /// +1 going down (y increasing), -1 going up.
    public static func winding(_ ring: [Point], about p: Point) -> Int {
        var w = 0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            w += crossing(a, b, p)
        }
        return w
    }

    /// Edge a -> b's part of the winding number about the antipode on the sphere: its crossings
    /// of the rays right of the antipode's copies west of, in and east of copy 0.
    @inline(__always) public func antipodeCrossing(_ a: Point, _ b: Point) -> Int {
        Self.crossing(a, b, antipode) + Self.crossing(a, b, antipode - worldStep) + Self.crossing(a, b, antipode + worldStep)
    }

    /// Edge a -> b's crossing of the ray to the right of `p`: +1 going down, -1 going up, else 0.
    @inline(__always) public static func crossing(_ a: Point, _ b: Point, _ p: Point) -> Int {
        guard (a.y > p.y) != (b.y > p.y) else { return 0 }
        let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
        return x > p.x ? (b.y > a.y ? 1 : -1) : 0
    }

    /// Normalised Mercator point of flat point `p`.
    @inline(__always) public func mercator(_ p: Point) -> (x: Double, y: Double) {
        (ax * p.x + bx * p.y + tx, ay * p.x + by * p.y + ty)
    }

    /// The unit vector of normalised Mercator point (x, y); the poles on and past the square's
    /// top and bottom (MapLibre's pole vertices: a fill or a tile reaching the square's edge, at
    /// 85.05°, covers the polar cap). (Within 1e-9 of the edge counts as on it: 85.0511° comes
    /// back from Web Mercator a hair inside.)
    @inline(__always) public static func unit(_ x: Double, _ y: Double) -> SIMD3<Double> {
        if !(y > 1e-9) { return SIMD3(0, 1, 0) }
        if !(y < 1 - 1e-9) { return SIMD3(0, -1, 0) }
        let lng = x * 2 * Double.pi - Double.pi
        // sin and cos of the latitude from its Mercator y: tanh and sech of pi (1 - 2y).
        let e = exp(Double.pi * (1 - 2 * y)), ie = 1 / e
        let s = e + ie
        let cosLat = 2 / s, sinLat = (e - ie) / s
        return SIMD3(sin(lng) * cosLat, sinLat, cos(lng) * cosLat)
    }

    /// Whether Mercator rows minY...maxY lie wholly north (-1) or south (+1) of the seen cap's
    /// box (0: neither).
    @inline(__always) public func sideOutsideCap(minY: Double, maxY: Double) -> Int {
        maxY < capMinY ? -1 : minY > capMaxY ? 1 : 0
    }

    /// Whether the normalised Mercator box lies wholly outside the seen cap's box (so behind the
    /// horizon): four comparisons, a first test before `isBehind`.
    @inline(__always) public func isOutsideCap(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        if maxY < capMinY || minY > capMaxY { return true }
        if capMinX <= -1 { return false }
        // (In x, against the cap's box and its copies a world either side.)
        @inline(__always) func meets(_ shift: Double) -> Bool { maxX >= capMinX + shift && minX <= capMaxX + shift }
        return !(meets(-1) || meets(0) || meets(1))
    }

    /// Whether all of the normalised Mercator box lies behind the horizon by more than `margin`
    /// (in the unit sphere's units): the most any of its points rises towards the camera, found
    /// from its longitudes and latitudes. A closed contour wholly behind draws nothing (what it
    /// adds on the horizon and its winding about the antipode cancel), so it may be left out.
    public func isBehind(minX: Double, minY: Double, maxX: Double, maxY: Double, margin: Double = 1e-3) -> Bool {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, maxX - minX < 1 else { return false }
        // n . v = n.y sin(lat) + cos(lat) rho cos(lng - lngN).
        let lng0 = minX * 2 * Double.pi - Double.pi, width = (maxX - minX) * 2 * Double.pi
        // The longitude nearest the normal's within [lng0, lng0 + width] (mod 2 pi): the normal's
        // own, else the nearer end.
        var off = (normalLongitude - lng0).truncatingRemainder(dividingBy: 2 * Double.pi)
        if off < 0 { off += 2 * Double.pi }
        let cosBest = off <= width ? 1 : cos(min(off - width, 2 * Double.pi - off))
        // The sine and cosine of the box's south and north latitudes, from their Mercator y:
        // tanh and sech of pi (1 - 2y).
        func sinCos(_ y: Double) -> (Double, Double) {
            if !(y > 0) { return (1, 0) }
            if !(y < 1) { return (-1, 0) }
            let e = exp(Double.pi * (1 - 2 * y)), ie = 1 / e, s = e + ie
            return ((e - ie) / s, 2 / s)
        }
        let south = sinCos(maxY), north = sinCos(minY)
        let a = normal.y, b = normalAcross * cosBest
        var best = max(a * south.0 + b * south.1, a * north.0 + b * north.1)
        // a sin(lat) + b cos(lat) peaks at sqrt(a^2 + b^2) where sin(lat) = a / sqrt(a^2 + b^2),
        // a latitude when b > 0: within the box's, the peak counts.
        if b > 0 {
            let r = (a * a + b * b).squareRoot(), peak = a / r
            if peak > south.0 && peak < north.0 { best = max(best, r) }
        }
        return best < offset - margin
    }

    /// How far unit vector `v` lies in front of the horizon (negative: behind it).
    @inline(__always) public func side(_ v: SIMD3<Double>) -> Double { (v * normal).sum() - offset }

    /// `v` if seen, else moved onto the circle the far side is laid on (`outer`: in the horizon's
    /// plane, straight out from the pivot through the point's foot in it).
    @inline(__always) public func onSeenSide(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let s = side(v)
        guard s < 0 else { return v }
        // Along the plane from the pivot through v's foot in it, to the circle:
        // |e + d k| = outer for the positive k.
        let d = v - normal * (s + offset) - pivot
        let dd = (d * d).sum()
        guard dd > 1e-24 else { return normal * offset + across.0 * outer }
        let ed = (pivot * d).sum(), ee = (pivot * pivot).sum()
        let k = (-ed + max(0, ed * ed - dd * (ee - outer * outer)).squareRoot()) / dd
        return normal * offset + pivot + d * k
    }

    /// Screen point of unit vector `v` (on the seen side), which is flat point `flat`.
    @inline(__always) public func screen(_ v: SIMD3<Double>, flat: Point) -> Point {
        let h = SIMD4(v, 1)
        var X = (rx * h).sum(), Y = (ry * h).sum(), W = (rw * h).sum()
        if let g = mercator {
            let m = g.m
            let mX = m.0 * flat.x + m.1 * flat.y + m.2, mY = m.3 * flat.x + m.4 * flat.y + m.5
            let mW = m.6 * flat.x + m.7 * flat.y + m.8
            X = mX + (X - mX) * globeness; Y = mY + (Y - mY) * globeness; W = mW + (W - mW) * globeness
        }
        return Point(X / W, Y / W)
    }

    /// Calls `edge` with the screen edges of flat edge a -> b (in no particular order): its pieces on
    /// the seen side projected, those behind the horizon laid along the horizon's circle, and
    /// whether the edge lies wholly on the circle the far side is laid on (the rasterizer takes
    /// those for their winding alone: `Rasterizer.addFarEdge`). `ua0` and `ub0` are the ends'
    /// unit vectors (`unit` of their Mercator points, kept by the caller).
    @inline(__always)
    public func forEachEdge(_ a0: Point, _ b0: Point, _ ua0: SIMD3<Double>, _ ub0: SIMD3<Double>, _ edge: (Point, Point, Bool) -> Void) {
        // The same pieces whichever way an edge is given (a shared edge then cancels exactly).
        let reversed = (a0.y, a0.x) > (b0.y, b0.x)
        let a = reversed ? b0 : a0, b = reversed ? a0 : b0
        let ua = reversed ? ub0 : ua0, ub = reversed ? ua0 : ub0
        let ma = mercator(a), mb = mercator(b)
        let cells = (abs(mb.x - ma.x) + abs(mb.y - ma.y)) / step
        let n = cells < 1 ? 1 : Int(min(cells.rounded(.up), 1024))
        var lastFlat = a
        var lastV = ua
        var lastSide = side(lastV)
        var lastScreen = screen(onSeenSide(lastV), flat: a)
        // (An edge given the other way gets its pieces turned round: the rasterizer sums
        // edges in any order.)
        @inline(__always) func out(_ p: Point, _ q: Point, _ far: Bool) { if reversed { edge(q, p, far) } else { edge(p, q, far) } }
        // The points along the edge by recurrences: the longitude's cosine and sine by the angle
        // sum, e^(pi (1 - 2y)) by a constant factor (the ends exactly, as every edge gives them).
        // (Set up only for an edge of more than one piece.)
        var cosStep = 1.0, sinStep = 0.0, cosLng = 1.0, sinLng = 0.0, e = 1.0, eStep = 1.0
        if n > 1 {
            let dLng = (mb.x - ma.x) / Double(n) * 2 * Double.pi
            cosStep = cos(dLng); sinStep = sin(dLng)
            let lng0 = ma.x * 2 * Double.pi - Double.pi
            cosLng = cos(lng0); sinLng = sin(lng0)
            e = exp(Double.pi * (1 - 2 * ma.y))
            eStep = exp(-2 * Double.pi * (mb.y - ma.y) / Double(n))
        }
        // A stretch of pieces behind the horizon is laid along it at once (`behind`), from where
        // it began (`run`: Mercator point, unit vector, and where it lands on the horizon's circle
        // from the circle's centre) while it turns less than 30 degrees round the circle: one arc
        // for a stretch, not one for each of its pieces.
        let centre = normal * offset
        var lastM = ma
        var lastHorizon = lastSide < 0 ? onSeenSide(lastV) - centre : SIMD3<Double>(0, 0, 0)
        var run = (m: ma, v: lastV, horizon: lastHorizon)
        for i in 1...n {
            let t = Double(i) / Double(n)
            let flat = i == n ? b : Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            let mx = i == n ? mb.x : ma.x + (mb.x - ma.x) * t, my = i == n ? mb.y : ma.y + (mb.y - ma.y) * t
            (cosLng, sinLng) = (cosLng * cosStep - sinLng * sinStep, sinLng * cosStep + cosLng * sinStep)
            e *= eStep
            let v: SIMD3<Double>
            if i == n {
                v = ub
            } else if my > 1e-9 && my < 1 - 1e-9 && e.isFinite && e > 0 {
                let ie = 1 / e, sum = e + ie
                let cosLat = 2 / sum
                v = SIMD3(sinLng * cosLat, (e - ie) / sum, cosLng * cosLat)
            } else {
                v = Self.unit(mx, my)
            }
            let s = side(v)
            if s >= 0 && lastSide >= 0 {
                let q = screen(v, flat: flat)
                out(lastScreen, q, false)
                lastScreen = q
            } else if s < 0 && lastSide < 0 {
                let horizon = onSeenSide(v) - centre
                if run.m != lastM, Self.cosine(run.horizon, horizon) < 0.866 {
                    lastScreen = behind(run.m, run.v, lastM, lastV, lastScreen, lastFlat, out)
                    run = (lastM, lastV, lastHorizon)
                }
                lastHorizon = horizon
            } else {
                // The piece crosses the horizon: find where, by halving.
                let lm = lastM
                var lo = 0.0, hi = 1.0
                for _ in 0..<16 {
                    let mid = (lo + hi) / 2
                    let vm = Self.unit(lm.x + (mx - lm.x) * mid, lm.y + (my - lm.y) * mid)
                    if (side(vm) >= 0) == (lastSide >= 0) { lo = mid } else { hi = mid }
                }
                let cm = (x: lm.x + (mx - lm.x) * lo, y: lm.y + (my - lm.y) * lo)
                let cf = Point(lastFlat.x + (flat.x - lastFlat.x) * lo, lastFlat.y + (flat.y - lastFlat.y) * lo)
                let vc = onSeenSide(Self.unit(cm.x, cm.y))
                if lastSide >= 0 {
                    let c = screen(vc, flat: cf)
                    out(lastScreen, c, false)
                    lastScreen = c
                    run = (cm, vc, vc - centre)
                    lastHorizon = onSeenSide(v) - centre
                } else {
                    lastScreen = behind(run.m, run.v, cm, vc, lastScreen, cf, out)
                    let q = screen(v, flat: flat)
                    out(lastScreen, q, false)
                    lastScreen = q
                }
            }
            lastFlat = flat; lastV = v; lastSide = s; lastM = (mx, my)
        }
        // (A stretch behind at the edge's end.)
        if lastSide < 0 { _ = behind(run.m, run.v, mb, ub, lastScreen, b, out) }
    }

    @inline(__always) private static func cosine(_ p: SIMD3<Double>, _ q: SIMD3<Double>) -> Double {
        (p * q).sum() / max(((p * p).sum() * (q * q).sum()).squareRoot(), 1e-300)
    }

    /// Lays along the horizon the far-side piece of a flat edge from Mercator point `ma` (unit
    /// vector `va`) to `mb` (`vb`), starting at screen point `start`; returns where it ends. Near
    /// the antipode the horizon point of a far-side point turns fast: the piece is halved until
    /// each part turns less than 30 degrees round the circle, so the arcs follow the way it turns.
    private func behind(_ ma: (Double, Double), _ va: SIMD3<Double>, _ mb: (Double, Double), _ vb: SIMD3<Double>,
                        _ start: Point, _ flat: Point, _ out: (Point, Point, Bool) -> Void, depth: Int = 0) -> Point {
        let centre = normal * offset
        let p = onSeenSide(va) - centre, q = onSeenSide(vb) - centre
        let cosTurn = (p * q).sum() / max((p * p).sum().squareRoot() * (q * q).sum().squareRoot(), 1e-300)
        if cosTurn < 0.866, depth < 48 {
            let mid = ((ma.0 + mb.0) / 2, (ma.1 + mb.1) / 2)
            let vm = Self.unit(mid.0, mid.1)
            if side(vm) < 0 {
                let s = behind(ma, va, mid, vm, start, flat, out, depth: depth + 1)
                return behind(mid, vm, mb, vb, s, flat, out, depth: depth + 1)
            }
        }
        return arc(from: va, to: vb, start, flat, out)
    }

    /// Lays the horizon's arc from where `from` lands on it to where `to` does (the shorter way
    /// round), starting at screen point `start`; returns the screen point it ends at.
    @inline(__always)
    private func arc(from: SIMD3<Double>, to: SIMD3<Double>, _ start: Point, _ flat: Point, _ out: (Point, Point, Bool) -> Void) -> Point {
        let centre = normal * offset
        let p = onSeenSide(from) - centre, q = onSeenSide(to) - centre
        let lp = (p * p).sum().squareRoot(), lq = (q * q).sum().squareRoot()
        guard lp > 0, lq > 0 else { return start }
        // (Between two points of the circle the far side is laid on, the arc lies on it, past
        // the disc's pixels: the rasterizer takes it as such.)
        let far = min(lp, lq) >= outer * (1 - 1e-9)
        let c = min(max((p * q).sum() / (lp * lq), -1), 1)
        // (One point per 4 degrees of the circle; most arcs, of far-side edges, are less.)
        let k = c > 0.997_564 ? 1 : max(1, Int((acos(c) / (4 * Double.pi / 180)).rounded(.up)))
        var last = start
        for j in 1...k {
            let t = Double(j) / Double(k)
            var d = p + (q - p) * t
            let len = (d * d).sum().squareRoot()
            // (The radius goes from the one end's to the other's: a point of the horizon to one of
            // the circle the far side is laid on.)
            let radius = lp + (lq - lp) * t
            d = len > 1e-12 ? d * (radius / len) : p
            let s = screen(centre + d, flat: flat)
            out(last, s, far)
            last = s
        }
        return last
    }
}
