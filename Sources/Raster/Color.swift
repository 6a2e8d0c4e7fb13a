/// A straight (not premultiplied) sRGB colour with 8-bit channels.
public struct RGBA8: Equatable, Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// Premultiplied and packed as 0xAARRGGBB, the Pixmap's pixel format.
    public var premultiplied: PremultipliedColor { PremultipliedColor(self) }
}

/// A premultiplied colour packed as 0xAARRGGBB (the Pixmap's and SDL's ARGB8888 layout).
public struct PremultipliedColor: Equatable, Sendable {
    public var packed: UInt32
    public init(packed: UInt32) { self.packed = packed }
    public init(_ c: RGBA8) {
        let a = UInt32(c.a)
        func m(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
        packed = a << 24 | m(c.r) << 16 | m(c.g) << 8 | m(c.b)
    }
    public var alpha: UInt8 { UInt8(packed >> 24) }
    /// Back to straight alpha (rounded).
    public var unpremultiplied: RGBA8 {
        let a = packed >> 24
        if a == 0 { return RGBA8(0, 0, 0, 0) }
        func u(_ v: UInt32) -> UInt8 { UInt8(min(255, (v * 255 + a / 2) / a)) }
        return RGBA8(u(packed >> 16 & 255), u(packed >> 8 & 255), u(packed & 255), UInt8(a))
    }
    /// This colour with its alpha (and channels) multiplied by `opacity` in [0, 1].
    public func scaled(by opacity: Double) -> PremultipliedColor {
        let s = UInt32((max(0, min(1, opacity)) * 256).rounded())
        return PremultipliedColor(packed: Blend.scale(packed, s))
    }
}

/// Packed-pixel arithmetic on two channels at a time.
public enum Blend {
    /// Multiplies all four channels of `c` by `s / 256`, `s` in 0...256.
    @inlinable @inline(__always)
    public static func scale(_ c: UInt32, _ s: UInt32) -> UInt32 {
        let rb = (((c & 0x00FF_00FF) &* s) >> 8) & 0x00FF_00FF
        let ag = (((c >> 8) & 0x00FF_00FF) &* s) & 0xFF00_FF00
        return rb | ag
    }
    /// Source-over of premultiplied `src` onto `dst`.
    @inlinable @inline(__always)
    public static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let inv = 256 &- ((src >> 24) &+ (src >> 31))
        return src &+ scale(dst, inv)
    }
}
