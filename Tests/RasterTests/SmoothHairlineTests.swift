import Raster
import Testing

/// The outline of a translucent fill: 2-pixel GPU lines under a distance ramp.
@Suite struct SmoothHairlineTests {
    private let white = RGBA8(255, 255, 255).premultiplied

    private func draw(_ points: [Point], ends: [Int], closed: [Bool], on pm: Pixmap, rows: Range<Int>? = nil) {
        points.withUnsafeBufferPointer {
            SmoothHairline.draw($0, ends: ends, closed: closed, color: white, onto: pm, rows: rows ?? 0..<pm.height)
        }
    }

    @Test func anXMajorSegmentCoversItsColumnsWithinOnePixelOfIt() {
        // y = 5: rows 4 and 5 (centres 0.5 away) at 1 - smoothstep(0.5) = 0.5; columns by centre in [2, 8).
        let pm = Pixmap(width: 12, height: 10)
        draw([Point(2, 5), Point(8, 5)], ends: [2], closed: [], on: pm)
        for x in 0..<12 {
            let inside = (2..<8).contains(x)
            #expect(pm.color(atX: x, y: 4).a == (inside ? 127 : 0), "column \(x)")
            #expect(pm.color(atX: x, y: 5).a == (inside ? 127 : 0), "column \(x)")
            #expect(pm.color(atX: x, y: 3).a == 0 && pm.color(atX: x, y: 6).a == 0)
        }
        // (Blend.scale: 255 * 128 / 256 = 127.) Through the centres of row 5 instead: that row whole, rows 4 and 6 (1 away) nothing.
        let centred = Pixmap(width: 12, height: 10)
        draw([Point(2, 5.5), Point(8, 5.5)], ends: [2], closed: [], on: centred)
        #expect(centred.color(atX: 4, y: 5).a == 255)
        #expect(centred.color(atX: 4, y: 4).a == 0 && centred.color(atX: 4, y: 6).a == 0)
    }

    @Test func aYMajorSegmentMeasuresAcrossTheRows() {
        // x = 3.25 from y = 1 to 7: columns 2 (0.75 away) and 3 (0.25 away), rows 1...6.
        let pm = Pixmap(width: 8, height: 10)
        draw([Point(3.25, 7), Point(3.25, 1)], ends: [2], closed: [], on: pm)
        let near = UInt8((1 - 0.25 * 0.25 * (3 - 0.5)) * 255 + 0.5), far = UInt8((1 - 0.75 * 0.75 * (3 - 1.5)) * 255 + 0.5)
        for y in 0..<10 {
            let inside = (1..<7).contains(y)
            #expect(abs(Int(pm.color(atX: 3, y: y).a) - Int(inside ? near : 0)) <= 1, "row \(y)")
            #expect(abs(Int(pm.color(atX: 2, y: y).a) - Int(inside ? far : 0)) <= 1, "row \(y)")
            #expect(pm.color(atX: 1, y: y).a == 0 && pm.color(atX: 4, y: y).a == 0)
        }
    }

    @Test func aRingsSidesShareNoColumnAlongALineAndBlendTwiceAtACorner() {
        let pm = Pixmap(width: 12, height: 12)
        let square = [Point(2, 2), Point(9, 2), Point(9, 9), Point(2, 9)]
        draw(square, ends: [4], closed: [true], on: pm)
        // A vertex along a straight side: its half-open sides draw what the whole side draws.
        let split = Pixmap(width: 12, height: 12)
        draw([Point(2, 2), Point(5.3, 2), Point(9, 2), Point(9, 9), Point(2, 9)], ends: [5], closed: [true], on: split)
        #expect(Array(split.buffer) == Array(pm.buffer))
        // At a corner, the top side (x-major) and the left one (y-major) both reach (2, 2), half a
        // pixel from each: it is blended twice, as a GPU's two line primitives blend there.
        #expect(pm.color(atX: 2, y: 2).a == 190 && pm.color(atX: 5, y: 2).a == 127 && pm.color(atX: 5, y: 5).a == 0)
        // Open: the closing side (2, 9) -> (2, 2) is not drawn.
        let open = Pixmap(width: 12, height: 12)
        draw(square, ends: [4], closed: [false], on: open)
        #expect(open.color(atX: 1, y: 5).a == 0 && pm.color(atX: 1, y: 5).a == 127)
        // Only the rows asked for.
        let band = Pixmap(width: 12, height: 12)
        draw(square, ends: [4], closed: [true], on: band, rows: 5..<12)
        #expect(band.color(atX: 5, y: 2).a == 0 && band.color(atX: 5, y: 8).a == 127 && band.color(atX: 2, y: 6).a == 127)
    }

    @Test func absurdCoordinatesDrawNothingAndDoNotTrap() {
        let pm = Pixmap(width: 8, height: 8)
        draw([Point(.nan, 1), Point(3, 3), Point(.infinity, 2), Point(-1e300, 4), Point(1e300, 4)], ends: [5], closed: [true], on: pm)
        // (Only the finite, on-screen -1e300 ... 1e300 segment at y = 4 draws: rows 3 and 4.)
        #expect(pm.color(atX: 0, y: 3).a == 127 && pm.color(atX: 7, y: 4).a == 127 && pm.color(atX: 0, y: 0).a == 0)
    }
}
