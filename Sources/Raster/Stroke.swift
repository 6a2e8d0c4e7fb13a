/// How the ends of open lines are drawn (the style specification's `line-cap` values).
public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
/// How segments meet (the style specification's `line-join` values).
public enum LineJoin: String, Sendable, CaseIterable { case miter, bevel, round }

/// The geometry of a stroke, in device pixels.
public struct StrokeStyle: Equatable, Sendable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    /// Miter joins longer than `miterLimit` x width fall back to bevel joins.
    public var miterLimit: Double
    /// Alternating dash and gap lengths in pixels; empty for a solid line.
    public var dashes: [Double]
    /// Where in the dash pattern the line starts, in pixels.
    public var dashOffset: Double

    public init(width: Double, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 2,
                dashes: [Double] = [], dashOffset: Double = 0) {
        self.width = width; self.cap = cap; self.join = join
        self.miterLimit = miterLimit; self.dashes = dashes; self.dashOffset = dashOffset
    }
}

/// Turns polylines into filled outlines.
///
/// Every segment becomes its own rectangle, every join and cap its own small polygon, all with the
/// same orientation: filled with the non-zero rule they give the exact union of the stroke, with
/// no spikes at sharp inner joins and no self-intersection artefacts, and overlapping parts of
/// one line cover a pixel once. The stroker keeps scratch storage between calls.
public struct Stroker {
    private var scratch: [Point] = []
    private var dashScratch: [Point] = []
    private var contourScratch: [Point] = []
    /// Maximum distance of a round cap or join polygon from the true arc, in pixels.
    public var tolerance: Double = 0.1

    public init() {
        scratch.reserveCapacity(64)
        dashScratch.reserveCapacity(256)
    }

    /// Strokes a polyline (closed: the last point joins the first) into `sink`.
    public mutating func stroke<S: PathSink & ~Copyable>(_ points: UnsafeBufferPointer<Point>, closed: Bool,
                                             style: StrokeStyle, into sink: inout S) {
        strokeAny(points, closed: closed, style: style, into: &sink)
    }

    private mutating func strokeAny<S: PathSink & ~Copyable>(_ points: UnsafeBufferPointer<Point>, closed: Bool,
                                                 style: StrokeStyle, into sink: inout S) {
        guard style.width > 0, style.width.isFinite, points.count > 0 else { return }
        if !style.dashes.isEmpty, let pattern = DashPattern(style.dashes, offset: style.dashOffset) {
            dash(points, closed: closed, pattern: pattern, style: style, into: &sink)
        } else {
            strokeSolid(points, closed: closed, style: style, into: &sink)
        }
    }

    /// Strokes a polyline straight into a rasterizer (specialised: no protocol dispatch per edge).
    public mutating func stroke(_ points: UnsafeBufferPointer<Point>, closed: Bool, style: StrokeStyle,
                                into rasterizer: inout Rasterizer) {
        strokeAny(points, closed: closed, style: style, into: &rasterizer)
    }

    /// Convenience for arrays.
    public mutating func stroke<S: PathSink & ~Copyable>(_ points: [Point], closed: Bool, style: StrokeStyle, into sink: inout S) {
        points.withUnsafeBufferPointer { stroke($0, closed: closed, style: style, into: &sink) }
    }

    /// Strokes every contour of `path`.
    public mutating func stroke<S: PathSink & ~Copyable>(path: Path, style: StrokeStyle, transform: Transform = .identity, into sink: inout S) {
        // Each contour, transformed, in a scratch buffer kept between calls.
        var pts: [Point] = []
        swap(&pts, &contourScratch)
        defer { swap(&pts, &contourScratch) }
        path.forEachContour { range, closed in
            pts.removeAll(keepingCapacity: true)
            for i in range { pts.append(transform.apply(path.points[i])) }
            pts.withUnsafeBufferPointer { strokeAny($0, closed: closed, style: style, into: &sink) }
        }
    }

    private mutating func strokeSolid<S: PathSink & ~Copyable>(_ pts: UnsafeBufferPointer<Point>, closed: Bool,
                                                   style: StrokeStyle, into sink: inout S) {
        let hw = style.width / 2
        let n = pts.count
        // Skip repeated points while walking; `prevDir` is the direction of the last real segment.
        var firstDir: Point? = nil
        var firstPoint = pts[0]
        var prevDir = Point(0, 0)
        var havePrev = false
        var a = pts[0]
        let eps = 1e-9
        let total = closed ? n + 1 : n
        var i = 1
        while i < total {
            let b = pts[i < n ? i : 0]          // (the closing point: no division per point)
            i += 1
            let v = b - a
            let len = v.length
            guard len > eps, len.isFinite else { continue }
            let d = v * (1 / len)
            let nrm = Point(-d.y * hw, d.x * hw)
            emit4(a + nrm, b + nrm, b - nrm, a - nrm, into: &sink)
            if havePrev {
                join(at: a, from: prevDir, to: d, hw: hw, style: style, into: &sink)
            } else {
                firstDir = d
                firstPoint = a
            }
            prevDir = d
            havePrev = true
            a = b
        }
        guard let fd = firstDir else {
            // All points coincide: round and square caps still draw a dot, as in SVG.
            dot(at: pts[0], hw: hw, cap: style.cap, into: &sink)
            return
        }
        if closed {
            join(at: firstPoint, from: prevDir, to: fd, hw: hw, style: style, into: &sink)
        } else {
            cap(at: firstPoint, dir: fd * -1, hw: hw, cap: style.cap, into: &sink)
            cap(at: a, dir: prevDir, hw: hw, cap: style.cap, into: &sink)
        }
    }

    // MARK: Pieces, all emitted with negative (clockwise in y-down) orientation.

    @inline(__always)
    private func emit4<S: PathSink & ~Copyable>(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, into sink: inout S) {
        // Orientation of a segment rectangle is fixed by construction.
        sink.moveTo(p0); sink.lineTo(p1); sink.lineTo(p2); sink.lineTo(p3); sink.close()
    }

    /// Emits `pts` as a polygon, reversed if needed so it has the rectangles' orientation.
    private func emitOriented<S: PathSink & ~Copyable>(_ pts: [Point], into sink: inout S) {
        guard pts.count >= 3 else { return }
        var area = 0.0
        var prev = pts[pts.count - 1]
        for p in pts { area += prev.cross(p); prev = p }
        if area == 0 { return }
        if area < 0 {
            sink.moveTo(pts[0]); for p in pts.dropFirst() { sink.lineTo(p) }
        } else {
            sink.moveTo(pts[pts.count - 1]); for p in pts.dropLast().reversed() { sink.lineTo(p) }
        }
        sink.close()
    }

    private mutating func join<S: PathSink & ~Copyable>(at p: Point, from d0: Point, to d1: Point, hw: Double,
                                            style: StrokeStyle, into sink: inout S) {
        let turn = d0.cross(d1)
        let dot = d0.dot(d1)
        // The wedge a join fills has at least the bevel triangle's area, hw^2 |sin| / 2; when
        // even the round or miter piece would cover under 2 % of a pixel, leave it out.
        if dot > 0 && hw * hw * abs(turn) < 0.04 && (style.join != .miter || hw * hw * abs(turn) / (1 + dot) < 0.04) { return }
        let s: Double = turn > 0 ? -1 : 1                       // the outer side
        let n0 = Point(-d0.y * hw * s, d0.x * hw * s)
        let n1 = Point(-d1.y * hw * s, d1.x * hw * s)
        switch style.join {
        case .bevel:
            emitOriented3(p, p + n0, p + n1, into: &sink)
        case .miter:
            let cosHalf = ((1 + dot) / 2).squareRoot()         // cos of half the turn angle
            if cosHalf > 1e-9 && 1 / cosHalf <= style.miterLimit {
                let bis = n0 + n1
                let bl = bis.length
                if bl > 1e-12 {
                    let tip = p + bis * (hw / cosHalf / bl)
                    emitOriented4(p, p + n0, tip, p + n1, into: &sink)
                    return
                }
            }
            emitOriented3(p, p + n0, p + n1, into: &sink)
        case .round:
            if dot < 0 && abs(turn) < 1e-9 {
                // A reversal: the half disc ahead of the first segment, in two quarters (the
                // sweep's sign alone cannot say which half).
                let ahead = Point(d0.x * hw, d0.y * hw)
                emitRoundJoin(p, n0, ahead, hw, into: &sink)
                emitRoundJoin(p, ahead, n1, hw, into: &sink)
            } else {
                emitRoundJoin(p, n0, n1, hw, into: &sink)
            }
        }
    }

    /// The pie slice between offsets `v0` and `v1` around `c`, emitted with the rectangles'
    /// orientation; rotation steps, so one atan2 and one sincos per join.
    private func emitRoundJoin<S: PathSink & ~Copyable>(_ c: Point, _ v0: Point, _ v1: Point, _ r: Double, into sink: inout S) {
        let sweep = atan2(v0.cross(v1), v0.dot(v1))
        if sweep == 0 { return }
        let full = Geometry.circleSegments(radius: r, tolerance: tolerance)
        let steps = max(1, Int((abs(sweep) / (2 * Double.pi) * Double(full)).rounded(.up)))
        // Walk from the end that gives negative (rectangle-like) orientation.
        let forward = sweep < 0
        let from = forward ? v0 : v1, to = forward ? v1 : v0
        let step = (forward ? sweep : -sweep) / Double(steps)
        let cs = cos(step), sn = sin(step)
        sink.moveTo(c)
        var v = from
        sink.lineTo(c + v)
        for _ in 1..<steps {
            v = Point(v.x * cs - v.y * sn, v.x * sn + v.y * cs)
            sink.lineTo(c + v)
        }
        sink.lineTo(c + to)
        sink.close()
    }

    private func emitOriented3<S: PathSink & ~Copyable>(_ a: Point, _ b: Point, _ c: Point, into sink: inout S) {
        let area = (b - a).cross(c - a)
        if area == 0 { return }
        sink.moveTo(a)
        if area < 0 { sink.lineTo(b); sink.lineTo(c) } else { sink.lineTo(c); sink.lineTo(b) }
        sink.close()
    }

    /// A convex quadrilateral, reversed if needed to match the rectangles' orientation.
    private func emitOriented4<S: PathSink & ~Copyable>(_ a: Point, _ b: Point, _ c: Point, _ d: Point, into sink: inout S) {
        let area = (c - a).cross(d - b)
        if area == 0 { return }
        sink.moveTo(a)
        if area < 0 { sink.lineTo(b); sink.lineTo(c); sink.lineTo(d) } else { sink.lineTo(d); sink.lineTo(c); sink.lineTo(b) }
        sink.close()
    }

    private mutating func cap<S: PathSink & ~Copyable>(at p: Point, dir d: Point, hw: Double, cap: LineCap, into sink: inout S) {
        let n = Point(-d.y * hw, d.x * hw)
        switch cap {
        case .butt: return
        case .square:
            let e = d * hw
            scratch.removeAll(keepingCapacity: true)
            scratch.append(p + n); scratch.append(p + n + e); scratch.append(p - n + e); scratch.append(p - n)
            emitOriented(scratch, into: &sink)
        case .round:
            // Half disc bulging along `d`, from +n through +d to -n.
            scratch.removeAll(keepingCapacity: true)
            let a0 = atan2(n.y, n.x)
            let full = Geometry.circleSegments(radius: hw, tolerance: tolerance)
            let steps = max(2, (full + 1) / 2)
            // Pick the sweep direction that passes through +d.
            let mid = a0 + Double.pi / 2
            let sgn: Double = cos(mid) * d.x + sin(mid) * d.y > 0 ? 1 : -1
            for k in 0...steps {
                let a = a0 + sgn * Double.pi * Double(k) / Double(steps)
                scratch.append(Point(p.x + hw * cos(a), p.y + hw * sin(a)))
            }
            emitOriented(scratch, into: &sink)
        }
    }

    private mutating func dot<S: PathSink & ~Copyable>(at p: Point, hw: Double, cap: LineCap, into sink: inout S) {
        switch cap {
        case .butt: return
        case .square:
            scratch.removeAll(keepingCapacity: true)
            scratch.append(Point(p.x - hw, p.y - hw)); scratch.append(Point(p.x + hw, p.y - hw))
            scratch.append(Point(p.x + hw, p.y + hw)); scratch.append(Point(p.x - hw, p.y + hw))
            emitOriented(scratch, into: &sink)
        case .round:
            scratch.removeAll(keepingCapacity: true)
            let n = Geometry.circleSegments(radius: hw, tolerance: tolerance)
            for k in 0..<n {
                let a = 2 * Double.pi * Double(k) / Double(n)
                scratch.append(Point(p.x + hw * cos(a), p.y + hw * sin(a)))
            }
            emitOriented(scratch, into: &sink)
        }
    }

    // MARK: Dashes

    private mutating func dash<S: PathSink & ~Copyable>(_ pts: UnsafeBufferPointer<Point>, closed: Bool, pattern: DashPattern,
                                            style: StrokeStyle, into sink: inout S) {
        var solid = style
        solid.dashes = []
        dashScratch.removeAll(keepingCapacity: true)
        pattern.walk(pts, closed: closed,
                     start: { dashScratch.append($0) },
                     to: { dashScratch.append($0) },
                     end: { flushDash(style: solid, into: &sink) })
    }

    private mutating func flushDash<S: PathSink & ~Copyable>(style: StrokeStyle, into sink: inout S) {
        if dashScratch.count >= 2 {
            // Swap the buffer out so stroking can use `self` without copying it.
            var pts: [Point] = []
            swap(&pts, &dashScratch)
            pts.withUnsafeBufferPointer { strokeSolid($0, closed: false, style: style, into: &sink) }
            swap(&pts, &dashScratch)
        }
        dashScratch.removeAll(keepingCapacity: true)
    }
}

/// A dash array walked along a line.
struct DashPattern {
    struct State { var index: Int; var remaining: Double; var on: Bool }
    let lengths: [Double]
    let start: State

    /// nil when the pattern cannot be walked (no positive length, negatives, non-finite values).
    init?(_ dashes: [Double], offset: Double) {
        var l = dashes
        if l.count % 2 == 1 { l += dashes }                     // odd counts repeat, as in SVG
        guard !l.isEmpty, l.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let period = l.reduce(0, +)
        guard period > 0.25 else { return nil }            // finer than a pixel: draw solid
        lengths = l
        var off = offset.truncatingRemainder(dividingBy: period)
        if off < 0 { off += period }
        var i = 0
        while off >= l[i] { off -= l[i]; i = (i + 1) % l.count }
        start = State(index: i, remaining: l[i] - off, on: i % 2 == 0)
    }

    func next(after s: State) -> State {
        let i = s.index + 1 < lengths.count ? s.index + 1 : 0
        return State(index: i, remaining: lengths[i], on: i & 1 == 0)
    }

    /// Walks the polyline `pts` (closed: back to its first point) through the pattern: `start`
    /// where each dash begins, `to` for every point it passes and where it stops, `end` when it
    /// is over. Zero-length and non-finite segments are skipped.
    func walk(_ pts: UnsafeBufferPointer<Point>, closed: Bool, start: (Point) -> Void, to: (Point) -> Void, end: () -> Void) {
        guard pts.count > 0 else { return }
        var state = self.start
        let n = pts.count
        let total = closed ? n + 1 : n
        if state.on { start(pts[0]) }
        var a = pts[0]
        var i = 1
        while i < total {
            let b = pts[i < n ? i : 0]          // (the closing point: no division per point)
            i += 1
            let len = (b - a).length
            guard len > 0, len.isFinite else { continue }
            var t = 0.0
            while len - t > state.remaining {
                t += state.remaining
                let p = a + (b - a) * (t / len)
                if state.on { to(p); end() } else { start(p) }
                state = next(after: state)
            }
            state.remaining -= len - t
            if state.on { to(b) }
            a = b
        }
        if state.on { end() }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
