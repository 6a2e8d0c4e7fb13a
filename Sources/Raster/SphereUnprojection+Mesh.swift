import Foundation

extension SphereUnprojection {
    /// The flat screen points where the lines of sight of pixel centre (x, y) and of the pixel
    /// centres one to the right and one down meet the plane of `mesh`'s triangle under (x, y):
    /// as a GPU's neighbouring fragments interpolate one triangle, past its edges too. Nil
    /// where the plane is edge-on to a line of sight.
    @inline(__always) public func flatOnMesh(_ x: Double, _ y: Double, _ mesh: SurfaceMesh) -> (Point, Point, Point)? {
        let m = Self.mercator(unit(x, y))
        // The triangle under the point, in world copy 0, and the copy it is in.
        let unwrap = m.x.rounded(.down)
        let (k0, k1, k2) = mesh.triangle(atX: m.x - unwrap, y: m.y)
        let p0 = SurfaceMesh.vector(k0.x, k0.y)
        let e1 = SurfaceMesh.vector(k1.x, k1.y) - p0
        let e2 = SurfaceMesh.vector(k2.x, k2.y) - p0
        let n = SIMD3(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
        let nn = (n * n).sum()
        guard nn > 0 else { return nil }
        // (The shift that puts the point in `wrapFrom`'s copy, for all three alike.)
        let shift = m.x < wrapFrom || m.x >= wrapFrom + 1 ? -(m.x - wrapFrom).rounded(.down) : 0
        // (q = w1 e1 + w2 e2: w1 = q . (e2 x n) / |n|^2, w2 = q . (n x e1) / |n|^2.)
        let c1 = SIMD3(e2.y * n.z - e2.z * n.y, e2.z * n.x - e2.x * n.z, e2.x * n.y - e2.y * n.x)
        let c2 = SIMD3(n.y * e1.z - n.z * e1.y, n.z * e1.x - n.x * e1.z, n.x * e1.y - n.y * e1.x)
        func meet(_ sx: Double, _ sy: Double) -> Point? {
            let (a, dir) = sight(sx, sy)
            let along = (n * dir).sum()
            guard abs(along) > 1e-12 else { return nil }
            let q = a + dir * ((n * (p0 - a)).sum() / along) - p0
            // The weights of the corners after the first.
            let w1 = (q * c1).sum() / nn, w2 = (q * c2).sum() / nn
            let k = k0 + (k1 - k0) * w1 + (k2 - k0) * w2
            return flat(mercator: (k.x + unwrap + shift, k.y))
        }
        guard let c = meet(x, y), let across = meet(x + 1, y), let down = meet(x, y + 1) else { return nil }
        return (c, across, down)
    }
}
