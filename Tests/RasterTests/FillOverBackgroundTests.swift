import Foundation
import Raster
import Testing

/// A fill over a background in one pass writes what clearing to the background and then filling
/// writes, in every row of the rasterizer's band and nowhere else.
@Suite struct FillOverBackgroundTests {
    @Test(arguments: [FillRule.nonZero, .evenOdd], [0xFF1A_1F27 as UInt32, 0x8040_2010])
    func onePassEqualsClearThenFill(_ rule: FillRule, _ colour: UInt32) {
        var rng = SystemRandomNumberGenerator()
        let w = 173, h = 96
        let background = PremultipliedColor(packed: 0xFF0B_1016), color = PremultipliedColor(packed: colour)
        for band in [0..<h, 0..<40, 40..<96, 50..<51] {
            // Random polygons, some reaching past the edges, and an empty band between them.
            var polygons: [[Point]] = []
            for _ in 0..<6 {
                let cx = Double.random(in: -30...Double(w + 30), using: &rng), cy = Double.random(in: -30...Double(h + 30), using: &rng)
                polygons.append((0..<7).map { _ in Point(cx + Double.random(in: -60...60, using: &rng), cy + Double.random(in: -40...40, using: &rng)) })
            }
            func draw(onePass: Bool) -> Pixmap {
                let pm = Pixmap(width: w, height: h)
                pm.clear(PremultipliedColor(packed: 0x1234_5678))         // rows outside the band keep this
                var r = Rasterizer(width: w, height: h)
                r.reset(width: w, height: band.count, originY: band.lowerBound)
                for p in polygons { p.withUnsafeBufferPointer { r.addPolygon($0) } }
                if onePass {
                    r.fill(pm, color: color, over: background, rule: rule)
                } else {
                    pm.clear(background, rows: band)
                    r.fill(pm, color: color, rule: rule)
                }
                return pm
            }
            let a = draw(onePass: false), b = draw(onePass: true)
            let differing = (0..<a.count).filter { a.pixels[$0] != b.pixels[$0] }.count
            #expect(differing == 0, "band \(band): \(differing) pixels differ")
        }
        // No edges at all: the band is just the background.
        let pm = Pixmap(width: w, height: h)
        pm.clear(PremultipliedColor(packed: 0))
        var r = Rasterizer(width: w, height: h)
        r.fill(pm, color: color, over: background, rule: rule)
        #expect((0..<pm.count).allSatisfy { pm.pixels[$0] == background.packed })
    }
}
