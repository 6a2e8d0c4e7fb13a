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
/// The SSE2 form takes none, four pixels at a time in single precision (see `RowInputs`). The
/// distance along the line past either end is max(-t, t - len, 0),
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

    /// The row's inputs in single precision: where the centre of column x0 lies along the line
    /// from its start (t0) and from its end (past0), and across it (p0), each computed in double
    /// and rounded once; column x0 + k is then at t0 + k dx, past0 + k dx and p0 - k dy. Whatever
    /// is near the segment is a few pixels from it, so single precision keeps it to about 1e-6 px
    /// (even on a segment a billion pixels long: near each end, the distance to that end is what
    /// counts), and both spellings of the kernel see the same numbers.
    @usableFromInline struct RowInputs {
        var t0, past0, p0, dx, dy, r, lo, squareStart, squareEnd: Float
        @inline(__always) init(_ s: Segment, y: Int, x0: Int) {
            let vy = Double(y) + 0.5 - s.ay, vx = Double(x0) + 0.5 - s.ax
            let t = vx * s.dx + vy * s.dy
            t0 = Float(t); past0 = Float(t - s.len); p0 = Float(vy * s.dx - vx * s.dy)
            dx = Float(s.dx); dy = Float(s.dy); r = Float(s.r); lo = Float(s.lo)
            squareStart = Float(s.squareStart); squareEnd = Float(s.squareEnd)
        }
    }

    #if arch(x86_64)
    /// `flatEnds`: an end may be butt or square (false only when both are round).
    @inline(__always)
    public static func sse2(_ s: Segment, y: Int, x0: Int, x1: Int, base: UnsafeMutablePointer<UInt8>, flatEnds: Bool) -> Bool {
        let i = RowInputs(s, y: y, x0: x0)
        let dx = _mm_set1_ps(i.dx), dy = _mm_set1_ps(i.dy)
        let t0 = _mm_set1_ps(i.t0), past0 = _mm_set1_ps(i.past0), p0 = _mm_set1_ps(i.p0)
        let r = _mm_set1_ps(i.r), lo = _mm_set1_ps(i.lo)
        let zero = _mm_setzero_ps(), one = _mm_set1_ps(1), scale = _mm_set1_ps(255), half = _mm_set1_ps(0.5)
        let lastColumn = _mm_set1_ps(Float(x1 - x0)), four = _mm_set1_ps(4)
        let sign = _mm_set1_ps(-0.0)
        let flatStart = _mm_castsi128_ps(_mm_set1_epi32(s.roundStart ? 0 : -1))
        let flatEnd = _mm_castsi128_ps(_mm_set1_epi32(s.roundEnd ? 0 : -1))
        let squareStart = _mm_set1_ps(i.squareStart), squareEndHalf = _mm_set1_ps(i.squareEnd + 0.5)
        @inline(__always) func select(_ m: __m128, _ a: __m128, _ b: __m128) -> __m128 {
            _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b))
        }
        // Four columns at a time, k their offsets from x0; coverage as int32 lanes.
        var k = _mm_set_ps(3, 2, 1, 0)
        var x = x0
        var any = _mm_setzero_si128()
        let raw = UnsafeMutableRawPointer(base)
        while x <= x1 {
            let along = _mm_mul_ps(k, dx)
            let t = _mm_add_ps(t0, along), past = _mm_add_ps(past0, along)
            let p = _mm_sub_ps(p0, _mm_mul_ps(k, dy))
            let e = _mm_max_ps(_mm_max_ps(_mm_sub_ps(zero, t), past), zero)
            var c = _mm_sub_ps(r, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(e, e), _mm_mul_ps(p, p))))
            if flatEnds {
                let before = _mm_cmplt_ps(t, zero), after = _mm_cmpgt_ps(past, zero)
                let fade = select(before, _mm_add_ps(_mm_add_ps(t, squareStart), half), _mm_sub_ps(squareEndHalf, past))
                let flat = _mm_mul_ps(_mm_min_ps(_mm_sub_ps(r, _mm_andnot_ps(sign, p)), one),
                                      _mm_min_ps(_mm_max_ps(fade, zero), one))
                c = select(_mm_or_ps(_mm_and_ps(before, flatStart), _mm_and_ps(after, flatEnd)), flat, c)
            }
            // Past hi (and before lo, unless the segment is joined there) coverage is already at
            // or under 0. It is not clamped: the packs below saturate it to 0...255.
            c = _mm_and_ps(c, _mm_and_ps(_mm_cmpgt_ps(t, lo), _mm_cmple_ps(k, lastColumn)))
            let ints = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(c, scale), half))
            let words = _mm_packs_epi32(ints, ints)
            let bytes = _mm_packus_epi16(words, words)
            any = _mm_or_si128(any, bytes)
            let old = _mm_cvtsi32_si128(Int32(bitPattern: raw.loadUnaligned(fromByteOffset: x, as: UInt32.self)))
            raw.storeBytes(of: UInt32(bitPattern: _mm_cvtsi128_si32(_mm_max_epu8(old, bytes))), toByteOffset: x, as: UInt32.self)
            k = _mm_add_ps(k, four)
            x += 4
        }
        return _mm_cvtsi128_si32(any) != 0
    }
    #endif

    /// The same pixel by pixel (any architecture; the reference for the SSE2 form, with its
    /// products and sums in its order).
    public static func portable(_ s: Segment, y: Int, x0: Int, x1: Int, base: UnsafeMutablePointer<UInt8>) -> Bool {
        let i = RowInputs(s, y: y, x0: x0)
        var touched = false
        for x in x0...x1 {
            let k = Float(x - x0), along = k * i.dx
            let t = i.t0 + along, past = i.past0 + along, p = i.p0 - k * i.dy
            guard t > i.lo else { continue }
            let e = max(max(0 - t, past), 0)
            var c = i.r - (e * e + p * p).squareRoot()
            if t < 0 && !s.roundStart {
                c = min(i.r - abs(p), 1) * min(max(t + i.squareStart + 0.5, 0), 1)
            } else if past > 0 && !s.roundEnd {
                c = min(i.r - abs(p), 1) * min(max((i.squareEnd + 0.5) - past, 0), 1)
            }
            guard c > 0 else { continue }
            let value = c >= 1 ? 255 : UInt8(truncatingIfNeeded: Int(c * 255 + 0.5))
            if base[x] < value { base[x] = value }
            if value > 0 { touched = true }
        }
        return touched
    }
}
