/// A sink for polygon outlines: the rasterizer and `Path` both take them.
public protocol PathSink: ~Copyable {
    mutating func moveTo(_ p: Point)
    mutating func lineTo(_ p: Point)
    /// Closes the current contour back to its first point.
    mutating func close()
}

/// A sequence of contours made of straight segments; curves are flattened on the way in.
public struct Path: PathSink, Sendable {
    public enum Verb: UInt8, Sendable { case move, line, close }
    public private(set) var verbs: [Verb] = []
    public private(set) var points: [Point] = []

    public init() {}

    public var isEmpty: Bool { verbs.isEmpty }

    /// Forgets every contour, keeping the storage for the next path.
    public mutating func removeAll() { verbs.removeAll(keepingCapacity: true); points.removeAll(keepingCapacity: true) }

    public mutating func moveTo(_ p: Point) { verbs.append(.move); points.append(p) }
    public mutating func lineTo(_ p: Point) {
        if verbs.isEmpty { moveTo(p); return }
        verbs.append(.line); points.append(p)
    }
    public mutating func close() { if !verbs.isEmpty { verbs.append(.close) } }

    public mutating func moveTo(_ x: Double, _ y: Double) { moveTo(Point(x, y)) }
    public mutating func lineTo(_ x: Double, _ y: Double) { lineTo(Point(x, y)) }

    /// Appends a quadratic Bézier from the current point, flattened to within `tolerance` px.
    public mutating func quadTo(_ c: Point, _ p: Point, tolerance: Double = 0.1) {
        guard let p0 = points.last else { moveTo(p); return }
        let dd = (p0 - c * 2 + p).length
        let n = max(1, min(100, Int((dd / (8 * tolerance)).squareRoot().rounded(.up))))
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            lineTo(p0 * (u * u) + c * (2 * u * t) + p * (t * t))
        }
    }

    /// Appends a cubic Bézier from the current point, flattened to within `tolerance` px.
    public mutating func cubicTo(_ c1: Point, _ c2: Point, _ p: Point, tolerance: Double = 0.1) {
        guard let p0 = points.last else { moveTo(p); return }
        let d1 = (p0 - c1 * 2 + c2).length, d2 = (c1 - c2 * 2 + p).length
        let n = max(1, min(200, Int((3 * max(d1, d2) / (4 * tolerance)).squareRoot().rounded(.up))))
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
            lineTo(p0 * a + c1 * b + c2 * cc + p * d)
        }
    }

    public mutating func addRect(_ r: Rect) {
        moveTo(Point(r.minX, r.minY)); lineTo(Point(r.maxX, r.minY))
        lineTo(Point(r.maxX, r.maxY)); lineTo(Point(r.minX, r.maxY)); close()
    }

    /// Appends a circle as a polygon whose vertices lie within `tolerance` px of the true circle.
    public mutating func addCircle(center: Point, radius: Double, tolerance: Double = 0.05) {
        Geometry.circle(center: center, radius: radius, tolerance: tolerance, into: &self)
    }

    /// Replays the path into `sink`, transformed.
    public func replay<S: PathSink & ~Copyable>(into sink: inout S, transform t: Transform = .identity) {
        var i = 0
        for v in verbs {
            switch v {
            case .move: sink.moveTo(t.apply(points[i])); i += 1
            case .line: sink.lineTo(t.apply(points[i])); i += 1
            case .close: sink.close()
            }
        }
    }

    /// Calls `body` with each contour's range of `points` and whether it is closed, in order.
    public func forEachContour(_ body: (Range<Int>, Bool) -> Void) {
        var start = 0, i = 0
        for v in verbs {
            switch v {
            case .move:
                if i > start { body(start..<i, false) }
                start = i; i += 1
            case .line: i += 1
            case .close:
                if i > start { body(start..<i, true) }
                start = i
            }
        }
        if i > start { body(start..<i, false) }
    }
}

/// Small geometric helpers shared by the path builder and the stroker.
public enum Geometry {
    /// Segments for a full circle of `radius` so the chord error stays below `tolerance`.
    @inlinable public static func circleSegments(radius: Double, tolerance: Double) -> Int {
        guard radius > tolerance else { return 4 }
        let step = 2 * acos(1 - tolerance / radius)
        return max(4, min(512, Int((2 * Double.pi / step).rounded(.up))))
    }

    /// A circle as a closed polygon of `circleSegments` vertices, straight into `sink` (no path
    /// to allocate: label dots are drawn this way every frame).
    public static func circle<S: PathSink & ~Copyable>(center: Point, radius: Double, tolerance: Double = 0.05, into sink: inout S) {
        let n = circleSegments(radius: radius, tolerance: tolerance)
        for i in 0..<n {
            let a = Double(i) * 2 * Double.pi / Double(n)
            let p = Point(center.x + radius * cos(a), center.y + radius * sin(a))
            if i == 0 { sink.moveTo(p) } else { sink.lineTo(p) }
        }
        sink.close()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
