import Testing
@testable import Raster

/// Straight-alpha bytes into premultiplied pixels: the one-pass reader rounds every value as
/// `RGBA8.premultiplied` does.
@Suite struct StraightRGBATests {
    @Test func everyChannelAndAlphaRoundsAsThePremultipliedColour() {
        var bytes: [UInt8] = []
        for a in 0...255 {
            for v in 0...255 { bytes += [UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(a)] }
        }
        let p = Pixmap(straightRGBA: bytes, width: 256, height: 256)
        for a in 0...255 {
            for v in 0...255 {
                let want = RGBA8(UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(a)).premultiplied.packed
                if p.pixels[a * 256 + v] != want {
                    Issue.record("alpha \(a) value \(v): \(p.pixels[a * 256 + v]) != \(want)")
                    return
                }
            }
        }
    }
}
