import Raster
import Testing

/// A repeated image: wrapped on both sides of the origin, texels copied as they are when the map
/// moves by whole pixels, bilinear across the wrap otherwise.
@Suite struct PatternBlitterTests {
    /// A 3 x 2 image of distinct opaque colours: texel (i, j) has red 10 i + 1 and green 10 j + 1.
    static func image() -> Pixmap {
        let pm = Pixmap(width: 3, height: 2)
        for j in 0..<2 { for i in 0..<3 { pm[i, j] = RGBA8(UInt8(10 * i + 1), UInt8(10 * j + 1), 0).premultiplied.packed } }
        return pm
    }

    func fill(_ toImage: Transform, opacity: Double = 1, alpha: UInt32 = 255) -> Pixmap {
        let dst = Pixmap(width: 8, height: 4)
        var b = PatternBlitter(destination: dst, image: Self.image(), toImage: toImage, opacity: opacity)
        for y in 0..<4 { b.blitSpan(x: 0, y: y, count: 8, alpha: alpha) }
        return dst
    }

    @Test func wholePixelMovesCopyTexelsAcrossTheWrap() {
        // Screen x maps to image x - 7 (negative: wrapped), y to y + 5.
        let pm = fill(.translation(-7, 5))
        for y in 0..<4 {
            for x in 0..<8 {
                let i = ((x - 7) % 3 + 3) % 3, j = (y + 5) % 2
                #expect(pm.color(atX: x, y: y) == RGBA8(UInt8(10 * i + 1), UInt8(10 * j + 1), 0), "\(x), \(y)")
            }
        }
    }

    @Test func halfPixelMovesMixNeighboursAcrossTheWrap() {
        // Half a texel right: pixel 2 samples between texel 2 and texel 0 (the wrap).
        let pm = fill(.translation(0.5, 0))
        #expect(pm.color(atX: 0, y: 0).r == 6)          // (1 + 11) / 2
        #expect(pm.color(atX: 2, y: 0).r == 11)         // (21 + 1) / 2
    }

    @Test func opacityAndCoverageScaleTheSample() {
        let pm = fill(.identity, opacity: 0.5, alpha: 128)
        #expect(abs(Int(PremultipliedColor(packed: pm[0, 0]).alpha) - 64) <= 1)
        #expect(fill(.identity, opacity: 0)[0, 0] == 0)
    }

    /// Maps far beyond any world, or not finite, still draw the image on every pixel, opaque:
    /// its texels, or two neighbours mixed, never nothing and never a trap.
    @Test func absurdMapsStillDrawTheImage() {
        func texel(_ i: Int, _ j: Int) -> RGBA8 { RGBA8(UInt8(10 * i + 1), UInt8(10 * j + 1), 0) }
        // 1e300 is a whole (and even) number: still a move by whole pixels, the texels copied in
        // the image's order from some column.
        let far = fill(.translation(1e300, -1e300))
        let phase = (0..<3).first { far.color(atX: 0, y: 0) == texel($0, 0) }
        #expect(phase != nil, "\(far.color(atX: 0, y: 0))")
        for y in 0..<4 { for x in 0..<8 { #expect(far.color(atX: x, y: y) == texel(((phase ?? 0) + x) % 3, y % 2), "\(x), \(y)") } }
        // A NaN scale makes every x NaN: read as the image's first column, unmixed.
        let nan = fill(Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        for y in 0..<4 { for x in 0..<8 { #expect(nan.color(atX: x, y: y) == texel(0, y % 2), "\(x), \(y)") } }
        // x shrunk to nothing (every pixel half a texel left of texel 0: texels 2 and 0 mixed),
        // y grown past any precision (whole, even numbers: row 0).
        let squashed = fill(Transform(a: 1e-300, b: 1e300, c: 0, d: 1, tx: 0, ty: 0))
        for y in 0..<4 { for x in 0..<8 { #expect(squashed.color(atX: x, y: y) == RGBA8(11, 1, 0), "\(x), \(y)") } }
    }
}
