#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The bilinear blend of two horizontal pixel pairs, one above the other: each pair is two
/// neighbouring packed pixels read as one 8-byte word. Per channel, a + (b - a) * w / 256 rounded
/// (`ImageBlitter.lerp`), first along each pair with `wx`, then between the two results with `wy`
/// (weights 0...256), so it gives exactly what blending the four pixels one by one gives.
public enum PairBlend {
    @inline(__always)
    public static func blend(_ top: UInt64, _ bottom: UInt64, wx: UInt32, wy: UInt32) -> UInt32 {
        #if arch(x86_64)
        return sse2(top, bottom, wx: wx, wy: wy)
        #else
        return portable(top, bottom, wx: wx, wy: wy)
        #endif
    }

    #if arch(x86_64)
    /// SSE2, spelled with the intrinsics so that it is inlined into the caller's loop (the
    /// generic SIMD conversions of `portable` may stay calls there).
    @inline(__always)
    public static func sse2(_ top: UInt64, _ bottom: UInt64, wx: UInt32, wy: UInt32) -> UInt32 {
        let zero = _mm_setzero_si128(), half = _mm_set1_epi16(128)
        let t = _mm_unpacklo_epi8(_mm_cvtsi64_si128(Int64(bitPattern: top)), zero)
        let b = _mm_unpacklo_epi8(_mm_cvtsi64_si128(Int64(bitPattern: bottom)), zero)
        // Lanes: the left pixels of both rows, then the right ones.
        let left = _mm_unpacklo_epi64(t, b), right = _mm_unpackhi_epi64(t, b)
        let x = Int16(truncatingIfNeeded: wx), y = Int16(truncatingIfNeeded: wy)
        let h = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(left, _mm_set1_epi16(256 &- x)),
                                                           _mm_mullo_epi16(right, _mm_set1_epi16(x))), half), 8)
        let v = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(h, _mm_set1_epi16(256 &- y)),
                                                           _mm_mullo_epi16(_mm_unpackhi_epi64(h, h), _mm_set1_epi16(y))), half), 8)
        return UInt32(truncatingIfNeeded: _mm_cvtsi128_si32(_mm_packus_epi16(v, v)))
    }
    #endif

    /// The same with Swift's SIMD types (any architecture).
    @inline(__always)
    public static func portable(_ top: UInt64, _ bottom: UInt64, wx: UInt32, wy: UInt32) -> UInt32 {
        let t = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(top, to: SIMD8<UInt8>.self))
        let b = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(bottom, to: SIMD8<UInt8>.self))
        let left = SIMD8(lowHalf: t.lowHalf, highHalf: b.lowHalf), right = SIMD8(lowHalf: t.highHalf, highHalf: b.highHalf)
        let x = UInt16(truncatingIfNeeded: wx), y = UInt16(truncatingIfNeeded: wy)
        let h = (left &* (256 &- x) &+ right &* x &+ 128) &>> 8
        let v = (h.lowHalf &* (256 &- y) &+ h.highHalf &* y &+ 128) &>> 8
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: v), to: UInt32.self)
    }
}
