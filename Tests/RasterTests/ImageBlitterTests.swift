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
            defer { r.deallocate() }
            var path = Path()
            path.addRect(Rect(minX: 20.3, minY: 10.2, maxX: 280.7, maxY: 189.7))
            path.replay(into: &r)
            columns.withUnsafeBufferPointer { cols in
                rows.withUnsafeBufferPointer { rs in
                    let b = SeparableImageBlitter(destination: pm, image: image, previous: nil, fade: 1, columns: cols.baseAddress!,
                                                  rows: rs.baseAddress!, firstRow: top, opacity: 0.8, light: (1, 0.9, 0.5), adjustment: nil)
                    if skipping {
                        r.fill(pm, runSkippingImage: RunSkippingImageBlitter(b, runs: ImageRuns(image), width: image.width))
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
}
