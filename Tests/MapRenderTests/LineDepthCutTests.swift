import MapCore
@testable import MapRender
import Raster
import Testing

/// Pitched lines are meshed only between the planes: runs are cut where their depth leaves the
/// range (`LineRenderLayer.cutRuns`), as a GPU clips triangles, so no vertex is projected from
/// behind the eye.
@Suite struct LineDepthCutTests {
    /// Depth 1000 - 2 y on the flat screen.
    static let ground = GroundProjection((600, 0, 0, 0, 600, 0, 0, -2, 1000), near: 12, far: 2000)

    func pieces(_ layer: LineRenderLayer) -> [[Point]] {
        var start = 0
        return layer.runEnds.map { end in defer { start = end }; return Array(layer.runPoints[start..<end]) }
    }

    @Test func aRunLeavingTheRangeEndsOnItsEdgeAndStartsAgainWhereItReturns() {
        let layer = LineRenderLayer()
        // From depth 800 (y 100) down past depth 100 (y 450) to y 480 and back up to y 200.
        layer.runPoints = [Point(0, 100), Point(0, 480), Point(100, 200)]
        layer.runEnds = [3]; layer.runOffsets = [0]
        layer.cutRuns(depth: Self.ground, from: 100, to: 900)
        let runs = pieces(layer)
        #expect(runs.count == 2)
        #expect(runs.first == [Point(0, 100), Point(0, 450)])
        // The second starts where the way back crosses y 450: a third of the way from (0, 480).
        let back = runs.count == 2 ? runs[1] : []
        #expect(back.count == 2 && abs((back.first?.y ?? 0) - 450) < 1e-9 && abs((back.first?.x ?? 0) - 100.0 * 30 / 280) < 1e-9)
        #expect(back.last == Point(100, 200))
        #expect(layer.runOffsets.count == 2 && layer.runClosed == [false, false])
    }

    @Test func aRunInsideIsLeftAsItIsAndOneOutsideIsDropped() {
        let layer = LineRenderLayer()
        layer.runPoints = [Point(0, 100), Point(50, 120), Point(60, 100), Point(0, 600), Point(10, 700)]
        layer.runEnds = [3, 5]; layer.runOffsets = [0, 0]; layer.runClosed = [true, false]
        layer.cutRuns(depth: Self.ground, from: 100, to: 900)
        // (The second lies beyond the eye: depth below 100 everywhere.)
        #expect(pieces(layer) == [[Point(0, 100), Point(50, 120), Point(60, 100)]])
        #expect(layer.runClosed == [true])
    }

    @Test func aClosedRingCutBecomesOpenPiecesThroughItsClosingEdge() {
        let layer = LineRenderLayer()
        // A square from y 400 to y 480 (depth 200 ... 40), cut at depth 100 (y 450).
        layer.runPoints = [Point(0, 400), Point(100, 400), Point(100, 480), Point(0, 480)]
        layer.runEnds = [4]; layer.runOffsets = [0]; layer.runClosed = [true]
        layer.cutRuns(depth: Self.ground, from: 100, to: 900)
        #expect(pieces(layer) == [[Point(0, 400), Point(100, 400), Point(100, 450)], [Point(0, 450), Point(0, 400)]])
        #expect(layer.runClosed == [false, false])
    }
}
