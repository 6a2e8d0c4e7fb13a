import Foundation

/// A straight-alpha sRGB colour with components in [0, 1], as the style specification has them.
public struct Color: Equatable, Hashable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// An opaque colour written 0xRRGGBB (the program's own constants).
    public init(rgb: UInt32) {
        self.init(r: Double(rgb >> 16 & 255) / 255, g: Double(rgb >> 8 & 255) / 255, b: Double(rgb & 255) / 255)
    }

    /// `#rgb`, `#rrggbb` or `#rrggbbaa`.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var s = String(hex.dropFirst())
        if s.count == 3 { s = s.map { "\($0)\($0)" }.joined() }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let n = s.count == 6 ? v << 8 | 0xFF : v
        self.init(r: Double(n >> 24 & 255) / 255, g: Double(n >> 16 & 255) / 255,
                  b: Double(n >> 8 & 255) / 255, a: Double(n & 255) / 255)
    }

    /// 8-bit components, rounded.
    public var bytes: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func q(_ v: Double) -> UInt8 { roundedByte(min(max(v, 0), 1) * 255) }
        return (q(r), q(g), q(b), q(a))
    }

    /// `t` of the way to `other`, in straight RGBA with alpha alongside (transitions: a
    /// transparent red stays red).
    public func mixed(with other: Color, _ t: Double) -> Color {
        Color(r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)
}

/// `v` (0...255) rounded half away from zero, as `v.rounded()` rounds it, without the C library
/// call `rounded()` makes on processors without SSE4.1 (a feature layer turns a colour into bytes
/// for each of tens of thousands of features).
@inline(__always)
public func roundedByte(_ v: Double) -> UInt8 {
    let whole = UInt8(v)                    // (truncated: v >= 0)
    return v - Double(whole) >= 0.5 ? whole + 1 : whole
}
