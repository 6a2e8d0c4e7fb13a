import Raster
import Testing

/// The pixelmatch 7.1 port: counts, the anti-aliasing exemption, the position-dependent
/// background for pixels that are not opaque, the threshold's boundary and the diff image.
@Suite struct PixelmatchTests {
    /// A width x height image of one straight RGBA colour.
    func image(_ width: Int, _ height: Int, _ c: [UInt8]) -> [UInt8] {
        (0..<(width * height)).flatMap { _ in c }
    }

    func set(_ img: inout [UInt8], _ width: Int, _ x: Int, _ y: Int, _ c: [UInt8]) {
        for k in 0..<4 { img[(y * width + x) * 4 + k] = c[k] }
    }

    func pixel(_ img: [UInt8], _ width: Int, _ x: Int, _ y: Int) -> [UInt8] {
        Array(img[((y * width + x) * 4)..<((y * width + x) * 4 + 4)])
    }

    @Test func identicalImagesDifferNowhere() throws {
        let a = image(16, 9, [100, 100, 100, 255])
        var out: [UInt8] = []
        #expect(try Pixelmatch.compare(a, a, width: 16, height: 9, options: .init(threshold: 0), output: &out) == 0)
        // The faded grey: 255 + (Y(100, 100, 100) - 255) * 0.1 = 239.5000000015, cut to 239.
        #expect(out == image(16, 9, [239, 239, 239, 255]))
        // diffMask leaves the output alone where nothing differs.
        var mask = [UInt8](repeating: 7, count: 16 * 9 * 4)
        #expect(try Pixelmatch.compare(a, a, width: 16, height: 9, options: .init(diffMask: true), output: &mask) == 0)
        #expect(mask.allSatisfy { $0 == 7 })
    }

    @Test func oneChangedPixelIsCounted() throws {
        let a = image(8, 8, [100, 100, 100, 255])
        var b = a
        set(&b, 8, 3, 5, [0, 0, 0, 255])
        var out: [UInt8] = []
        #expect(try Pixelmatch.compare(a, b, width: 8, height: 8, output: &out) == 1)
        #expect(pixel(out, 8, 3, 5) == [255, 0, 0, 255])
        #expect(pixel(out, 8, 0, 0) == [239, 239, 239, 255] && pixel(out, 8, 4, 5) == [239, 239, 239, 255])
        // The first image is the brighter one there: diffColorAlt when given.
        var alt: [UInt8] = []
        _ = try Pixelmatch.compare(a, b, width: 8, height: 8, options: .init(diffColorAlt: .init(0, 255, 0)), output: &alt)
        #expect(pixel(alt, 8, 3, 5) == [0, 255, 0, 255])
        var swapped: [UInt8] = []
        _ = try Pixelmatch.compare(b, a, width: 8, height: 8, options: .init(diffColorAlt: .init(0, 255, 0)), output: &swapped)
        #expect(pixel(swapped, 8, 3, 5) == [255, 0, 0, 255])
    }

    /// A black | white edge, and the same edge with a column of grey between them: the grey
    /// pixels have a darker and a brighter neighbour, each with many equal neighbours, so they
    /// are anti-aliasing and not counted (drawn yellow), unless `includeAA`.
    @Test func antiAliasedEdgeIsNotCounted() throws {
        var a = image(8, 8, [255, 255, 255, 255])
        for y in 0..<8 { for x in 0..<4 { set(&a, 8, x, y, [0, 0, 0, 255]) } }
        var b = a
        for y in 0..<8 { set(&b, 8, 4, y, [128, 128, 128, 255]) }
        var out: [UInt8] = []
        #expect(try Pixelmatch.compare(a, b, width: 8, height: 8, options: .init(threshold: 0.1285), output: &out) == 0)
        for y in 0..<8 { #expect(pixel(out, 8, 4, y) == [255, 255, 0, 255]) }
        #expect(try Pixelmatch.count(a, b, width: 8, height: 8, options: .init(threshold: 0.1285, includeAA: true)) == 8)
    }

    /// Since 7.0 a pixel that is not opaque is blended over 48 or 207 per channel, so transparent
    /// against opaque white differs (before, over white, it did not).
    @Test func transparentAgainstOpaqueIsCounted() throws {
        let clear = image(8, 8, [0, 0, 0, 0]), white = image(8, 8, [255, 255, 255, 255])
        #expect(try Pixelmatch.count(clear, white, width: 8, height: 8, options: .init(threshold: 0.1285)) == 64)
        // Fully transparent pixels whose colour differs are the same pixel.
        let tinted = image(8, 8, [10, 200, 30, 0])
        #expect(try Pixelmatch.count(clear, tinted, width: 8, height: 8, options: .init(threshold: 0)) == 0)
    }

    /// Transparent against opaque black, 2x1. Over the background of byte offset k (red 48,
    /// green 48 + 159 * (trunc(k / 1.618...) % 2), blue 48 + 159 * (trunc(k / 2.618...) % 2)):
    /// pixel 0 (k = 0) is (48, 48, 48), squared YIQ distance 0.5053 * (48 * 1.00000001)^2 + ...
    /// = 1164.211; pixel 1 (k = 4) is (48, 48, 207): Y 66.2028, I -51.1666, Q 49.4724, distance
    /// 3476.390. The thresholds where they stop counting: sqrt(d / 35215) = 0.18182 and 0.31420.
    @Test(arguments: [(0.18, 2), (0.1819, 1), (0.25, 1), (0.3141, 1), (0.3143, 0)])
    func backgroundDependsOnPosition(threshold: Double, expected: Int) throws {
        let clear = image(2, 1, [0, 0, 0, 0]), black = image(2, 1, [0, 0, 0, 255])
        #expect(try Pixelmatch.count(clear, black, width: 2, height: 1, options: .init(threshold: threshold)) == expected)
    }

    /// Opaque greys 100 and 100 + d: dY = d * 1.00000001, dI and dQ ~ 0, so the squared distance is
    /// 0.5053 * d^2: d = 33 gives 550.272, d = 34 gives 584.127; the render tests' threshold
    /// 0.1285 allows 35215 * 0.1285^2 = 581.479. For d = 10 (50.530) the boundary threshold is
    /// sqrt(50.530 / 35215) = 0.037880.
    @Test(arguments: [(33, 0.1285, 0), (34, 0.1285, 1), (10, 0.0378, 1), (10, 0.0379, 0), (1, 0, 1), (0, 0, 0)])
    func thresholdBoundary(d: Int, threshold: Double, expected: Int) throws {
        let a = image(1, 1, [100, 100, 100, 255]), b = image(1, 1, [UInt8(100 + d), UInt8(100 + d), UInt8(100 + d), 255])
        #expect(try Pixelmatch.count(a, b, width: 1, height: 1, options: .init(threshold: threshold)) == expected)
        // In a larger uniform image the single pixel is no anti-aliasing: the same answer.
        let big = image(5, 5, [100, 100, 100, 255])
        var big2 = big
        set(&big2, 5, 2, 2, b)
        #expect(try Pixelmatch.count(big, big2, width: 5, height: 5, options: .init(threshold: threshold)) == expected)
    }

    @Test func sizesMustAgree() {
        #expect(throws: Pixelmatch.SizeError.self) { try Pixelmatch.count([0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], width: 1, height: 1) }
        #expect(throws: Pixelmatch.SizeError.self) { try Pixelmatch.count([0, 0, 0, 0], [0, 0, 0, 0], width: 2, height: 1) }
        var out: [UInt8] = [0]
        #expect(throws: Pixelmatch.SizeError.self) {
            try Pixelmatch.compare([0, 0, 0, 0], [0, 0, 0, 0], width: 1, height: 1, output: &out)
        }
    }

    @Test func straightRGBAUnpremultipliesWithRounding() {
        let pm = Pixmap(width: 4, height: 1)
        pm[0, 0] = 0xFF10_2030                      // opaque: unchanged
        pm[1, 0] = 0x8040_2000                      // a 128: 64 * 255 / 128 = 127.5 -> 128, 32 -> 63.75 -> 64
        pm[2, 0] = 0x0301_0203                      // a 3: 1 -> 85, 2 -> 170, 3 -> 255
        pm[3, 0] = 0                                // transparent
        #expect(pm.straightRGBA() == [0x10, 0x20, 0x30, 255, 128, 64, 0, 128, 85, 170, 255, 3, 0, 0, 0, 0])
        // Every premultiplied colour of a straight one comes back to it within rounding.
        for a in [1, 7, 128, 254] as [UInt8] {
            for c in stride(from: 0, through: 255, by: 17) {
                pm[0, 0] = RGBA8(UInt8(c), 0, 0, a).premultiplied.packed
                let back = Int(pm.straightRGBA()[0])
                #expect(abs(back - c) <= Int((255 / Double(a) / 2).rounded(.up)), "a \(a) c \(c) -> \(back)")
            }
        }
    }
}
