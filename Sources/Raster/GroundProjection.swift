/// The ground of a pitched view: a plane seen in perspective, which maps the flat map's screen
/// (where the map would be at pitch 0) onto the pitched screen by a homography, and the slab of
/// depths a camera shows (MapLibre's near and far planes).
///
/// A straight edge stays straight, so flat geometry is projected by its vertices. Depth `w` is
/// affine in flat coordinates: the near and far planes cut the flat plane along two lines. An
/// edge is split where it crosses them; the parts beyond are moved onto the line they crossed
/// (the orthogonal projection), which keeps every contour closed and the winding of every point
/// between the lines unchanged, so a fill stops at the horizon and nothing behind the camera
/// folds over the screen.
public struct GroundProjection: Sendable, Equatable {
    /// Row-major 3 x 3: (x, y, 1) of the flat screen to (X w, Y w, w) of the screen.
    public let m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    /// The slab of depths drawn (MapLibre's near and far planes, in the units of w).
    public let near: Double, far: Double

    public init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double, Double), near: Double, far: Double) {
        self.m = m; self.near = near; self.far = far
    }

    public static func == (a: GroundProjection, b: GroundProjection) -> Bool {
        a.m.0 == b.m.0 && a.m.1 == b.m.1 && a.m.2 == b.m.2 && a.m.3 == b.m.3 && a.m.4 == b.m.4 && a.m.5 == b.m.5
            && a.m.6 == b.m.6 && a.m.7 == b.m.7 && a.m.8 == b.m.8 && a.near == b.near && a.far == b.far
    }

    /// The depth of flat point (x, y).
    @inline(__always) public func depth(_ x: Double, _ y: Double) -> Double { m.6 * x + m.7 * y + m.8 }

    /// The screen point of flat point (x, y) (meaningful for a positive depth).
    @inline(__always) public func apply(_ x: Double, _ y: Double) -> Point {
        let w = m.6 * x + m.7 * y + m.8
        return Point((m.0 * x + m.1 * y + m.2) / w, (m.3 * x + m.4 * y + m.5) / w)
    }

    /// How much a length at flat point (x, y) is scaled on screen across the view: the camera's
    /// depth at the centre over the point's (MapLibre's ctc / w), given the centre's depth.
    @inline(__always) public func scale(_ x: Double, _ y: Double, centreDepth: Double) -> Double {
        centreDepth / depth(x, y)
    }

    /// The flat point moved along the depth gradient onto the line of depth `w`.
    @inline(__always) func onto(_ p: Point, depth w: Double) -> Point {
        let g = m.6, h = m.7
        let k = (depth(p.x, p.y) - w) / (g * g + h * h)
        return Point(p.x - g * k, p.y - h * k)
    }

    /// The screen pieces of the flat edge a -> b, clamped to the slab (see the type's note): one
    /// to three edges, in order along the edge (`count` of the six points, two per edge).
    public struct Pieces {
        public var count = 0
        public var points: (Point, Point, Point, Point, Point, Point) = (Point(0, 0), Point(0, 0), Point(0, 0), Point(0, 0), Point(0, 0), Point(0, 0))
        @inline(__always) mutating func add(_ p: Point, _ q: Point) {
            switch count {
            case 0: points.0 = p; points.1 = q
            case 1: points.2 = p; points.3 = q
            default: points.4 = p; points.5 = q
            }
            count += 1
        }
    }

    @inline(__always)
    public func project(_ a: Point, _ b: Point) -> Pieces {
        var out = Pieces()
        let wa = depth(a.x, a.y), wb = depth(b.x, b.y)
        if wa >= near && wa <= far && wb >= near && wb <= far {
            out.add(apply(a.x, a.y), apply(b.x, b.y))
            return out
        }
        // The parameters along a -> b where the edge crosses the planes, in order.
        var t0 = 2.0, t1 = 2.0
        let dw = wb - wa
        if dw != 0 {
            t0 = (near - wa) / dw; t1 = (far - wa) / dw
            if t0 > t1 { swap(&t0, &t1) }
        }
        var from = a, t = 0.0
        func piece(to next: Point, _ tEnd: Double) {
            let wm = wa + dw * (t + tEnd) / 2
            if wm < near {
                let p = onto(from, depth: near), q = onto(next, depth: near)
                out.add(apply(p.x, p.y), apply(q.x, q.y))
            } else if wm > far {
                let p = onto(from, depth: far), q = onto(next, depth: far)
                out.add(apply(p.x, p.y), apply(q.x, q.y))
            } else {
                out.add(apply(from.x, from.y), apply(next.x, next.y))
            }
            from = next; t = tEnd
        }
        if t0 > 0 && t0 < 1 { piece(to: Point(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0), t0) }
        if t1 > 0 && t1 < 1 { piece(to: Point(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), t1) }
        piece(to: b, 1)
        return out
    }
}
