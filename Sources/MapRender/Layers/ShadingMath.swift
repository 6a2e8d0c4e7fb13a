/// Arctangents for per-pixel shading, within 2e-5 radians of the exact ones (an 8-bit colour
/// changes by 1 for about 0.004): libm's are called per pixel and cost most of a hillshade.
enum ShadingMath {
    /// atan(x) for x in [0, 1]: a minimax polynomial in x².
    @inline(__always) static func atanUnit(_ x: Float) -> Float {
        let s = x * x
        var p: Float = -0.0117212
        p = p * s + 0.05265332
        p = p * s - 0.11643287
        p = p * s + 0.19354346
        p = p * s - 0.33262347
        p = p * s + 0.99997726
        return p * x
    }

    /// atan(x), x ≥ 0.
    @inline(__always) static func atanPositive(_ x: Float) -> Float {
        x <= 1 ? atanUnit(x) : .pi / 2 - atanUnit(1 / x)
    }

    /// atan2(y, x) for y ≥ 0, in 0...π.
    @inline(__always) static func atan2Upper(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x)
        let lo = min(y, ax), hi = max(y, ax)
        guard hi > 0 else { return 0 }
        let a = atanUnit(lo / hi)
        let b = y > ax ? .pi / 2 - a : a
        return x < 0 ? .pi - b : b
    }
}
