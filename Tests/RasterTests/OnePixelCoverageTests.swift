import Foundation
import Testing
@testable import Raster

/// `Rasterizer.onePixelCoverage` against filling the same rings with the rasterizer.
@Suite struct OnePixelCoverageTests {
    /// Random rings (and rings with holes) inside one pixel, in a band of a taller pixmap: the
    /// one pixel and its coverage are what the full fill paints, byte for byte.
    @Test func equalsTheFullFillInsideOnePixel() {
        var rng = SystemRandomNumberGenerator()
        let w = 16, h = 12, originY = 5
        var checked = 0, covered = 0
        for _ in 0..<4000 {
            let cx = Double(Int.random(in: 0..<w, using: &rng)), cy = Double(originY + Int.random(in: 0..<h, using: &rng))
            var points: [Point] = [], ends: [Int] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                for _ in 0..<Int.random(in: 3...9, using: &rng) {
                    points.append(Point(cx + Double.random(in: 0..<0.998, using: &rng), cy + Double.random(in: 0..<0.998, using: &rng)))
                }
                ends.append(points.count)
            }
            let one = points.withUnsafeBufferPointer { Rasterizer.onePixelCoverage($0, ends: ends, width: w, height: h, originY: originY) }
            guard let one else { Issue.record("a ring inside one pixel was not taken: \(points)"); continue }
            #expect(one.x == Int(cx) && one.y == Int(cy))
            // The full fill, over a pixmap of zeros: the alpha it paints with opaque white.
            let pm = Pixmap(width: w, height: originY + h)
            var r = Rasterizer(width: w, height: h)
            r.reset(width: w, height: h, originY: originY)
            var start = 0
            for end in ends {
                var prev = points[end - 1]
                for i in start..<end { r.addEdge(prev, points[i]); prev = points[i] }
                start = end
            }
            r.fill(pm, color: PremultipliedColor(packed: 0xFFFF_FFFF), rule: .nonZero)
            let quick = Pixmap(width: w, height: originY + h)
            if one.alpha > 0 {
                var b = SolidBlitter(pixmap: quick, color: PremultipliedColor(packed: 0xFFFF_FFFF))
                b.blitPixel(x: one.x, y: one.y, alpha: one.alpha)
                covered += 1
            }
            #expect(Array(UnsafeBufferPointer(start: pm.pixels, count: w * (originY + h)))
                    == Array(UnsafeBufferPointer(start: quick.pixels, count: w * (originY + h))), "\(points) \(ends)")
            checked += 1
        }
        #expect(checked == 4000 && covered > 2000)
    }

    /// Shapes across a pixel's side, outside the band or the device, or not finite are not taken.
    @Test func refusesShapesBeyondOnePixel() {
        func one(_ p: [Point]) -> Bool {
            p.withUnsafeBufferPointer { Rasterizer.onePixelCoverage($0, ends: [p.count], width: 10, height: 10, originY: 10) } != nil
        }
        #expect(one([Point(3.2, 13.2), Point(3.8, 13.3), Point(3.5, 13.9)]))
        #expect(!one([Point(3.2, 13.2), Point(4.1, 13.3), Point(3.5, 13.9)]))      // across x = 4
        #expect(!one([Point(3.2, 13.2), Point(3.8, 13.3), Point(3.5, 14.2)]))      // across y = 14
        #expect(!one([Point(3.2, 3.2), Point(3.8, 3.3), Point(3.5, 3.9)]))         // above the band
        #expect(!one([Point(-0.8, 13.2), Point(-0.2, 13.3), Point(-0.5, 13.9)]))   // left of the device
        #expect(!one([Point(9.2, 13.2), Point(9.9999, 13.3), Point(9.5, 13.9)]))   // rounds onto x = 10
        #expect(!one([Point(.nan, 13.2), Point(3.8, 13.3), Point(3.5, 13.9)]))
    }
}

/// `pixelIndex` (a ceiling by truncation) against `rounded(.up)` and its clamps.
@Suite struct PixelIndexTests {
    static func reference(_ v: Double) -> Int {
        let c = (v - 0.5).rounded(.up)
        return c >= -1e9 ? (c <= 1e9 ? Int(c) : 1_000_000_000) : (c.isNaN ? 0 : -1_000_000_000)
    }

    @Test func equalsTheCeilingWithItsClamps() {
        var values: [Double] = [0, 0.5, -0.5, 1, 1.5, -1.5, 2.4999999999999996, -0.0, 1e9, 1e9 + 0.5, 1e9 + 0.75, -1e9, -1e9 + 0.5,
                                -1e9 - 0.25, 1e300, -1e300, .infinity, -.infinity, .nan, .ulpOfOne, -.ulpOfOne, 0.5 + .ulpOfOne]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { values.append(Double.random(in: -3000...3000, using: &rng)) }
        for _ in 0..<2_000 { values.append(Double(Int.random(in: -3000...3000, using: &rng)) + 0.5) }
        for v in values { #expect(pixelIndex(v) == Self.reference(v), "\(v)") }
    }
}
