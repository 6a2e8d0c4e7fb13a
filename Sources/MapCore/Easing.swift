import Foundation

/// Timing curves for animations: `value(t)` maps progress t in [0, 1] to eased progress.
public enum Easing: Equatable, Sendable {
    case linear
    /// t(2 - t): MapLibre's keyboard ease-out.
    case quadraticOut
    /// A CSS-style cubic Bézier from (0, 0) to (1, 1) through the two control points.
    case cubicBezier(Double, Double, Double, Double)

    /// Mapbox iOS's default camera curve, cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = Easing.cubicBezier(0, 0, 0.58, 1)
    /// The style specification's transition curve, cubic-bezier(0.25, 0.1, 0.25, 1).
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)

    public func value(_ t: Double) -> Double {
        let t = min(max(t.isFinite ? t : 1, 0), 1)
        switch self {
        case .linear: return t
        case .quadraticOut: return t * (2 - t)
        case let .cubicBezier(x1, y1, x2, y2): return UnitBezier(x1, y1, x2, y2).solve(t)
        }
    }
}

/// Solves a unit cubic Bézier for y at a given x (the WebKit/MapLibre method: Newton, then bisection).
public struct UnitBezier: Sendable {
    let cx, bx, ax, cy, by, ay: Double

    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        cx = 3 * p1x; bx = 3 * (p2x - p1x) - cx; ax = 1 - cx - bx
        cy = 3 * p1y; by = 3 * (p2y - p1y) - cy; ay = 1 - cy - by
    }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    func solveT(_ x: Double, epsilon: Double = 1e-12) -> Double {
        var t = x
        for _ in 0..<12 {
            let e = sampleX(t) - x
            if abs(e) < epsilon { return t }
            let d = sampleDX(t)
            if abs(d) < 1e-12 { break }
            t -= e / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        while lo < hi {
            let v = sampleX(t)
            if abs(v - x) < epsilon { return t }
            if x > v { lo = t } else { hi = t }
            let next = (hi - lo) / 2 + lo
            if next == t { break }
            t = next
        }
        return t
    }

    /// y for the given x in [0, 1].
    public func solve(_ x: Double) -> Double { sampleY(solveT(min(max(x, 0), 1))) }
}
