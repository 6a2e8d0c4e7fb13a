#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// One mask row of a thin segment, covered by distance as `ThinStroke` covers it: a pixel centre
/// at t along the line and p across it gets r - |p| beside the segment; past a round end (a cap or
/// a join) r minus its distance to the end point; past a butt or square end
/// min(r - |p|, 1) times how far it is inside the end's fade. The mask keeps the larger of that
/// (as a byte, clamped to 0...1) and what it had.
///
/// This is the stroke's innermost loop: most basemap segments are a few pixels long, and pixel
/// by pixel it takes a branch per end and one per pixel out of reach, which are hard to predict.
/// The SSE2 form takes none. The distance along the line past either end is max(-t, t - len, 0),
/// so one square root serves the middle (sqrt(p * p) is |p| exactly in binary floating point) and
/// both round ends; flat ends are computed beside it and chosen per lane; pixels out of reach get
/// a coverage at or under 0, a byte of 0, which leaves the mask as it was. Each product and sum is
/// the scalar form's, in its order, so the bytes are the same (`ThinStrokeTests` compares them).
public enum ThinSegmentRow {
    /// The segment as every row sees it.
    public struct Segment {
        /// Start point, unit direction, length.
        public var ax, ay, dx, dy, len: Double
        /// How far from the line coverage reaches (half the width + 0.5).
        public var r: Double
        /// Pixel centres count only strictly between these, along the line.
        public var lo, hi: Double
        /// Whether each end is round (a round cap or a join).
        public var roundStart, roundEnd: Bool
        /// How far a square end extends the line (half the width; 0 for butt and round ends).
        public var squareStart, squareEnd: Double

        public init(ax: Double, ay: Double, dx: Double, dy: Double, len: Double, r: Double, lo: Double, hi: Double,
                    roundStart: Bool, roundEnd: Bool, squareStart: Double, squareEnd: Double) {
            self.ax = ax; self.ay = ay; self.dx = dx; self.dy = dy; self.len = len; self.r = r
            self.lo = lo; self.hi = hi; self.roundStart = roundStart; self.roundEnd = roundEnd
            self.squareStart = squareStart; self.squareEnd = squareEnd
        }

        /// Both ends round: the cheaper kernel applies.
        public var roundEnds: Bool { roundStart && roundEnd }
    }

    /// Covers columns x0...x1 (x0 <= x1) of the row at device y, whose bytes start at `base`.
    /// Returns whether any pixel's coverage rounds to a byte above 0. `base` must be readable and writable up to
    /// x1 + 3 (the SSE2 form loads and stores four bytes at a time, and writes the bytes past
    /// x1 back unchanged).
    @inline(__always) @discardableResult
    public static func cover(_ s: Segment, y: Int, x0: Int, x1: Int, base: UnsafeMutablePointer<UInt8>) -> Bool {
        #if arch(x86_64)
        return s.roundEnds ? sse2(s, y: y, x0: x0, x1: x1, base: base, flatEnds: false)
                           : sse2(s, y: y, x0: x0, x1: x1, base: base, flatEnds: true)
        #else
        return portable(s, y: y, x0: x0, x1: x1, base: base)
        #endif
    }

    #if arch(x86_64)
    /// `flatEnds`: an end may be butt or square (false only when both are round).
    @inline(__always)
    public static func sse2(_ s: Segment, y: Int, x0: Int, x1: Int, base: UnsafeMutablePointer<UInt8>, flatEnds: Bool) -> Bool {
        let vy = Double(y) + 0.5 - s.ay
        let dx = _mm_set1_pd(s.dx), dy = _mm_set1_pd(s.dy)
        let along = _mm_set1_pd(vy * s.dy), across = _mm_set1_pd(vy * s.dx)
        let ax = _mm_set1_pd(s.ax), len = _mm_set1_pd(s.len), r = _mm_set1_pd(s.r)
        let lo = _mm_set1_pd(s.lo)
        let zero = _mm_setzero_pd(), one = _mm_set1_pd(1), scale = _mm_set1_pd(255), half = _mm_set1_pd(0.5)
        let lastCentre = _mm_set1_pd(Double(x1) + 0.5), two = _mm_set1_pd(2)
        let sign = _mm_set1_pd(-0.0)
        let flatStart = _mm_castsi128_pd(_mm_set1_epi64x(s.roundStart ? 0 : -1))
        let flatEnd = _mm_castsi128_pd(_mm_set1_epi64x(s.roundEnd ? 0 : -1))
        let squareStart = _mm_set1_pd(s.squareStart), squareEndHalf = _mm_set1_pd(s.squareEnd + 0.5)
        @inline(__always) func select(_ m: __m128d, _ a: __m128d, _ b: __m128d) -> __m128d {
            _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b))
        }
        // The coverage of two pixel centres (cx, cx + 1), as int32 bytes in the low two lanes.
        @inline(__always) func pair(_ cx: __m128d) -> __m128i {
            let vx = _mm_sub_pd(cx, ax)
            let t = _mm_add_pd(_mm_mul_pd(vx, dx), along)
            let p = _mm_sub_pd(across, _mm_mul_pd(vx, dy))
            let past = _mm_sub_pd(t, len)
            let e = _mm_max_pd(_mm_max_pd(_mm_sub_pd(zero, t), past), zero)
            var c = _mm_sub_pd(r, _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(e, e), _mm_mul_pd(p, p))))
            if flatEnds {
                let before = _mm_cmplt_pd(t, zero), after = _mm_cmpgt_pd(t, len)
                let fade = select(before, _mm_add_pd(_mm_add_pd(t, squareStart), half), _mm_sub_pd(squareEndHalf, past))
                let flat = _mm_mul_pd(_mm_min_pd(_mm_sub_pd(r, _mm_andnot_pd(sign, p)), one),
                                      _mm_min_pd(_mm_max_pd(fade, zero), one))
                c = select(_mm_or_pd(_mm_and_pd(before, flatStart), _mm_and_pd(after, flatEnd)), flat, c)
            }
            // Past hi (and before lo, unless the segment is joined there) coverage is already at
            // or under 0. It is not clamped: the packs below saturate it to 0...255.
            c = _mm_and_pd(c, _mm_and_pd(_mm_cmpgt_pd(t, lo), _mm_cmple_pd(cx, lastCentre)))
            return _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(c, scale), half))
        }
        var cx = _mm_set_pd(Double(x0) + 1.5, Double(x0) + 0.5)
        var x = x0
        var any = _mm_setzero_si128()
        let raw = UnsafeMutableRawPointer(base)
        while x <= x1 {
            let low = pair(cx)
            cx = _mm_add_pd(cx, two)
            let high = pair(cx)
            cx = _mm_add_pd(cx, two)
            let words = _mm_packs_epi32(_mm_unpacklo_epi64(low, high), _mm_setzero_si128())
            let bytes = _mm_packus_epi16(words, words)
            any = _mm_or_si128(any, bytes)
            let old = _mm_cvtsi32_si128(Int32(bitPattern: raw.loadUnaligned(fromByteOffset: x, as: UInt32.self)))
            raw.storeBytes(of: UInt32(bitPattern: _mm_cvtsi128_si32(_mm_max_epu8(old, bytes))), toByteOffset: x, as: UInt32.self)
            x += 4
        }
        return _mm_cvtsi128_si32(any) != 0
    }
    #endif

    /// The same pixel by pixel (any architecture; the reference for the SSE2 form).
    public static func portable(_ s: Segment, y: Int, x0: Int, x1: Int, base: UnsafeMutablePointer<UInt8>) -> Bool {
        let vy = Double(y) + 0.5 - s.ay
        var touched = false
        for x in x0...x1 {
            let vx = Double(x) + 0.5 - s.ax
            let t = vx * s.dx + vy * s.dy, p = vy * s.dx - vx * s.dy
            guard t > s.lo && t < s.hi && abs(p) < s.r else { continue }
            let c: Double
            if t < 0 {
                c = s.roundStart ? s.r - (t * t + p * p).squareRoot()
                                 : min(s.r - abs(p), 1) * min(max(t + s.squareStart + 0.5, 0), 1)
            } else if t > s.len {
                let e = t - s.len
                c = s.roundEnd ? s.r - (e * e + p * p).squareRoot()
                               : min(s.r - abs(p), 1) * min(max(s.squareEnd + 0.5 - e, 0), 1)
            } else {
                c = s.r - abs(p)
            }
            guard c > 0 else { continue }
            let value = c >= 1 ? 255 : UInt8(truncatingIfNeeded: Int(c * 255 + 0.5))
            if base[x] < value { base[x] = value }
            if value > 0 { touched = true }
        }
        return touched
    }
}
