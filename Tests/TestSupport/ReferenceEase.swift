/// cubic-bezier(0.25, 0.1, 0.25, 1) evaluated independently of `UnitBezier`: bisection on the
/// parametric x(s) to 1e-12, then y(s).
public func referenceEase(_ x: Double) -> Double {
    func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if bez(mid, 0.25, 0.25) < x { lo = mid } else { hi = mid }
    }
    return bez((lo + hi) / 2, 0.1, 1)
}
