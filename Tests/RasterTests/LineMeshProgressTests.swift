import Raster
import Testing

/// Progress and distance along the line kept per vertex for gradients (`tracksProgress`).
@Suite struct LineMeshProgressTests {
    @Test func sharpCornerVerticesGetTheProgressBetween() {
        var m = LineMesh()
        m.tracksProgress = true
        let points = [Point(0, 0), Point(100, 0), Point(100, 100)]
        let progress = [0.0, 0.5, 1.0]
        points.withUnsafeBufferPointer { p in
            progress.withUnsafeBufferPointer { q in
                m.add(p, closed: false, cap: .butt, join: .miter, miterLimit: 2, sharpCornerOffset: 15, progress: q, measuresAlong: true)
            }
        }
        #expect(m.progresses.count == m.vertices.count && m.alongs.count == m.vertices.count)
        func at(_ x: Double, _ y: Double) -> [(Double, Double)] {
            m.vertices.indices.filter { m.vertices[$0].x == x && m.vertices[$0].y == y }.map { (m.progresses[$0], m.alongs[$0]) }
        }
        // The extra vertices 15 px either side of the right-angled corner.
        #expect(at(85, 0).map(\.0) == [0.425, 0.425])
        #expect(at(85, 0).map(\.1) == [85, 85])
        #expect(at(100, 15).map(\.0) == [0.575, 0.575])
        #expect(at(100, 15).map(\.1) == [115, 115])
        #expect(at(0, 0).map(\.0) == [0, 0])
        #expect(at(100, 100).map(\.0) == [1, 1])
        #expect(at(100, 100).map(\.1) == [200, 200])
        // Without tracking nothing is kept.
        var plain = LineMesh()
        points.withUnsafeBufferPointer { plain.add($0, closed: false, cap: .butt, join: .miter, miterLimit: 2) }
        #expect(plain.progresses.isEmpty && !plain.vertices.isEmpty)
    }
}
