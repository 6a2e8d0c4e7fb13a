import Foundation

/// The globe's edge as MapLibre's GPU cuts it (`_projection_globe.vertex.glsl`): each triangle of
/// the surface's mesh that crosses the horizon is clipped where its clip-space depth, interpolated
/// linearly along its edges, passes the far plane: clip w - z = (v . normal - offset) w. The seen
/// part's outline is then a polygon a hair inside the true circle (a quarter of a pixel at zoom
/// 0 with 128 squares round the world), and pixels are drawn where their centres fall inside it.
extension SphereProjection {
    /// For each screen row (its pixel centres' y), the x range inside the mesh's clipped
    /// outline, as (lo, hi); (nan, nan) where the row misses it.
    static func meshEdgeSpans(rows: Int, mesh: SurfaceMesh, normal: SIMD3<Double>, offset: Double,
                              across: (SIMD3<Double>, SIMD3<Double>), rim: Double,
                              rx: SIMD4<Double>, ry: SIMD4<Double>, rw: SIMD4<Double>) -> [SIMD2<Double>] {
        var spans = [SIMD2<Double>](repeating: SIMD2(.nan, .nan), count: max(rows, 0))
        let n = mesh.cells
        guard rows > 0, n > 0, rim > 1e-9 else { return spans }
        let step = 1 / Double(n)
        // A grid vertex: column i (wrapping), row j; rows above 0 and below n are the poles.
        // (Each column's and row's sines and cosines worked out once.)
        // (Columns 0 ... n + 1 and rows 0 ... n are asked for; nan: not worked out yet.)
        var columns = [SIMD2<Double>](repeating: SIMD2(.nan, .nan), count: n + 2)
        var rowsTrig = [SIMD2<Double>](repeating: SIMD2(.nan, .nan), count: n + 1)
        func vertex(_ i: Int, _ j: Int) -> SIMD3<Double> {
            if j < 0 { return SIMD3(0, 1, 0) }
            if j > n { return SIMD3(0, -1, 0) }
            var lngTrig = columns[i]
            if lngTrig.x.isNaN {
                let lng = (Double(i) * step - 0.5) * 2 * Double.pi
                lngTrig = SIMD2(sin(lng), cos(lng)); columns[i] = lngTrig
            }
            var latTrig = rowsTrig[j]
            if latTrig.x.isNaN {
                let lat = atan(sinh(Double.pi * (1 - 2 * Double(j) * step)))
                latTrig = SIMD2(sin(lat), cos(lat)); rowsTrig[j] = latTrig
            }
            return SIMD3(lngTrig.x * latTrig.y, latTrig.x, lngTrig.y * latTrig.y)
        }
        // The squares the horizon passes through, with their neighbours: sampled along the circle
        // half a square apart (a square spans 2 pi / n cos(latitude) radians of the sphere).
        var squares: [Int] = []
        let centre = normal * offset
        var t = 0.0
        while t < 2 * Double.pi {
            let p = centre + (across.0 * cos(t) + across.1 * sin(t)) * rim
            let m = SphereUnprojection.mercator(p)
            let i = Int((m.x / step).rounded(.down))
            let j = m.y < 0 ? -1 : m.y >= 1 ? n : min(Int((m.y / step).rounded(.down)), n - 1)
            for dj in -1...1 where j + dj >= -1 && j + dj <= n {
                for di in -1...1 { squares.append((j + dj + 1) * (n + 1) + ((i + di) % n + n) % n) }
            }
            let side = Double.pi / Double(n) * max(1 - p.y * p.y, 0.0075).squareRoot()
            t += side / rim
        }
        func homogeneous(_ v: SIMD3<Double>) -> SIMD3<Double> {
            let h = SIMD4(v, 1)
            return SIMD3((rx * h).sum(), (ry * h).sum(), (rw * h).sum())
        }
        func add(_ a: SIMD2<Double>, _ b: SIMD2<Double>) {
            let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
            guard bottom.y > top.y else { return }
            let r0 = max(0, Int((top.y - 0.5).rounded(.up))), r1 = min(rows - 1, Int((bottom.y - 0.5).rounded(.up)) - 1)
            guard r0 <= r1 else { return }
            for r in r0...r1 {
                let x = top.x + (bottom.x - top.x) * (Double(r) + 0.5 - top.y) / (bottom.y - top.y)
                let s = spans[r]
                spans[r] = s.x.isNaN ? SIMD2(x, x) : SIMD2(min(s.x, x), max(s.y, x))
            }
        }
        // Corners 0 1 / 2 3 (top left, top right, bottom left, bottom right) and the two triangles.
        let triangles = mesh.triangles
        var h = [SIMD3<Double>](repeating: .zero, count: 4), g = [Double](repeating: 0, count: 4)
        squares.sort()
        var last = -1
        for key in squares where key != last {
            last = key
            let j = key / (n + 1) - 1, i = key % (n + 1)
            for k in 0..<4 {
                let v = vertex(i + k % 2, j + k / 2)
                h[k] = homogeneous(v)
                g[k] = ((v * normal).sum() - offset) * h[k].z
            }
            // Each triangle that crosses the horizon: its cut, between the two edges whose ends
            // lie on either side, as the GPU interpolates clip coordinates along them.
            for tri in triangles {
                var cuts = (SIMD2<Double>(0, 0), SIMD2<Double>(0, 0)), count = 0
                for e in 0..<3 {
                    let a = e == 0 ? tri.0 : e == 1 ? tri.1 : tri.2, b = e == 0 ? tri.1 : e == 1 ? tri.2 : tri.0
                    guard (g[a] >= 0) != (g[b] >= 0) else { continue }
                    let q = h[a] + (h[b] - h[a]) * (g[a] / (g[a] - g[b]))
                    guard q.z > 0 else { continue }
                    if count == 0 { cuts.0 = SIMD2(q.x / q.z, q.y / q.z) } else { cuts.1 = SIMD2(q.x / q.z, q.y / q.z) }
                    count += 1
                }
                if count == 2 { add(cuts.0, cuts.1) }
            }
        }
        return spans
    }
}
