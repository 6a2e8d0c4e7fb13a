import Foundation
import MapCore
import Testing

/// Anchors along lines as MapLibre lays them out in a tile (`getAnchors`, `checkMaxAngle`,
/// `getCenterAnchor`), the tiled layout of a whole line, the same-text repeat distance and the
/// merging of touching lines. Positions are worked by hand in tile units (8192 across a tile).
@Suite struct LineAnchorsTests {
    typealias Line = [(x: Double, y: Double)]

    /// Anchors of a piece with the plain parameters of these tests: box scale 1, no text.
    func anchors(_ line: Line, spacing: Double = 1000, label: Double = 20, overscaling: Double = 1,
                 hasText: Bool = false, maxAngle: Double = 45) -> [LineAnchors.Anchor] {
        LineAnchors.anchors(line, spacing: spacing, maxAngle: maxAngle * .pi / 180, labelLength: label, boxScale: 1,
                            overscaling: overscaling, hasText: hasText)
    }
    func xs(_ a: [LineAnchors.Anchor]) -> [Double] { a.map(\.x) }

    // MARK: Spacing and the first anchor

    @Test func aLineStartingInTheTileBeginsHalfALabelAndTwoEmsIn() {
        // Offset (20 / 2 + 48) x 1 = 58, then every 1000 while the label's half (10) still fits.
        let a = anchors([(100, 100), (5100, 100)])
        #expect(xs(a) == [158, 1158, 2158, 3158, 4158])
        #expect(a.allSatisfy { $0.y == 100 && $0.angle == 0 && $0.segment == 0 })
    }

    @Test func aContinuedLineBeginsHalfASpacingIn() {
        // Its first point is on the tile's edge: offset 1000 / 2.
        #expect(xs(anchors([(0, 100), (5000, 100)])) == [500, 1500, 2500, 3500, 4500])
        // Any edge counts: the top one here.
        #expect(anchors([(100, 0), (100, 2000)]).map(\.y) == [500, 1500])
    }

    @Test func overscalingMultipliesTheOffsetModuloTheSpacing() {
        // Continued: (500 x 2) mod 1000 = 0; the anchor at 0 has no room for the label's first half.
        #expect(xs(anchors([(0, 100), (5000, 100)], overscaling: 2)) == [1000, 2000, 3000, 4000])
        // Not continued: 58 x 2 = 116, and 58 x 20 mod 1000 = 160.
        #expect(xs(anchors([(100, 100), (5100, 100)], overscaling: 2)) == [216, 1216, 2216, 3216, 4216])
        #expect(xs(anchors([(100, 100), (5100, 100)], overscaling: 20)) == [260, 1260, 2260, 3260, 4260])
    }

    @Test func aLongLabelWidensTheSpacing() {
        // Label 900: 1000 - 900 < 1000 / 4, so the spacing is 900 + 250 = 1150 and the offset
        // (450 + 48) mod 1150 = 498.
        #expect(xs(anchors([(100, 100), (5100, 100)], label: 900)) == [598, 1748, 2898, 4048])
    }

    @Test func onlyAnchorsInsideTheTileAreKept() {
        // The walk goes on along the whole line, but keeps only x in 0..<8192.
        #expect(xs(anchors([(100, 100), (20100, 100)])) == (0...8).map { 158 + 1000 * Double($0) })
        #expect(xs(anchors([(-5000, 100), (3000, 100)])) == [58, 1058, 2058])
    }

    // MARK: A label longer than the line

    @Test func aLabelThatMissesItsFirstPlaceIsTriedAtTheMiddle() {
        // Label 180 on a line of 200: the first anchor (at 138) would run 28 past the end; the
        // middle (100) leaves 10 on each side.
        #expect(xs(anchors([(100, 100), (300, 100)], label: 180)) == [200])
        // 210 fits nowhere.
        #expect(anchors([(100, 100), (300, 100)], label: 210).isEmpty)
        // A continued line gets no second try.
        #expect(anchors([(0, 100), (200, 100)], label: 180).isEmpty)
    }

    // MARK: Rounding

    @Test func anchorsAreRoundedToWholeUnits() {
        // Along a 3-4-5 line: 58 in is (134.8, 146.4), 1058 in is (734.8, 946.4).
        let a = anchors([(100, 100), (3100, 4100)])
        #expect(a.prefix(2).map { [$0.x, $0.y] } == [[135, 146], [735, 946]])
        #expect(a[0].angle == atan2(4000, 3000))
    }

    // MARK: text-max-angle

    /// A line along x for 100 then turning by `turn` degrees for 3000 more; label 100, so the
    /// first anchor (at 98) has the corner 2 ahead within its label.
    func bent(_ turn: Double) -> Line {
        let r = turn * .pi / 180
        return [(100, 100), (200, 100), (200 + 3000 * cos(r), 100 + 3000 * sin(r))]
    }

    @Test func aSharpCornerUnderTheLabelIsRefused() {
        // 90 degrees > 45: the anchor at 98 goes; those at 1098 and 2098 are on the straight part.
        let a = anchors(bent(90), label: 100, hasText: true)
        #expect(a.map { [$0.x, $0.y] } == [[200, 1098], [200, 2098]])
        #expect(a.allSatisfy { $0.segment == 1 && abs($0.angle - .pi / 2) < 1e-12 })
    }

    @Test func aGentleCornerIsAccepted() {
        let a = anchors(bent(30), label: 100, hasText: true)
        // 998 and 1998 along the second segment: (200 + 998 cos 30, 100 + 998 sin 30), ...
        #expect(a.map { [$0.x, $0.y] } == [[198, 100], [1064, 599], [1930, 1099]])
        #expect(a.map(\.segment) == [0, 1, 1])
    }

    @Test func withoutTextTheAngleIsNotChecked() {
        #expect(anchors(bent(90), label: 100, hasText: false).count == 3)
    }

    @Test func cornersOutsideTheWindowDoNotAddUp() {
        // Two 30-degree turns 100 apart, the anchor between them and a label of 120 over both:
        // each turn alone is under 45, together over it. With box scale 1 the window is
        // 3/5 x 24 = 14.4, so they never count together; with box scale 10 (window 144) they do,
        // and the label is refused.
        let r = 30 * Double.pi / 180
        let line: Line = [(100, 100), (600, 100), (600 + 100 * cos(r), 100 + 100 * sin(r)),
                          (600 + 100 * cos(r) + 500 * cos(2 * r), 100 + 100 * sin(r) + 500 * sin(2 * r))]
        let one = LineAnchors.centerAnchor(line, maxAngle: .pi / 4, labelLength: 120, boxScale: 1, hasText: true)
        let ten = LineAnchors.centerAnchor(line, maxAngle: .pi / 4, labelLength: 12, boxScale: 10, hasText: true)
        #expect(one != nil)
        #expect(ten == nil)
    }

    // MARK: line-center

    @Test func theCenterAnchorIsHalfWayAndRounded() {
        let a = LineAnchors.centerAnchor([(100, 100), (3100, 4100)], maxAngle: 1, labelLength: 10, boxScale: 1, hasText: true)
        // 2500 in: (100 + 1500, 100 + 2000).
        #expect(a.map { [$0.x, $0.y, Double($0.segment)] } == [1600, 2100, 0])
        // A right angle at the middle refuses text, not an icon.
        let corner: Line = [(100, 100), (1100, 100), (1100, 1100)]
        #expect(LineAnchors.centerAnchor(corner, maxAngle: .pi / 4, labelLength: 100, boxScale: 1, hasText: true) == nil)
        #expect(LineAnchors.centerAnchor(corner, maxAngle: .pi / 4, labelLength: 100, boxScale: 1, hasText: false) != nil)
    }

    // MARK: The tiled layout

    /// A line across the two top tiles of zoom 1 at y = 0.25 (4096 in the tiles' units), from
    /// x = 0.1 (1638) to 0.9 (14746, 6554 in the second tile), with points at 0.3 (4915) and just
    /// past it (also 4915 once rounded: its segment is merged away).
    let across = [0.1, 0.3, 0.300000001, 0.9].map { MercatorPoint(x: $0, y: 0.25) }

    func tiled(_ line: [MercatorPoint], center: Bool = false, textWidth: Double = 50, zoom: Int = 1) -> [TiledAnchor] {
        // tile pixel ratio 16: spacing 250 px = 4000; box scale 16 x 16 / 24, label 50 x that = 533.3.
        LineAnchors.tiled(line, zoom: zoom, overscaling: 1, placementCenter: center, spacing: 250, textWidth: textWidth,
                          iconWidth: 0, hasText: true, textMaxSize: 16, maxAngle: 45)
    }

    @Test func eachTileLaysOutItsOwnPiece() {
        let a = tiled(across)
        // First tile, not continued: offset (25 + 48) x 32 / 3 = 778.7 from 1638, then 4000 on.
        // Second tile, continued from its left edge: 2000 and 6000.
        #expect(a.map(\.tileX) == [2417, 6417, 2000, 6000])
        #expect(a.map(\.tile) == [TileID(z: 1, x: 0, y: 0)!, TileID(z: 1, x: 0, y: 0)!,
                                  TileID(z: 1, x: 1, y: 0)!, TileID(z: 1, x: 1, y: 0)!])
        #expect(a.map(\.point.x) == [2417, 6417, 10192, 14192].map { $0 / 16384 })
        #expect(a.allSatisfy { $0.point.y == 0.25 && $0.tileY == 4096 && $0.angle == 0 })
        // The same as each tile's piece laid out alone.
        func alone(_ piece: Line) -> [Double] {
            LineAnchors.anchors(piece, spacing: 4000, maxAngle: .pi / 4, labelLength: 50, boxScale: 32.0 / 3,
                                overscaling: 1, hasText: true).map(\.x)
        }
        #expect(alone([(1638, 4096), (4915, 4096), (8192, 4096)]) == [2417, 6417])
        #expect(alone([(0, 4096), (6554, 4096)]) == [2000, 6000])
    }

    @Test func segmentsCountInTheWholeLine() {
        // 2417 is before 0.3 (segment 0); the others after 0.300000001 (segment 2).
        #expect(tiled(across).map(\.segment) == [0, 2, 2, 2])
        // Each anchor lies on its segment.
        for a in tiled(across) {
            #expect(across[a.segment].x <= a.point.x && a.point.x <= across[a.segment + 1].x)
        }
    }

    @Test func nothingIsOutsideItsTile() {
        // A line running off the world and along a diagonal through many tiles of zoom 4.
        let line = [MercatorPoint(x: -0.5, y: 0.1), MercatorPoint(x: 0.2, y: 0.3), MercatorPoint(x: 0.9, y: 0.95),
                    MercatorPoint(x: 1.7, y: 0.2)]
        let a = tiled(line, textWidth: 10, zoom: 4)
        #expect(a.count > 10)
        for anchor in a {
            #expect((0..<8192).contains(anchor.tileX) && (0..<8192).contains(anchor.tileY))
            let t = anchor.tile
            #expect(Double(t.x) / 16 <= anchor.point.x && anchor.point.x < Double(t.x + 1) / 16)
            #expect(Double(t.y) / 16 <= anchor.point.y && anchor.point.y < Double(t.y + 1) / 16)
        }
    }

    @Test func aPieceLeavingAndReenteringATileIsCutInTwo() {
        // Across tile 0 into tile 1 and back into tile 0: tile 0 has two pieces, the second
        // continued from its right edge (offset 2000 from there, going left).
        let line = [(0.1, 0.25), (0.7, 0.25), (0.7, 0.3), (0.05, 0.3)].map { MercatorPoint(x: $0.0, y: $0.1) }
        let a = tiled(line).filter { $0.tile == TileID(z: 1, x: 0, y: 0)! && $0.segment == 2 }
        #expect(a.map(\.tileX) == [8192 - 2000, 8192 - 6000])
        #expect(a.allSatisfy { $0.tileY == 4915 && abs($0.angle) == .pi })
    }

    @Test func lineCenterTakesTheMiddleOfTheWholeLine() {
        // 1638 to 11469: the middle is 6553.5, rounded up to 6554, in the first tile.
        let a = tiled([MercatorPoint(x: 0.1, y: 0.25), MercatorPoint(x: 0.7, y: 0.25)], center: true)
        #expect(a.map(\.tileX) == [6554])
        #expect(a.map(\.tile) == [TileID(z: 1, x: 0, y: 0)!])
        // Half way along 0.1 ... 0.9 is x = 0.5, the second tile's left edge.
        let b = tiled([MercatorPoint(x: 0.1, y: 0.25), MercatorPoint(x: 0.5, y: 0.25), MercatorPoint(x: 0.9, y: 0.25)], center: true)
        #expect(b.map { [$0.tileX, Double($0.tile.x), Double($0.segment)] } == [[0, 1, 1]])
    }

    @Test func theWorkIsBounded() {
        // A line across every one of 2^20 columns, with a label that fits nowhere; then one
        // giving anchors in every tile; coordinates far out, and not numbers.
        let wide = [MercatorPoint(x: 0, y: 0.5), MercatorPoint(x: 1, y: 0.5)]
        let start = Date()
        #expect(tiled(wide, textWidth: 1e6, zoom: 20).isEmpty)
        #expect(tiled(wide, textWidth: 1, zoom: 20).count == LineAnchors.anchorLimit)
        #expect(tiled([MercatorPoint(x: -1e300, y: 0.5), MercatorPoint(x: 1e300, y: 0.6)], zoom: 30).isEmpty)
        _ = tiled([MercatorPoint(x: -1e300, y: -1e300), MercatorPoint(x: 1e300, y: 1e300)], zoom: 0)
        _ = tiled([MercatorPoint(x: 0.5, y: 0.5), MercatorPoint(x: 1e300, y: 0.5)], center: true, zoom: 0)
        #expect(tiled([MercatorPoint(x: .nan, y: 0.5), MercatorPoint(x: 0.5, y: 0.5)], zoom: 3).isEmpty)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    // MARK: The same-text repeat distance

    @Test func sameTextTooCloseInOneTileIsDropped() {
        let t = TileID(z: 3, x: 1, y: 2)!, u = TileID(z: 3, x: 2, y: 2)!
        var filter = RepeatFilter()
        func admit(_ x: Double, _ tile: TileID, _ text: String) -> Bool {
            filter.admit(x: x, y: 100, tile: tile, text: text, repeatDistance: 100)
        }
        #expect(admit(100, t, "A"))
        #expect(!admit(150, t, "A"))
        // 140 from the first kept one; the dropped one (90 away) does not count.
        #expect(admit(240, t, "A"))
        // Exactly the distance away is far enough.
        #expect(admit(340, t, "A"))
        // Other text, or another tile, is not compared.
        #expect(admit(150, t, "B"))
        #expect(admit(150, u, "A"))
        // Half of 250 px at 16 units a pixel.
        #expect(RepeatFilter.repeatDistance(spacing: 250, overscaling: 1) == 2000)
        #expect(RepeatFilter.repeatDistance(spacing: 250, overscaling: 2) == 1000)
    }

    // MARK: Merging lines

    func p(_ x: Double) -> MercatorPoint { MercatorPoint(x: x, y: 0.5) }

    @Test func touchingLinesWithTheSameTextAreJoined() {
        let after = MergeLines.merge([("A", [p(0), p(1)]), ("A", [p(1), p(2)])])
        #expect(after == [MergeLines.Merged(line: [p(0), p(1), p(2)], features: [0, 1], text: "A")])
        let before = MergeLines.merge([("A", [p(1), p(2)]), ("A", [p(0), p(1)])])
        #expect(before == [MergeLines.Merged(line: [p(0), p(1), p(2)], features: [1, 0], text: "A")])
        // A line between two others makes the three one.
        let three = MergeLines.merge([("A", [p(0), p(1)]), ("A", [p(2), p(3)]), ("A", [p(1), p(2)])])
        #expect(three == [MergeLines.Merged(line: [p(0), p(1), p(2), p(3)], features: [0, 2, 1], text: "A")])
    }

    @Test func otherLinesAreNotJoined() {
        // Other text, a line running the other way, no text, lines that do not touch.
        let cases: [[(text: String?, line: [MercatorPoint])]] = [
            [("A", [p(0), p(1)]), ("B", [p(1), p(2)])],
            [("A", [p(0), p(1)]), ("A", [p(2), p(1)])],
            [(nil, [p(0), p(1)]), (nil, [p(1), p(2)])],
            [("", [p(0), p(1)]), ("", [p(1), p(2)])],
            [("A", [p(0), p(1)]), ("A", [p(1.5), p(2)])],
        ]
        for features in cases {
            let merged = MergeLines.merge(features)
            #expect(merged.map(\.line) == features.map(\.line))
            #expect(merged.map(\.features) == [[0], [1]])
        }
    }
}
