import Foundation
import Raster
import Testing

/// Label masks: the halo grown from the text's coverage, and halo plus text composited in one pass.
@Suite struct AlphaMaskTests {
    @Test func haloGrowsByTheRadiusWithAOnePixelRamp() {
        // One fully covered pixel in the middle of a 9 x 9 mask, grown by 1.6 px.
        var c = [UInt8](repeating: 0, count: 81)
        c[4 * 9 + 4] = 255
        let h = AlphaMask.dilated(c, width: 9, height: 9, radius: 1.6)
        #expect(h[4 * 9 + 4] == 255)
        #expect(h[4 * 9 + 5] == 255)                 // 1 px away: 1.6 + 1 - 1 >= 1
        #expect(h[4 * 9 + 6] == 153)                 // 2 px away: 1.6 + 1 - 2 = 0.6
        #expect(h[4 * 9 + 7] == 0)                   // 3 px away: beyond the ramp
        #expect(h[5 * 9 + 5] == 255)                 // sqrt 2 away: 1.19
        #expect(h[6 * 9 + 6] == 0)                   // 2 sqrt 2 away: 1.6 + 1 - 2.83 < 0
        // A half-covered pixel counts its edge half a pixel nearer.
        var e = [UInt8](repeating: 0, count: 81)
        e[4 * 9 + 4] = 128
        let g = AlphaMask.dilated(e, width: 9, height: 9, radius: 1.6)
        #expect(g[4 * 9 + 6] == 26)                  // 1.6 + 0.5 - 2 = 0.1
        // No radius: the coverage itself.
        #expect(AlphaMask.dilated(c, width: 9, height: 9, radius: 0) == c)
    }

    @Test func haloAndTextInOnePassEqualTwoPasses() {
        let w = 23, h = 7
        let under = (0..<(w * h)).map { UInt8(($0 * 37) % 256) }
        var overBytes = (0..<(w * h)).map { UInt8(($0 * 91 + 13) % 256) }
        for i in stride(from: 0, to: overBytes.count, by: 3) { overBytes[i] = 0 }      // gaps to skip
        let u = AlphaMask(width: w, height: h, alpha: under), o = AlphaMask(width: w, height: h, alpha: overBytes)
        let uc = RGBA8(11, 16, 22, 230).premultiplied, oc = RGBA8(230, 236, 244).premultiplied
        func canvas() -> Pixmap {
            // A different translucent colour at every pixel.
            let pm = Pixmap(width: 40, height: 12)
            for i in 0..<(40 * 12) { pm.pixels[i] = RGBA8(UInt8(i * 7 % 256), UInt8(i * 13 % 256), UInt8(i * 29 % 256), UInt8(100 + i % 156)).premultiplied.packed }
            return pm
        }
        let one = canvas(), two = canvas()
        AlphaMask.composite(u, uc, o, oc, onto: one, x: -3, y: 2, rows: 0..<12)
        u.composite(uc, onto: two, x: -3, y: 2, rows: 0..<12)
        o.composite(oc, onto: two, x: -3, y: 2, rows: 0..<12)
        for y in 0..<12 { for x in 0..<40 { #expect(one.color(atX: x, y: y) == two.color(atX: x, y: y), "(\(x), \(y))") } }
    }

    /// The sprite (halo and text composited together once) draws what the two masks draw, to
    /// within the rounding of one 8-bit blend, and only inside its rows' spans and the clip.
    @Test func spriteDrawsWhatTheTwoMasksDraw() {
        let w = 23, h = 7
        var under = (0..<(w * h)).map { UInt8(($0 * 37) % 256) }
        for x in 0..<w { under[x] = 0; under[3 * w + x] = 0 }                             // empty rows
        var overBytes = (0..<(w * h)).map { UInt8(($0 * 91 + 13) % 256) }
        for i in stride(from: 0, to: overBytes.count, by: 3) { overBytes[i] = 0 }
        for x in 0..<w { overBytes[x] = 0; overBytes[3 * w + x] = 0 }
        for y in 0..<h { for x in 17..<w { under[y * w + x] = 0; overBytes[y * w + x] = 0 } }  // clear right side
        let u = AlphaMask(width: w, height: h, alpha: under), o = AlphaMask(width: w, height: h, alpha: overBytes)
        let uc = RGBA8(11, 16, 22, 230).premultiplied, oc = RGBA8(230, 236, 244).premultiplied
        let sprite = MaskSprite(under: u, uc, over: o, oc)
        #expect(sprite.underColor == uc.packed && sprite.overColor == oc.packed)
        let background = RGBA8(40, 80, 120).premultiplied
        func canvas() -> Pixmap {
            let pm = Pixmap(width: 40, height: 12)
            pm.clear(background)
            return pm
        }
        let one = canvas(), two = canvas()
        sprite.composite(onto: one, x: -3, y: 2, rows: 0..<8)                           // rows 8... clipped
        AlphaMask.composite(u, uc, o, oc, onto: two, x: -3, y: 2, rows: 0..<8)
        var worst = 0
        for y in 0..<12 {
            for x in 0..<40 {
                let a = one.color(atX: x, y: y), b = two.color(atX: x, y: y)
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                // Outside the sprite's covered pixels and the clip, nothing changes.
                if y < 3 || y == 5 || y >= 8 || x >= 14 { #expect(a == background.unpremultiplied, "(\(x), \(y))") }
            }
        }
        #expect(worst <= 2, "largest difference \(worst) levels")
        // Something was drawn.
        #expect(one.color(atX: 5, y: 4) != background.unpremultiplied)
    }
}

/// Compositing a row four pixels at a time gives what the scalar loop gives, on valid
/// premultiplied pixels (clear, opaque and everything between) at every length and offset.
@Suite struct SpanOverTests {
    @Test func fourAtATimeEqualsOneAtATime() {
        var rng = SystemRandomNumberGenerator()
        func premultiplied() -> UInt32 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return 0
            case 1: return RGBA8(UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng)).premultiplied.packed
            default:
                return RGBA8(UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                             UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng)).premultiplied.packed
            }
        }
        var differing = 0
        for n in 0..<40 {
            let src = (0..<n).map { _ in premultiplied() }
            let dst = (0..<n).map { _ in premultiplied() }
            var a = dst, b = dst
            src.withUnsafeBufferPointer { s in
                a.withUnsafeMutableBufferPointer { SpanOver.over(s.baseAddress!, onto: $0.baseAddress!, count: n) }
                b.withUnsafeMutableBufferPointer { SpanOver.scalar(s.baseAddress!, $0.baseAddress!, n) }
            }
            for k in 0..<n where a[k] != b[k] || b[k] != (src[k] == 0 ? dst[k] : Blend.over(src[k], dst[k])) { differing += 1 }
        }
        #expect(differing == 0)
    }
}
