import Foundation

/// A square laid on the globe about a point, as MapLibre draws circles lying on the map and
/// heatmap kernels there: a grid of vertices at extrusions (ex, ey) in -1...1 (MapLibre's
/// tessellation: -1, -3/7, 3/7, 1), each the centre turned by the extrusion times `angle` east
/// and south (by the tangents: `globeRotateVector`), two flat triangles per cell. Each pixel
/// inside takes the extrusion interpolated over its triangle as a GPU interpolates a varying
/// (correct for perspective); pixels where the triangle lies behind the horizon are left out.
public struct SphereQuad {
    /// The extrusions of the grid's lines, across and down.
    public static let levels: [Double] = [-1, -3.0 / 7, 3.0 / 7, 1]

    struct Vertex { let x: Double, y: Double, invW: Double, ex: Double, ey: Double, side: Double }
    private var vertices: [Vertex] = []
    /// The box of the vertices on screen.
    public private(set) var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    /// Nil when the square has no size, a corner cannot be projected, or the globe is
    /// blending into Mercator (`globeness` below 1: its vertices have no flat point).
    public init?(centre c: SIMD3<Double>, angle: Double, levels: [Double] = SphereQuad.levels, on sphere: SphereProjection) {
        guard angle > 0, angle < Double.pi / 4, levels.count >= 2, sphere.globeness >= 1 else { return nil }
        var east = SIMD3(c.z, 0, -c.x)
        let el = (east * east).sum().squareRoot()
        east = el > 1e-12 ? east / el : SIMD3(1, 0, 0)
        var south = SIMD3(east.y * c.z - east.z * c.y, east.z * c.x - east.x * c.z, east.x * c.y - east.y * c.x)
        south /= max((south * south).sum().squareRoot(), 1e-12)
        vertices.reserveCapacity(levels.count * levels.count)
        for ey in levels {
            for ex in levels {
                var v = c + east * tan(ex * angle) + south * tan(ey * angle)
                v /= (v * v).sum().squareRoot()
                let w = sphere.depth(v)
                let s = sphere.screen(v, flat: Point(0, 0))
                guard w > 0, s.x.isFinite, s.y.isFinite else { return nil }
                vertices.append(Vertex(x: s.x, y: s.y, invW: 1 / w, ex: ex, ey: ey, side: sphere.side(v)))
                minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
            }
        }
        n = levels.count
    }
    private var n = 0

    /// Calls `body(x, y, ex, ey)` for each pixel of rows `rows` and columns `columns` whose
    /// centre lies in the square (in the first of its triangles that holds it) on the seen side.
    /// With `scale` the pixels are cells of a coarser grid, each `scale` screen pixels wide and
    /// high (a cell's centre at (x + 0.5) scale.x, (y + 0.5) scale.y on screen).
    public func forEachPixel(rows: Range<Int>, columns: Range<Int>, scale: (x: Double, y: Double) = (1, 1),
                             _ body: (Int, Int, Double, Double) -> Void) {
        guard n >= 2, scale.x > 0, scale.y > 0 else { return }
        let y0 = max(rows.lowerBound, Int((minY / scale.y - 0.5).rounded(.down))), y1 = min(rows.upperBound, Int((maxY / scale.y + 0.5).rounded(.up)))
        let x0 = max(columns.lowerBound, Int((minX / scale.x - 0.5).rounded(.down))), x1 = min(columns.upperBound, Int((maxX / scale.x + 0.5).rounded(.up)))
        guard y0 < y1, x0 < x1 else { return }
        // Triangles as MapLibre's index order: (lower, upper + 1, lower + 1), (lower, upper, upper + 1).
        var triangles: [(Int, Int, Int)] = []
        triangles.reserveCapacity(2 * (n - 1) * (n - 1))
        for j in 0..<(n - 1) {
            for i in 0..<(n - 1) {
                let lower = j * n + i, upper = (j + 1) * n + i
                triangles.append((lower, upper + 1, lower + 1))
                triangles.append((lower, upper, upper + 1))
            }
        }
        vertices.withUnsafeBufferPointer { v in
            for y in y0..<y1 {
                let py = (Double(y) + 0.5) * scale.y
                for x in x0..<x1 {
                    let px = (Double(x) + 0.5) * scale.x
                    for (a, b, c) in triangles {
                        let A = v[a], B = v[b], C = v[c]
                        let det = (B.x - A.x) * (C.y - A.y) - (C.x - A.x) * (B.y - A.y)
                        guard det != 0 else { continue }
                        let l1 = ((px - A.x) * (C.y - A.y) - (C.x - A.x) * (py - A.y)) / det
                        let l2 = ((B.x - A.x) * (py - A.y) - (px - A.x) * (B.y - A.y)) / det
                        let l0 = 1 - l1 - l2
                        guard l0 >= 0, l1 >= 0, l2 >= 0 else { continue }
                        // Perspective-correct weights.
                        let w0 = l0 * A.invW, w1 = l1 * B.invW, w2 = l2 * C.invW
                        let k = 1 / (w0 + w1 + w2)
                        if (w0 * A.side + w1 * B.side + w2 * C.side) * k >= 0 {
                            body(x, y, (w0 * A.ex + w1 * B.ex + w2 * C.ex) * k, (w0 * A.ey + w1 * B.ey + w2 * C.ey) * k)
                        }
                        break
                    }
                }
            }
        }
    }
}
