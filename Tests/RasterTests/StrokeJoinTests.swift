import Foundation
import Raster
import Testing

/// Joins the reference images do not show: a line that turns back on itself.
@Suite struct StrokeJoinTests {
    func coverage(join: LineJoin) -> Pixmap {
        let pm = Pixmap(width: 40, height: 40)
        pm.clear(PremultipliedColor(packed: 0))
        var r = Rasterizer(width: 40, height: 40)
        var s = Stroker()
        // Up from (20, 35) to (20, 15), then straight back down to (20, 25): a 180-degree turn.
        s.stroke([Point(20, 35), Point(20, 15), Point(20, 25)], closed: false,
                 style: StrokeStyle(width: 10, join: join), into: &r)
        r.fill(pm, color: RGBA8(255, 255, 255).premultiplied)
        return pm
    }

    @Test func roundJoinAtAReversalIsAHalfDiscAhead() {
        let pm = coverage(join: .round)
        // The half disc of radius 5 above the turning point: full at 3 px above, nothing 6 px above.
        #expect(pm.color(atX: 19, y: 12).a == 255)
        #expect(pm.color(atX: 19, y: 8).a == 0)
        // Its edge is round: 4 px to the side at 3 px above lies outside the radius.
        #expect(pm.color(atX: 24, y: 11).a < 64)
        // Butt ends: nothing below the start.
        #expect(pm.color(atX: 19, y: 36).a == 0)
    }

    @Test func bevelJoinAtAReversalAddsNothingAhead() {
        let pm = coverage(join: .bevel)
        #expect(pm.color(atX: 19, y: 12).a == 0)
        #expect(pm.color(atX: 19, y: 16).a == 255)
    }
}

/// Casings (offset curves) at corners.
@Suite struct PolylineOffsetTests {
    @Test func sharpCornersSplitTheCasing() {
        var out: [Point] = [], ends: [Int] = []
        // A narrow V: the corner is far sharper than 2:1.
        let v = [Point(0, 100), Point(10, 0), Point(20, 100)]
        PolylineOffset.offset(v, by: 3, miterLimit: 2, splitSharp: true, into: &out, ends: &ends)
        #expect(ends == [2, 4])
        #expect(out.count == 4)
        // Without splitting, one piece, bevelled across the corner.
        PolylineOffset.offset(v, by: 3, miterLimit: 2, splitSharp: false, into: &out, ends: &ends)
        #expect(ends == [4])
        // A right angle (miter 1.41) keeps one piece with a mitred corner.
        PolylineOffset.offset([Point(0, 0), Point(10, 0), Point(10, 10)], by: 2, miterLimit: 2, splitSharp: true, into: &out, ends: &ends)
        #expect(ends == [3])
        #expect(abs(out[1].x - 12) < 1e-9 && abs(out[1].y - -2) < 1e-9 || abs(out[1].x - 8) < 1e-9 && abs(out[1].y - 2) < 1e-9)
    }
}
