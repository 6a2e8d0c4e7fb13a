import Foundation
@testable import MapRender
import Raster
import Testing

/// Line labels laid out glyph by glyph along their line on screen, as MapLibre's
/// `symbol/projection.ts` does every frame, and their collision circles.
@Suite struct LineLabelLayoutTests {
    /// Lays out `offsets` along `line` from `anchor` on segment `segment`.
    static func place(_ line: [Point], anchor: Point, segment: Int = 0, offsets: [Double], lineOffsetX: Double = 0, lineOffsetY: Double = 0,
                      keepUpright: Bool = true, rotateGlyphs: Bool = true, hasVertical: Bool = false, vertical: Bool = false) -> LineLabelLayout.Placed? {
        LineLabelLayout.place(vertex: { line[$0] }, count: line.count, anchor: anchor, segment: segment, offsets: offsets,
                              lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY, keepUpright: keepUpright, rotateGlyphs: rotateGlyphs,
                              hasVertical: hasVertical, vertical: vertical)
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    /// The same turn, whatever whole turns apart.
    static func sameAngle(_ a: Double, _ b: Double) -> Bool {
        let d = (a - b).truncatingRemainder(dividingBy: 2 * .pi)
        return abs(d) < 1e-9 || abs(abs(d) - 2 * .pi) < 1e-9
    }

    static func at(_ pose: GlyphPose, _ x: Double, _ y: Double, angle: Double) -> Bool {
        close(pose.x, x) && close(pose.y, y) && sameAngle(pose.angle, angle)
    }

    /// The same points, to rounding.
    static func samePath(_ a: [Point], _ b: [Point]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { close($0.x, $1.x) && close($0.y, $1.y) }
    }

    /// A point `distance` px from `origin` at `degrees` clockwise from +x on screen.
    static func along(_ origin: Point, _ degrees: Double, _ distance: Double) -> Point {
        let a = degrees * .pi / 180
        return Point(origin.x + cos(a) * distance, origin.y + sin(a) * distance)
    }

    /// Along a horizontal line each glyph sits at the anchor plus its offset, unturned, and the
    /// collision path runs from the first glyph to the last.
    @Test func straightHorizontalLine() throws {
        let placed = try #require(Self.place([Point(0, 100), Point(400, 100)], anchor: Point(200, 100), offsets: [-30, -10, 10, 30]))
        #expect(!placed.flipped && !placed.useVertical)
        #expect(placed.poses.count == 4)
        for (pose, x) in zip(placed.poses, [170.0, 190, 210, 230]) { #expect(Self.at(pose, x, 100, angle: 0)) }
        #expect(Self.samePath(placed.path, [Point(170, 100), Point(230, 100)]))
    }

    /// Along a line at 30 degrees the glyphs sit at the offsets' distances along it, turned 30 degrees.
    @Test func lineAtThirtyDegrees() throws {
        let start = Point(10, 20), end = Self.along(start, 30, 400), anchor = Self.along(start, 30, 200)
        let placed = try #require(Self.place([start, end], anchor: anchor, offsets: [-50, 0, 50]))
        #expect(!placed.flipped)
        for (pose, d) in zip(placed.poses, [-50.0, 0, 50]) {
            let p = Self.along(anchor, 30, d)
            #expect(Self.close(pose.x, p.x, 1e-9) && Self.close(pose.y, p.y, 1e-9) && Self.sameAngle(pose.angle, .pi / 6))
        }
    }

    /// A glyph past a corner lies on the next segment at the rest of its distance, turned with
    /// that segment; the collision path goes through the corner.
    @Test func aroundACorner() throws {
        let line = [Point(0, 0), Point(100, 0), Point(100, 100)]
        let placed = try #require(Self.place(line, anchor: Point(80, 0), offsets: [-10, 0, 10, 30]))
        #expect(Self.at(placed.poses[0], 70, 0, angle: 0))
        #expect(Self.at(placed.poses[1], 80, 0, angle: 0))
        #expect(Self.at(placed.poses[2], 90, 0, angle: 0))
        #expect(Self.at(placed.poses[3], 100, 10, angle: .pi / 2))
        #expect(Self.samePath(placed.path, [Point(70, 0), Point(100, 0), Point(100, 10)]))
    }

    /// Only the vertices the label walks over are asked for, on a line of thousands.
    @Test func asksOnlyForTheVerticesItWalksOver() throws {
        var asked = Set<Int>()
        let placed = LineLabelLayout.place(vertex: { i in asked.insert(i); return Point(Double(i) * 10, 0) }, count: 5000,
                                           anchor: Point(2505, 0), segment: 250, offsets: [-22, 0, 22], lineOffsetX: 0, lineOffsetY: 0,
                                           keepUpright: true, rotateGlyphs: true, hasVertical: false)
        #expect(Self.samePath(placed?.poses.map { Point($0.x, $0.y) } ?? [], [Point(2483, 0), Point(2505, 0), Point(2527, 0)]))
        #expect(asked == Set(248...253))
    }

    /// Keep-upright: a line going down steeply to the right (89 degrees) reads as it is; one going
    /// down to the left (91 degrees) is flipped: every glyph turned by π, the first glyph where
    /// the last was. Without keep-upright nothing flips.
    @Test func keepUprightAt89And91Degrees() throws {
        func label(_ degrees: Double, keepUpright: Bool = true) throws -> (LineLabelLayout.Placed, Point) {
            let start = Point(200, 0), anchor = Self.along(start, degrees, 150)
            let placed = try #require(Self.place([start, Self.along(start, degrees, 300)], anchor: anchor, offsets: [-40, 0, 40], keepUpright: keepUpright))
            return (placed, anchor)
        }
        let (down, a89) = try label(89)
        #expect(!down.flipped)
        for (pose, d) in zip(down.poses, [-40.0, 0, 40]) {
            let p = Self.along(a89, 89, d)
            #expect(Self.close(pose.x, p.x) && Self.close(pose.y, p.y) && Self.sameAngle(pose.angle, 89 * .pi / 180))
        }
        let (left, a91) = try label(91)
        #expect(left.flipped)
        for (pose, d) in zip(left.poses, [40.0, 0, -40]) {
            let p = Self.along(a91, 91, d)
            #expect(Self.close(pose.x, p.x) && Self.close(pose.y, p.y) && Self.sameAngle(pose.angle, 271 * .pi / 180))
        }
        let (unkept, _) = try label(91, keepUpright: false)
        #expect(!unkept.flipped)
        for (pose, d) in zip(unkept.poses, [-40.0, 0, 40]) {
            let p = Self.along(a91, 91, d)
            #expect(Self.close(pose.x, p.x) && Self.close(pose.y, p.y) && Self.sameAngle(pose.angle, 91 * .pi / 180))
        }
        // The collision path is the unflipped one either way.
        #expect(left.path == unkept.path)
    }

    /// A single glyph is flipped by the direction of its anchor's segment.
    @Test func singleGlyphFlipsByItsSegment() throws {
        let leftwards = try #require(Self.place([Point(100, 0), Point(0, 0)], anchor: Point(50, 0), offsets: [0]))
        #expect(leftwards.flipped)
        #expect(Self.at(leftwards.poses[0], 50, 0, angle: 0))
        let unkept = try #require(Self.place([Point(100, 0), Point(0, 0)], anchor: Point(50, 0), offsets: [0], keepUpright: false))
        #expect(!unkept.flipped && Self.at(unkept.poses[0], 50, 0, angle: .pi))
    }

    /// A steep label with a vertical shaping switches to it (rise over run); a vertical layout
    /// flips when its first glyph would be below its last; without a vertical shaping it stays.
    @Test func steepLabelsSwitchToTheirVerticalShaping() throws {
        let start = Point(200, 0)
        let steep = [start, Self.along(start, 60, 300)], anchor = Self.along(start, 60, 150)
        let switched = try #require(Self.place(steep, anchor: anchor, offsets: [-20, 20], hasVertical: true))
        #expect(switched.useVertical && switched.poses.isEmpty && switched.path.count == 2)
        let horizontalOnly = try #require(Self.place(steep, anchor: anchor, offsets: [-20, 20], hasVertical: false))
        #expect(!horizontalOnly.useVertical && horizontalOnly.poses.count == 2)
        let shallow = [start, Self.along(start, 40, 300)]
        let kept = try #require(Self.place(shallow, anchor: Self.along(start, 40, 150), offsets: [-20, 20], hasVertical: true))
        #expect(!kept.useVertical && !kept.flipped)
        // Going down, the vertical layout's first glyph is above its last: kept; going up, flipped.
        let down = try #require(Self.place(steep, anchor: anchor, offsets: [-20, 20], hasVertical: true, vertical: true))
        #expect(!down.useVertical && !down.flipped)
        let up = try #require(Self.place(steep.reversed(), anchor: anchor, offsets: [-20, 20], hasVertical: true, vertical: true))
        #expect(up.flipped)
    }

    /// A label longer than its line falls off and is hidden; so is one that must flip and does
    /// not fit flipped (an off-centre label near the line's start).
    @Test func labelsThatDoNotFitAreHidden() {
        #expect(Self.place([Point(0, 0), Point(50, 0)], anchor: Point(25, 0), offsets: [-30, 30]) == nil)
        #expect(Self.place([Point(0, 0), Point(50, 0)], anchor: Point(25, 0), offsets: [-20, 20]) != nil)
        // Leftwards: unflipped it fits (20 px back, 60 px on), flipped it would need 60 px back.
        let leftwards = [Point(100, 0), Point(0, 0)]
        #expect(Self.place(leftwards, anchor: Point(70, 0), offsets: [-20, 0, 60], keepUpright: false) != nil)
        #expect(Self.place(leftwards, anchor: Point(70, 0), offsets: [-20, 0, 60]) == nil)
    }

    /// `text-offset` y puts the glyphs on the offset polyline: each segment moved along its
    /// normal, the two meeting at their miter point, distances measured along it.
    @Test func textOffsetYFollowsTheOffsetPolyline() throws {
        let line = [Point(0, 0), Point(100, 0), Point(100, 100)]
        // Inside the corner: the offset lines y = 5 and x = 95 meet at (95, 5).
        let inside = try #require(Self.place(line, anchor: Point(80, 0), offsets: [-10, 0, 10, 30], lineOffsetY: 5))
        #expect(Self.at(inside.poses[0], 70, 5, angle: 0))
        #expect(Self.at(inside.poses[1], 80, 5, angle: 0))
        #expect(Self.at(inside.poses[2], 90, 5, angle: 0))
        #expect(Self.at(inside.poses[3], 95, 20, angle: .pi / 2))
        #expect(Self.samePath(inside.path, [Point(70, 5), Point(95, 5), Point(95, 20)]))
        // Outside the corner: y = −5 and x = 105 meet at (105, −5).
        let outside = try #require(Self.place(line, anchor: Point(80, 0), offsets: [-10, 30], lineOffsetY: -5))
        #expect(Self.at(outside.poses[0], 70, -5, angle: 0))
        #expect(Self.at(outside.poses[1], 105, 0, angle: .pi / 2))
    }

    /// `text-offset` x shifts every glyph along the line.
    @Test func textOffsetXShiftsAlongTheLine() throws {
        let placed = try #require(Self.place([Point(0, 100), Point(400, 100)], anchor: Point(200, 100), offsets: [-10, 10], lineOffsetX: 15))
        #expect(Self.at(placed.poses[0], 205, 100, angle: 0) && Self.at(placed.poses[1], 225, 100, angle: 0))
    }

    /// With viewport-glyph rotation the glyphs follow the line unturned.
    @Test func unrotatedGlyphsFollowTheLine() throws {
        let line = [Point(0, 0), Point(100, 0), Point(100, 100)]
        let placed = try #require(Self.place(line, anchor: Point(80, 0), offsets: [-10, 0, 10, 30], rotateGlyphs: false))
        #expect(placed.poses == [GlyphPose(x: 70, y: 0, angle: 0), GlyphPose(x: 80, y: 0, angle: 0),
                                 GlyphPose(x: 90, y: 0, angle: 0), GlyphPose(x: 100, y: 10, angle: 0)])
    }

    /// Circles along a straight path: a quarter radius in from each end, evenly spread, at most
    /// 2.5 radii apart.
    @Test func collisionCirclesAlongAStraightPath() {
        let circles = LineLabelLayout.collisionCircles(path: [Point(0, 50), Point(200, 50)], radius: 10, viewport: (400, 300), padding: 100)
        // 195 px between the padded ends, 25 px at most apart: ceil(7.8) + 1 circles.
        #expect(circles.count == 9)
        #expect(Self.close(circles.first!.x, 2.5) && Self.close(circles.last!.x, 197.5))
        for (a, b) in zip(circles, circles.dropFirst()) { #expect(Self.close(b.x - a.x, 24.375)) }
        #expect(circles.allSatisfy { $0.y == 50 && $0.r == 10 })
    }

    /// Only the part of the path inside the viewport grown by the padding gets circles.
    @Test func collisionCirclesClippedToThePaddedViewport() {
        let clipped = LineLabelLayout.collisionCircles(path: [Point(-300, 50), Point(200, 50)], radius: 10, viewport: (400, 300), padding: 100)
        // Cut at x = −100: 300 px, 295 between the padded ends: ceil(11.8) + 1 circles.
        #expect(clipped.count == 13)
        #expect(Self.close(clipped.first!.x, -97.5) && Self.close(clipped.last!.x, 197.5))
        let outside = LineLabelLayout.collisionCircles(path: [Point(-300, 50), Point(-150, 50)], radius: 10, viewport: (400, 300), padding: 100)
        #expect(outside.isEmpty)
        // Leaving and coming back makes two pieces, each with its own circles.
        let twice = LineLabelLayout.collisionCircles(path: [Point(0, 50), Point(0, -200), Point(50, -200), Point(50, 50)], radius: 10,
                                                     viewport: (400, 300), padding: 100)
        #expect(twice.count == 2 * (Int((145.0 / 25).rounded(.up)) + 1))
        #expect(twice.allSatisfy { $0.y >= -100 })
    }

    /// A path no longer than half a radius gets one circle, at its middle (the end padding is
    /// capped at half the path's length).
    @Test func oneCircleForAVeryShortPath() {
        let circles = LineLabelLayout.collisionCircles(path: [Point(10, 10), Point(13, 10)], radius: 10, viewport: (400, 300), padding: 100)
        #expect(circles.count == 1)
        #expect(Self.close(circles[0].x, 11.5) && circles[0].y == 10 && circles[0].r == 10)
    }
}
