#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Finding the non-zero bytes of a coverage mask sixteen at a time, so that compositing visits
/// only covered pixels (thin lines leave most of a row's bytes zero).
public enum ByteScan {
    /// Bit i set where `p[i]` is not zero, for i in 0..<16 (the 16 bytes must be readable).
    @inline(__always)
    public static func nonZero16(_ p: UnsafePointer<UInt8>) -> UInt32 {
        #if arch(x86_64)
        return sse2(p)
        #else
        return portable(p)
        #endif
    }

    #if arch(x86_64)
    @inline(__always)
    public static func sse2(_ p: UnsafePointer<UInt8>) -> UInt32 {
        let raw = UnsafeRawPointer(p)
        let v = _mm_set_epi64x(Int64(bitPattern: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                               Int64(bitPattern: raw.loadUnaligned(as: UInt64.self)))
        let zero = _mm_cmpeq_epi8(v, _mm_setzero_si128())
        return ~UInt32(truncatingIfNeeded: _mm_movemask_epi8(zero)) & 0xFFFF
    }
    #endif

    /// The same on any architecture.
    @inline(__always)
    public static func portable(_ p: UnsafePointer<UInt8>) -> UInt32 {
        var bits: UInt32 = 0
        for i in 0..<16 where p[i] != 0 { bits |= 1 << UInt32(i) }
        return bits
    }
}
