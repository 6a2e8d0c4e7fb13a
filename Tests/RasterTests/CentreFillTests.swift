import Foundation
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

    @Test func manyPointedRingsMatchTheWindingAtEachCentre() {
        // Two overlapping jagged stars of 700 points (one wound each way), a band across the pixmap
        // and a ring beyond the rows drawn: each pixel painted exactly when the non-zero winding number at its centre is.
        func star(_ cx: Double, _ cy: Double, _ n: Int, clockwise: Bool) -> [Point] {
            (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * Double.pi * (clockwise ? 1 : -1)
                let wobble: Double = sin(Double(k) * 2.399) * cos(Double(k) * 0.7)
                let r = 9 + 7 * wobble
                return Point(cx + r * cos(a), cy + r * sin(a))
            }
        }
        // The third reaches past both sides of the pixmap.
        let rings = [star(20, 16, 700, clockwise: true), star(28, 20, 700, clockwise: false), [Point(-30, 25), Point(70, 27), Point(90, 33), Point(-50, 31)],
                     [Point(0, 40), Point(9, 40), Point(9, 60)]]
        let pts = rings.flatMap { $0 }
        var ends: [Int] = [], n = 0
        for r in rings { n += r.count; ends.append(n) }
        let pm = Pixmap(width: 48, height: 36)
        var fill = CentreFill()
        pts.withUnsafeBufferPointer { fill.fill($0, ends: ends, color: RGBA8(255, 255, 255).premultiplied, onto: pm, rows: 2..<34) }
        func winding(_ x: Double, _ y: Double) -> Int {
            var w = 0
            for r in rings {
                var a = r[r.count - 1]
                for b in r {
                    defer { a = b }
                    if a.y <= y && y < b.y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { w += 1 }
                    if b.y <= y && y < a.y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 { w -= 1 }
                }
            }
            return w
        }
        var painted = 0
        for y in 0..<36 {
            for x in 0..<48 {
                let inside = (2..<34).contains(y) && winding(Double(x) + 0.5, Double(y) + 0.5) != 0
                #expect((pm[x, y] != 0) == inside, "\(x), \(y)")
                if inside { painted += 1 }
            }
        }
        #expect(painted > 300)
    }
}
