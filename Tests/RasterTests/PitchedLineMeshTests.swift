import Raster
import Testing

/// Lines on the ground in perspective as the engines draw them: the mesh built on the flat
/// screen, its vertices projected, the edge fade kept about a screen pixel wide by MapLibre's
/// gamma scale.
@Suite struct PitchedLineMeshTests {
    /// Depth w = 2.5 - y / 200 on the flat screen, which maps to 300 + (y - 300) / w on screen
    /// (and x to 400 + (x - 400) / w): the ground magnified 2.2 times at flat y 410, shrunk to
    /// 0.4 at flat y 0, the horizon at row 100.
    static let ground = GroundProjection((1, -2, 600, 0, -0.5, 450, 0, -0.005, 2.5), near: 0.05, far: 50)
    static let width = 800, height = 640

    /// Alpha per pixel of a white line drawn as the mesh, projected.
    func meshed(_ points: [Point], width: Double, offset: Double = 0) -> [UInt32] {
        var m = LineMesh()
        points.withUnsafeBufferPointer { m.add($0, closed: false, cap: .butt, join: .miter, miterLimit: 2) }
        let pm = Pixmap(width: Self.width, height: Self.height)
        var scratch: [Double] = []
        m.draw(LineShading(width: width, offset: offset, color: PremultipliedColor(packed: 0xFFFF_FFFF)), onto: pm, rows: 0..<Self.height,
               ground: Self.ground, scratch: &scratch)
        return (0..<Self.width * Self.height).map { pm.pixels[$0] >> 24 }
    }

    @Test func theProjectedMeshShadesAsMapLibresLineShaderDoes() throws {
        // MapLibre's line shader on the ground: a pixel's alpha is (outset - d) / gamma, d its
        // ground point's flat distance from the line, outset the half-width and half a pixel
        // (flat: the extrusion is projected), gamma the flat length of the extrusion over its
        // screen length at the vertices, interpolated (the fade is about a screen pixel). Far
        // off, a line so looks thinner than its flat stroke, near the camera wider, as in MapLibre.
        let g = Self.ground
        let inverse = try #require(Homography(a: g.m.0, b: g.m.1, c: g.m.2, d: g.m.3, e: g.m.4, f: g.m.5, g: g.m.6, h: g.m.7, i: g.m.8).inverted())
        // Along the depth, across it far off, and slanted near the camera, also moved 4 pixels
        // to its right by `line-offset`.
        for (p0, p1, offset) in [(Point(340, 0), Point(460, 400), 0.0), (Point(0, 150), Point(800, 150), 0), (Point(100, 350), Point(700, 380), 0),
                                 (Point(100, 350), Point(700, 380), 4)] {
            let width = 3.0, outset = width / 2 + 0.5
            let a = meshed([p0, p1], width: width, offset: offset)
            let dx = p1.x - p0.x, dy = p1.y - p0.y, length = (dx * dx + dy * dy).squareRoot()
            let nx = -dy / length, ny = dx / length
            // (The line the offset makes: moved along the right-hand normal.)
            let p0 = Point(p0.x + offset * nx, p0.y + offset * ny), p1 = Point(p1.x + offset * nx, p1.y + offset * ny)
            var compared = 0, worst = 0.0, sum = 0.0
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    let q = inverse.apply(Double(x) + 0.5, Double(y) + 0.5)
                    guard g.depth(q.x, q.y) > 0 else { continue }
                    // (Away from the butt ends, which the engines leave aliased.)
                    let t = ((q.x - p0.x) * dx + (q.y - p0.y) * dy) / (length * length)
                    guard t > 0.05 && t < 0.95 else { continue }
                    let cx = p0.x + t * dx, cy = p0.y + t * dy
                    let signed = (q.x - cx) * nx + (q.y - cy) * ny, d = abs(signed)
                    guard d < outset + 4 else { continue }
                    // (The gamma scale at the quad's corners, interpolated in flat space: as a
                    // GPU interpolates a varying, correct for perspective.)
                    func gamma(_ p: Point, _ side: Double) -> Double {
                        let c = g.apply(p.x, p.y), e = g.apply(p.x + side * nx * outset, p.y + side * ny * outset)
                        return outset / ((e.x - c.x) * (e.x - c.x) + (e.y - c.y) * (e.y - c.y)).squareRoot()
                    }
                    let s = min(max((1 + signed / outset) / 2, 0), 1)
                    let g0 = gamma(p0, -1) + (gamma(p0, 1) - gamma(p0, -1)) * s, g1 = gamma(p1, -1) + (gamma(p1, 1) - gamma(p1, -1)) * s
                    let expected = min(max((outset - d) / (g0 + (g1 - g0) * t), 0), 1)
                    let error = abs(Double(a[y * Self.width + x]) / 255 - expected)
                    worst = max(worst, error); sum += error; compared += 1
                }
            }
            #expect(compared > 300)
            // (The mesh interpolates across a triangle in screen space, with the triangle's
            // mean gamma: levels apart on the edges.)
            #expect(worst < 0.2 && sum / Double(compared) < 0.02, "line \(p0) -> \(p1) offset \(offset): worst \(worst), mean \(sum / Double(compared))")
        }
    }
}
