import MapCore
import Raster

/// The pixels [floor(lo), ceil(hi)] within `range`, or nil when none (or lo, hi are NaN):
/// screen bounds may be huge or infinite, and only clamped values become integers.
func pixelSpan(_ lo: Double, _ hi: Double, in range: Range<Int>) -> ClosedRange<Int>? {
    guard lo <= hi, !range.isEmpty else { return nil }
    let a = max(lo.rounded(.down), Double(range.lowerBound)), b = min(hi.rounded(.up), Double(range.upperBound - 1))
    guard a <= b else { return nil }
    return Int(a)...Int(b)
}

/// Premultiplied r, g, b, a in 0...1 for a straight colour at `opacity`.
func premultipliedFloats(_ c: MapCore.Color, _ opacity: Double) -> SIMD4<Double> {
    let a = min(max(c.a * opacity, 0), 1)
    return SIMD4(c.r * a, c.g * a, c.b * a, a)
}

/// Packs premultiplied floats into the pixmap's 0xAARRGGBB.
func packPremultiplied(_ p: SIMD4<Double>) -> UInt32 {
    func q(_ v: Double) -> UInt32 { UInt32((v > 0 ? min(v, 1) : 0) * 255 + 0.5) }     // (NaN: 0)
    let a = q(p[3])
    return a << 24 | min(q(p[0]), a) << 16 | min(q(p[1]), a) << 8 | min(q(p[2]), a)
}

@inline(__always) func smoothstep01(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}

@inline(__always) func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    smoothstep01((x - e0) / (e1 - e0))
}
