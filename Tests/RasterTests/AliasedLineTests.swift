import Foundation
import Testing
@testable import Raster

/// One-pixel lines by the GL diamond-exit rule (`AliasedLine`), as MapLibre's collision boxes.
@Suite struct AliasedLineTests {
    static func lit(_ pm: Pixmap) -> Set<[Int]> {
        var out = Set<[Int]>()
        for y in 0..<pm.height { for x in 0..<pm.width where pm.pixels[y * pm.width + x] != 0 { out.insert([x, y]) } }
        return out
    }

    @Test func aLevelSegmentLightsTheRowItCrossesUpToItsEnd() {
        let pm = Pixmap(width: 12, height: 8)
        let c = RGBA8(0, 0, 255, 64).premultiplied.packed
        AliasedLine.draw(from: Point(2.2, 3.3), to: Point(7.7, 3.3), color: c, into: pm, rows: 0..<8)
        // Row 3; pixel i when the segment leaves its diamond: 2.2 < i + 0.8 <= 7.7.
        #expect(Self.lit(pm) == Set((2...6).map { [$0, 3] }))
        #expect(pm.pixels[3 * 12 + 4] == c)
        // Drawn the other way, it leaves each diamond at its left corner: 2.2 <= i + 0.2 < 7.7.
        let back = Pixmap(width: 12, height: 8)
        AliasedLine.draw(from: Point(7.7, 3.3), to: Point(2.2, 3.3), color: c, into: back, rows: 0..<8)
        #expect(Self.lit(back) == Set((2...7).map { [$0, 3] }))
    }

    @Test func aBoxDrawnRoundCoversEachPixelOnce() {
        let pm = Pixmap(width: 16, height: 16)
        let c = RGBA8(0, 0, 255, 64).premultiplied.packed
        let corners = [Point(2.3, 3.4), Point(11.6, 3.4), Point(11.6, 9.7), Point(2.3, 9.7)]
        for k in 0..<4 { AliasedLine.draw(from: corners[k], to: corners[(k + 1) % 4], color: c, into: pm, rows: 0..<16) }
        let lit = Self.lit(pm)
        // Top 2...10 of row 3, right 3...8 of column 11, bottom 3...11 of row 9, left 4...9 of
        // column 2: each corner drawn by the segment leaving it.
        #expect(lit == Set((2...10).map { [$0, 3] } + (3...8).map { [11, $0] } + (3...11).map { [$0, 9] } + (4...9).map { [2, $0] }))
        // (Every lit pixel blended once: none darker than the line's colour.)
        #expect(lit.allSatisfy { pm.pixels[$0[1] * 16 + $0[0]] == c })
        // Rows outside the target's are left alone.
        let band = Pixmap(width: 16, height: 16)
        for k in 0..<4 { AliasedLine.draw(from: corners[k], to: corners[(k + 1) % 4], color: c, into: band, rows: 0..<5) }
        #expect(Self.lit(band).allSatisfy { $0[1] < 5 })
    }
}
