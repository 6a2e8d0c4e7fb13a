#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
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
/// Each channel clamped to 0...1 (NaN: 0), rounded to a byte, and the colour bytes kept at or
/// under alpha's.
@inline(__always)
func packPremultiplied(_ p: SIMD4<Double>) -> UInt32 {
    #if arch(x86_64)
    // (Branch-free: circles and the DEM layers pack a colour per pixel.) Lanes b, g and r, a
    // become the bytes of 0xAARRGGBB in memory order; _mm_max_pd gives its second operand for
    // NaN, 0; the bytes are below 2^15, so 16-bit minima compare them.
    let zero = _mm_setzero_pd(), one = _mm_set1_pd(1), scale = _mm_set1_pd(255), half = _mm_set1_pd(0.5)
    @inline(__always) func q(_ v: __m128d) -> __m128i {
        _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_min_pd(_mm_max_pd(v, zero), one), scale), half))
    }
    let bgra = _mm_unpacklo_epi64(q(_mm_set_pd(p[1], p[2])), q(_mm_set_pd(p[3], p[0])))
    let capped = _mm_min_epi16(bgra, _mm_unpackhi_epi64(_mm_unpackhi_epi32(bgra, bgra), _mm_unpackhi_epi32(bgra, bgra)))
    let words = _mm_packs_epi32(capped, capped)
    return UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(words, words)))
    #else
    func q(_ v: Double) -> UInt32 { UInt32((v > 0 ? min(v, 1) : 0) * 255 + 0.5) }     // (NaN: 0)
    let a = q(p[3])
    return a << 24 | min(q(p[0]), a) << 16 | min(q(p[1]), a) << 8 | min(q(p[2]), a)
    #endif
}

@inline(__always) func smoothstep01(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}

@inline(__always) func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    smoothstep01((x - e0) / (e1 - e0))
}
