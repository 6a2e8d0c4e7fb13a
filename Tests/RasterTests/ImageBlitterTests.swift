import Foundation
import Raster
import Testing

/// Skipping an image's transparent runs draws exactly what visiting every pixel draws.
@Suite struct ImageBlitterTests {
    @Test(arguments: [ImageSampling.bilinear, .nearest])
    func runSkippingMatchesTheFullSweep(_ sampling: ImageSampling) {
        var rng = SystemRandomNumberGenerator()
        // A sparse image: scattered blobs and single pixels on a transparent ground.
        let image = Pixmap(width: 97, height: 61)
        for _ in 0..<60 {
            let cx = Int.random(in: 0..<97, using: &rng), cy = Int.random(in: 0..<61, using: &rng)
            let r = Int.random(in: 0...3, using: &rng)
            let c = RGBA8(UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 90, UInt8.random(in: 1...255, using: &rng)).premultiplied
            for y in max(0, cy - r)...min(60, cy + r) { for x in max(0, cx - r)...min(96, cx + r) { image[x, y] = c.packed } }
        }
        let w = 300, h = 200
        let top = 10, bottom = 190
        // Screen x 20.3 ... 280.7 maps onto the image width, rows 10 ... 190 onto its height.
        let columns = (0..<w).map { x in AxisSamples.make((Double(x) + 0.5 - 20.3) / 260.4, size: 97, sampling: sampling) }
        let rows = (top...bottom).map { y in AxisSamples.make((Double(y) + 0.5 - 10.2) / 179.5, size: 61, sampling: sampling) }
        func draw(skipping: Bool) -> Pixmap {
            let pm = Pixmap(width: w, height: h)
            pm.clear(RGBA8(20, 30, 40).premultiplied)
            var r = Rasterizer(width: w, height: h)
            var path = Path()
            path.addRect(Rect(minX: 20.3, minY: 10.2, maxX: 280.7, maxY: 189.7))
            path.replay(into: &r)
            columns.withUnsafeBufferPointer { cols in
                rows.withUnsafeBufferPointer { rs in
                    let b = SeparableImageBlitter(destination: pm, image: image, previous: nil, fade: 1, columns: cols.baseAddress!,
                                                  rows: rs.baseAddress!, firstRow: top, opacity: 0.8, light: (1, 0.9, 0.5), adjustment: nil)
                    if skipping {
                        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * (image.width + 1))
                        defer { scratch.deallocate() }
                        r.fill(pm, runSkippingImage: RunSkippingImageBlitter(b, runs: ImageRuns(image), width: image.width, scratch: scratch))
                    } else {
                        r.fill(pm, separableImage: b)
                    }
                }
            }
            return pm
        }
        let a = draw(skipping: false), b = draw(skipping: true)
        #expect(memcmp(a.pixels, b.pixels, a.count * 4) == 0)
        #expect((0..<a.count).contains { a.pixels[$0] != RGBA8(20, 30, 40).premultiplied.packed }, "nothing was drawn")
    }

    /// The separable blitter's samples are the bilinear blend of the two source columns and rows
    /// its tables name, channel by channel with the rounding of `ImageBlitter.lerp`, including
    /// clamped edges (where it loads a neighbour pair) and images one or two pixels wide.
    @Test(arguments: [(1, 3), (2, 2), (3, 5), (97, 61)], [ImageSampling.bilinear, .nearest])
    func separableSamplesAreTheBilinearBlendOfTheirTables(_ size: (Int, Int), _ sampling: ImageSampling) {
        var rng = SystemRandomNumberGenerator()
        let image = Pixmap(width: size.0, height: size.1)
        for i in 0..<image.count { image.pixels[i] = UInt32.random(in: 0...UInt32.max, using: &rng) }
        let w = 160, h = 90
        // From a little before the image to a little after it, both ways, so that edges clamp.
        let columns = (0..<w).map { x in AxisSamples.make((Double(x) + 0.5) / Double(w) * 1.3 - 0.15, size: size.0, sampling: sampling) }
        let rows = (0..<h).map { y in AxisSamples.make((Double(y) + 0.5) / Double(h) * 1.3 - 0.15, size: size.1, sampling: sampling) }
        let pm = Pixmap(width: w, height: h)
        pm.clear(PremultipliedColor(packed: 0))
        columns.withUnsafeBufferPointer { cols in
            rows.withUnsafeBufferPointer { rs in
                var b = SeparableImageBlitter(destination: pm, image: image, previous: nil, fade: 1, columns: cols.baseAddress!,
                                              rows: rs.baseAddress!, firstRow: 0, opacity: 1, light: (1, 1, 1), adjustment: nil)
                for y in 0..<h { b.blitSpan(x: 0, y: y, count: w, alpha: 255) }
            }
        }
        func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 { (a * (256 - w) + b * w + 128) >> 8 }
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let c = columns[x], r = rows[y]
                func p(_ i: Int32, _ j: Int32) -> UInt32 { image[Int(i), Int(j)] }
                var expected: UInt32 = 0
                for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                    func ch(_ v: UInt32) -> UInt32 { v >> shift & 255 }
                    let top = lerp(ch(p(c.i0, r.i0)), ch(p(c.i1, r.i0)), c.w)
                    let bottom = lerp(ch(p(c.i0, r.i1)), ch(p(c.i1, r.i1)), c.w)
                    expected |= lerp(top, bottom, r.w) << shift
                }
                if pm[x, y] != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) of \(w * h) pixels differ")
    }

    /// Every architecture blends alike: the SSE2 spelling equals the portable one, on random
    /// pixels and weights including both ends (0 and 256).
    @Test func pairBlendSpellingsAgree() {
        var rng = SystemRandomNumberGenerator()
        var differing = 0
        for i in 0..<20_000 {
            let top = UInt64.random(in: 0...UInt64.max, using: &rng), bottom = UInt64.random(in: 0...UInt64.max, using: &rng)
            let wx = i % 7 == 0 ? 256 : UInt32.random(in: 0...256, using: &rng), wy = i % 5 == 0 ? 0 : UInt32.random(in: 0...256, using: &rng)
            #if arch(x86_64)
            if PairBlend.sse2(top, bottom, wx: wx, wy: wy) != PairBlend.portable(top, bottom, wx: wx, wy: wy) { differing += 1 }
            #endif
            // Both ends give a pixel back: weight 0 the left one of the top pair, 256 the right one of the bottom pair.
            if i == 0 {
                #expect(PairBlend.blend(top, bottom, wx: 0, wy: 0) == UInt32(truncatingIfNeeded: top))
                #expect(PairBlend.blend(top, bottom, wx: 256, wy: 256) == UInt32(truncatingIfNeeded: bottom >> 32))
            }
        }
        #expect(differing == 0)
    }

    /// The warped blitter (images at a bearing) draws what the row-mapped one draws for the same
    /// mapping, clear samples skipped or not: a turned quad, s and t affine in screen x and y
    /// (computed in double rather than float precision: a bilinear weight may differ by 1/256).
    @Test(arguments: [ImageSampling.bilinear, .nearest])
    func warpedMatchesRowMapped(_ sampling: ImageSampling) {
        // A sparse image, the same every run: 25 scattered pixels on a transparent ground.
        let image = Pixmap(width: 41, height: 29)
        for k in 0..<25 {
            let x = (k * 17 + 3) % 41, y = (k * 11 + 5) % 29
            image[x, y] = RGBA8(UInt8(k * 37 % 256), 80, 200, UInt8(40 + k * 8)).premultiplied.packed
        }
        let w = 120, h = 90
        // (s, t) = A (x, y) + c: a quarter turn and a bit, scaled.
        let a = 0.006, b = 0.007, c = -0.2, d = -0.009, e = 0.008, f = 0.5
        let plane = ImageWarp.Plane(a: a, b: b, c: c, d: d, e: e, f: f)
        let warp = ImageWarp(inverse: .identity, first: plane, second: plane, tr: Point(0, 0), bl: Point(1, 1), firstSide: 1)
        let rowMaps = (0..<h).map { y -> ImageRowMap in
            let yc = Double(y) + 0.5
            return ImageRowMap(s0: Float(b * yc + c), ds: Float(a), t0: Float(e * yc + f), dt: Float(d),
                               s1: Float(b * yc + c), ds1: Float(a), t1: Float(e * yc + f), dt1: Float(d), split: .infinity)
        }
        func draw(warped: Bool) -> Pixmap {
            let pm = Pixmap(width: w, height: h)
            pm.clear(RGBA8(20, 30, 40).premultiplied)
            var r = Rasterizer(width: w, height: h)
            var path = Path()
            path.addRect(Rect(minX: 3.3, minY: 2.5, maxX: 117.2, maxY: 88.6))
            path.replay(into: &r)
            if warped {
                r.fill(pm, with: MappedImageBlitter(destination: pm, image: image, previous: nil, fade: 1, warp: warp,
                                                           sampling: sampling, opacity: 0.8, light: (1, 0.9, 0.5), adjustment: nil))
            } else {
                rowMaps.withUnsafeBufferPointer { rows in
                    r.fill(pm, with: ImageBlitter(destination: pm, image: image, previous: nil, fade: 1, rows: rows.baseAddress!,
                                                   firstRow: 0, sampling: sampling, opacity: 0.8, light: (1, 0.9, 0.5), adjustment: nil))
                }
            }
            return pm
        }
        let one = draw(warped: true), other = draw(warped: false)
        var differing = 0, worst = 0, drawn = 0
        for i in 0..<(w * h) {
            if one.pixels[i] != RGBA8(20, 30, 40).premultiplied.packed { drawn += 1 }
            guard one.pixels[i] != other.pixels[i] else { continue }
            differing += 1
            for shift in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int(one.pixels[i] >> UInt32(shift) & 255) - Int(other.pixels[i] >> UInt32(shift) & 255)))
            }
        }
        #expect(drawn > 100, "the image hardly shows (\(drawn) pixels)")
        #expect(differing <= 4 && worst <= 2, "\(differing) pixels differ, by up to \(worst)")
    }
}
