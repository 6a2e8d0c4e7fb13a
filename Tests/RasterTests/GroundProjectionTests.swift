import Testing
@testable import Raster

/// The ground of a pitched view: a homography with the near and far planes, and edges split
/// and clamped at them (see `GroundProjection`).
@Suite struct GroundProjectionTests {
    /// A view pitched about the x axis: depth rises up the flat screen (w = 1000 - 2 y for y
    /// up to 500), x and y scaled by 600 / w about (400, 300).
    static let ground = GroundProjection((600, 0, 0, 0, 600, 0, 0, -2, 1000), near: 12, far: 2000)

    @Test func homographyInverseUndoesIt() throws {
        let h = Homography(a: 1.2, b: 0.3, c: 5, d: -0.2, e: 0.9, f: -7, g: 0.001, h: -0.002, i: 1)
        let inverse = try #require(h.inverted())
        for (x, y) in [(0.0, 0.0), (120.5, -40), (-300, 220)] {
            let p = inverse.apply(h.apply(x, y).x, h.apply(x, y).y)
            #expect(abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9)
        }
        #expect(Homography(a: 1, b: 2, c: 3, d: 2, e: 4, f: 6, g: 0, h: 0, i: 1).inverted() == nil)
    }

    @Test func anEdgeWithinTheSlabIsOneProjectedEdge() {
        let g = Self.ground
        let p = g.project(Point(100, 100), Point(300, 200))
        #expect(p.count == 1)
        #expect(p.points.0 == g.apply(100, 100) && p.points.1 == g.apply(300, 200))
    }

    @Test func theEdgeBeyondTheNearPlaneLiesOnIt() {
        // Depth 1000 - 2 y: the near plane (w = 12) is y = 494; the edge runs from y = 300 to 600.
        let g = Self.ground
        let p = g.project(Point(100, 300), Point(100, 600))
        #expect(p.count == 2)
        #expect(p.points.0 == g.apply(100, 300))
        // The first piece ends where the second starts, on the near plane.
        #expect(abs(p.points.1.x - p.points.2.x) < 1e-9 && abs(p.points.1.y - p.points.2.y) < 1e-9)
        let nearRow = 600 * 494 / 12.0           // y' = 600 y / w on the near plane
        #expect(abs(p.points.1.y - nearRow) < 1e-6)
        // The part beyond is moved onto the plane: it has no height on screen.
        #expect(abs(p.points.3.y - nearRow) < 1e-6)
    }

    @Test func anEdgeCrossingBothPlanesIsThreePieces() {
        // Far plane at w = 900: y = 50.
        let g = GroundProjection(Self.ground.m, near: 12, far: 900)
        let p = g.project(Point(10, -100), Point(30, 700))
        #expect(p.count == 3)
        let farRow = 600 * 50 / 900.0
        #expect(abs(p.points.0.y - farRow) < 1e-6 && abs(p.points.1.y - farRow) < 1e-6)
        #expect(abs(p.points.4.y - p.points.5.y) < 1e-6)
    }

    @Test func aProjectedSquareFillsItsTrapezoidAndStopsAtTheFarPlane() {
        // A square of the flat screen, projected: its far side is narrower; what lies beyond
        // the far plane (above flat y = 50) is not drawn.
        var r = Rasterizer(width: 800, height: 600)
        r.ground = GroundProjection(Self.ground.m, near: 12, far: 900)
        let square = [Point(-200, -400), Point(600, -400), Point(600, 400), Point(-200, 400)]
        square.withUnsafeBufferPointer { r.addPolygon($0) }
        let pm = Pixmap(width: 800, height: 600)
        r.fill(pm, color: PremultipliedColor(packed: 0xFFFF_FFFF))
        // Flat y = 400: w = 200, screen y = 1200 (off screen); flat y = 50: w = 900, screen y = 33.3.
        #expect(pm.color(atX: 100, y: 34).a == 255)
        #expect(pm.color(atX: 100, y: 32).a == 0)
        // Flat x = 600 at w = 600 (y = 200) is screen x 600; right of it nothing.
        #expect(pm.color(atX: 598, y: 200).a == 255 && pm.color(atX: 602, y: 200).a == 0)
        // Flat x = -200 is always left of the screen (negative), so the left edge is filled.
        #expect(pm.color(atX: 0, y: 300).a == 255)
    }
}
