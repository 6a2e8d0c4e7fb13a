#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Source-over of a row of premultiplied pixels onto a row, four at a time where the machine
/// allows: per channel d * (256 - a - a / 128) / 256 (truncated) plus the source, which is
/// `Blend.over` to the bit for premultiplied pixels. Clear source pixels leave the destination
/// as it was and opaque ones replace it, as the scalar loop's shortcuts do.
public enum SpanOver {
    @inline(__always)
    public static func over(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        #if arch(x86_64)
        while i + 4 <= count {
            sse2(src + i, dst + i)
            i += 4
        }
        #endif
        scalar(src + i, dst + i, count - i)
    }

    /// One pixel at a time (the tail, and other machines).
    @inline(__always)
    public static func scalar(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        for k in 0..<max(0, count) {
            let c = src[k]
            if c == 0 { continue }
            dst[k] = c >> 24 == 255 ? c : Blend.over(c, dst[k])
        }
    }

    #if arch(x86_64)
    /// Four pixels.
    @inline(__always)
    public static func sse2(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>) {
        let s = UnsafeRawPointer(src).loadUnaligned(as: SIMD2<Int64>.self)
        if _mm_movemask_epi8(_mm_cmpeq_epi8(s, _mm_setzero_si128())) == 0xFFFF { return }
        sse2(s, dst)
    }

    /// Four pixels `s` (packed in a vector) onto `dst`, clear ones included (without a branch:
    /// a clear pixel scales the destination by 256, which leaves it as it was).
    @inline(__always)
    public static func sse2(_ s: SIMD2<Int64>, _ dst: UnsafeMutablePointer<UInt32>) {
        let zero = _mm_setzero_si128()
        let d = UnsafeRawPointer(dst).loadUnaligned(as: SIMD2<Int64>.self)
        let a = _mm_srli_epi32(s, 24)
        let inv = _mm_sub_epi32(_mm_sub_epi32(_mm_set1_epi32(256), a), _mm_srli_epi32(a, 7))
        // Each pixel's factor in the four 16-bit lanes of its channels.
        let pairs = _mm_unpacklo_epi16(_mm_packs_epi32(inv, inv), _mm_packs_epi32(inv, inv))
        let low = _mm_unpacklo_epi32(pairs, pairs), high = _mm_unpackhi_epi32(pairs, pairs)
        let dl = _mm_srli_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), low), 8)
        let dh = _mm_srli_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), high), 8)
        let out = _mm_add_epi8(s, _mm_packus_epi16(dl, dh))
        UnsafeMutableRawPointer(dst).storeBytes(of: out, as: SIMD2<Int64>.self)
    }

    /// `color` scaled by four coverage bytes (the low byte first), as `Blend.scale` scales it
    /// by a + a / 128: 0 at 0, the colour itself at 255.
    @inline(__always)
    public static func shades(_ color: UInt32, coverage: UInt32) -> SIMD2<Int64> {
        let zero = _mm_setzero_si128()
        let a = _mm_unpacklo_epi8(_mm_cvtsi32_si128(Int32(bitPattern: coverage)), zero)
        let k = _mm_add_epi16(a, _mm_srli_epi16(a, 7))
        let pairs = _mm_unpacklo_epi16(k, k)
        let low = _mm_unpacklo_epi32(pairs, pairs), high = _mm_unpackhi_epi32(pairs, pairs)
        let c = _mm_unpacklo_epi8(_mm_set1_epi32(Int32(bitPattern: color)), zero)
        return _mm_packus_epi16(_mm_srli_epi16(_mm_mullo_epi16(c, low), 8), _mm_srli_epi16(_mm_mullo_epi16(c, high), 8))
    }
    #endif
}
