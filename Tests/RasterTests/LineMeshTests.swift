import Raster
import Testing

/// Lines as the reference engines' triangles (`LineMesh`) and their shader (`LineShading`).
@Suite struct LineMeshTests {
    func mesh(_ points: [Point], closed: Bool = false, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 2) -> LineMesh {
        var m = LineMesh()
        points.withUnsafeBufferPointer { m.add($0, closed: closed, cap: cap, join: join, miterLimit: miterLimit) }
        return m
    }

    func draw(_ m: LineMesh, _ shading: LineShading, width: Int = 64, height: Int = 40) -> Pixmap {
        let pm = Pixmap(width: width, height: height)
        var scratch: [Double] = []
        m.draw(shading, onto: pm, rows: 0..<height, scratch: &scratch)
        return pm
    }

    @Test func aSegmentIsAQuadExtrudedBothWays() {
        let m = mesh([Point(10, 20), Point(50, 20)])
        #expect(m.vertices.count == 4)
        #expect(m.triangles.count == 6)
        // Eastward in y-down pixels the normal points down (+y); each pair has one vertex per side.
        #expect(m.vertices.map(\.ey) == [1, -1, 1, -1])
        #expect(m.vertices.map(\.ny) == [-1, 1, -1, 1])
        #expect(m.vertices.allSatisfy { $0.ex == 0 && $0.nx == 0 })
    }

    @Test func joinsFollowTheirLimits() {
        // A right angle: the miter is sqrt 2 long, within the default limit 2: one pair of vertices.
        let right = mesh([Point(10, 10), Point(30, 10), Point(30, 30)])
        #expect(right.vertices.count == 6)
        let corner = right.vertices[2]
        #expect(abs((corner.ex * corner.ex + corner.ey * corner.ey).squareRoot() - 2.0.squareRoot()) < 0.03)
        // With a limit of 1.2 it becomes a bevel: the previous segment closes and the next one
        // opens at the corner (2 + 2 vertices), the strip between them the bevel's triangle.
        let bevel = mesh([Point(10, 10), Point(30, 10), Point(30, 30)], miterLimit: 1.2)
        #expect(bevel.vertices.count == 8)
        // Round caps add a pair of round vertices (v_normal.x = 1) at each end.
        let round = mesh([Point(10, 10), Point(30, 10)], cap: .round)
        #expect(round.vertices.filter { $0.nx == 1 }.count == 4)
        // A U-turn's miter is infinitely long: flipped bevel, never a spike.
        let back = mesh([Point(10, 10), Point(30, 10), Point(10, 10.001)])
        #expect(back.vertices.allSatisfy { abs($0.ex) <= 2.1 && abs($0.ey) <= 2.1 })
    }

    @Test func theEdgeFadesOverOnePixelButButtEndsAreCut() {
        // 5 px wide along y = 20 from x = 10 to x = 50: the shader's alpha is
        // clamp(w / 2 + 0.5 - distance, 0, 1) across the line and nothing along it.
        let pm = draw(mesh([Point(10, 20), Point(50, 20)]), LineShading(width: 5, color: RGBA8(255, 255, 255).premultiplied))
        func r(_ x: Int, _ y: Int) -> Int { Int(pm.color(atX: x, y: y).r) }
        #expect(r(30, 19) == 255 && r(30, 20) == 255 && r(30, 18) == 255)
        // Centres 2.5 px out: alpha 0.5, premultiplied white at half alpha.
        #expect(abs(Int(pm[30, 17] >> 24) - 128) <= 1)
        #expect(abs(Int(pm[30, 22] >> 24) - 128) <= 1)
        #expect(pm[30, 16] == 0 && pm[30, 23] == 0)
        // The ends are the triangles' edges: the pixel whose centre is inside is solid, the next
        // one (centre outside) untouched, with no fade along the line.
        #expect(r(10, 20) == 255 && r(49, 20) == 255)
        #expect(pm[9, 20] == 0 && pm[50, 20] == 0)
    }

    @Test func translucentOverlapsBlendOncePerTriangle() {
        // Two crossing strokes of one line at half opacity: 0.75 where they cross.
        let m = mesh([Point(5, 20), Point(60, 20), Point(60, 5), Point(30, 5), Point(30, 38)])
        let pm = draw(m, LineShading(width: 6, color: RGBA8(255, 255, 255).premultiplied.scaled(by: 0.5)))
        #expect(abs(Int(pm[45, 20] >> 24) - 128) <= 2)
        #expect(abs(Int(pm[30, 20] >> 24) - 191) <= 3)
    }

    @Test func gapAndOffsetMoveTheCoverage() {
        // A gap of 6 and width 2: lines centred 4 px either side, fading over a pixel each way.
        let gap = draw(mesh([Point(5, 20), Point(60, 20)]), LineShading(width: 2, gapWidth: 6, color: RGBA8(255, 255, 255).premultiplied))
        let column = (14...26).map { Int(gap[30, $0] >> 24) }
        #expect(column[2] == 255 && column[6] == 0 && column[12] == 0)     // rows 16, 20 (the middle), 26
        #expect(gap[30, 15] >> 24 == 255 && gap[30, 24] >> 24 == 255)
        #expect(gap[30, 20] == 0)
        // An offset of 5 to the right (south, going east).
        let moved = draw(mesh([Point(5, 20), Point(60, 20)]), LineShading(width: 4, offset: 5, color: RGBA8(255, 255, 255).premultiplied))
        #expect(moved[30, 20] == 0 && moved[30, 25] >> 24 == 255 && moved[30, 30] == 0)
    }

    @Test func badPointsDrawNothingAndDoNotTrap() {
        let nan = Double.nan
        let m = mesh([Point(nan, 1), Point(1e300, -1e300), Point(5, 5)])
        _ = draw(m, LineShading(width: 3, color: RGBA8(255, 255, 255).premultiplied))
        let one = mesh([Point(5, 5), Point(5, 5)])
        #expect(one.triangles.isEmpty)
    }
}
