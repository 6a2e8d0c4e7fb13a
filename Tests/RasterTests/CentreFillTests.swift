import Raster
import Testing

/// Aliased fills: the pixels whose centres lie inside.
@Suite struct CentreFillTests {
    @Test func paintsExactlyThePixelsWhoseCentresAreInside() {
        // Pixel (9, 0) covered but for a small hole around its centre (96 %): left empty.
        let pm = Pixmap(width: 20, height: 4)
        let holed = [Point(9, 0), Point(10, 0), Point(10, 1), Point(9, 1),
                     Point(9.4, 0.4), Point(9.4, 0.6), Point(9.6, 0.6), Point(9.6, 0.4)]
        var fill = CentreFill()
        holed.withUnsafeBufferPointer { fill.fill($0, ends: [4, 8], color: RGBA8(255, 0, 0).premultiplied, onto: pm, rows: 0..<4) }
        #expect(pm.buffer.allSatisfy { $0 == 0 })
        // A sliver 0.2 px tall through row 2's centres: each pixel a fifth covered, all painted.
        let sliver = [Point(2.2, 2.4), Point(6.6, 2.4), Point(6.6, 2.6), Point(2.2, 2.6)]
        sliver.withUnsafeBufferPointer { fill.fill($0, ends: [4], color: RGBA8(255, 0, 0).premultiplied, onto: pm, rows: 0..<4) }
        #expect((0..<20).map { pm[$0, 2] != 0 } == (0..<20).map { (2...6).contains($0) })
        #expect((0..<20).allSatisfy { pm[$0, 1] == 0 && pm[$0, 3] == 0 })
    }

    @Test func holesStayEmptyUnderTheNonZeroRule() {
        let pm = Pixmap(width: 10, height: 10)
        let rings = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10),
                     Point(3, 3), Point(3, 7), Point(7, 7), Point(7, 3)]     // (the hole wound the other way)
        var fill = CentreFill()
        rings.withUnsafeBufferPointer { fill.fill($0, ends: [4, 8], color: RGBA8(0, 0, 255).premultiplied, onto: pm, rows: 0..<10) }
        #expect(pm[1, 1] != 0 && pm[5, 5] == 0 && pm[3, 3] == 0 && pm[2, 5] != 0 && pm[7, 5] != 0)
    }
}
