import Foundation

/// The triangles MapLibre draws a raster tile on the globe with (`create_tile_mesh.ts`): the
/// tile cut into `cells` x `cells` squares of normalised Mercator, each split along its diagonal
/// from top right to bottom left, every vertex put on the sphere. Each triangle is flat, so a
/// texture read through it changes at a finite rate even where the sphere turns edge-on at the
/// globe's rim; the GPU picks mipmap levels from that rate, and so does `MappedImageBlitter`.
public struct SphereMesh: Sendable, Equatable {
    /// The tile's top left corner, normalised Mercator.
    public let x0: Double, y0: Double
    /// The side of one square, normalised Mercator.
    public let cell: Double

    public init(x0: Double, y0: Double, cell: Double) {
        self.x0 = x0; self.y0 = y0; self.cell = cell
    }

    /// The mesh of the tile whose top left corner is (x0, y0) and side `side`, normalised
    /// Mercator: max(128 / 2^z, 32) squares an edge at tile zoom z (MapLibre's "tile"
    /// subdivision granularity, `subdivision_granularity_settings.ts`).
    public static func tile(x0: Double, y0: Double, side: Double) -> SphereMesh {
        let tiles = (1 / side).rounded()
        let cells = max((128 / max(tiles, 1)).rounded(.down), 32)
        return SphereMesh(x0: x0, y0: y0, cell: side / cells)
    }

    /// The unit vector of normalised Mercator (x, y).
    @inline(__always) static func vector(_ x: Double, _ y: Double) -> SIMD3<Double> {
        let lng = (x - 0.5) * 2 * Double.pi
        let lat = atan(sinh(Double.pi * (1 - 2 * y)))
        let c = cos(lat)
        return SIMD3(sin(lng) * c, sin(lat), cos(lng) * c)
    }
}

extension SphereUnprojection {
    /// The flat screen points where the lines of sight of pixel centre (x, y) and of the pixel
    /// centres one to the right and one down meet the plane of `mesh`'s triangle under (x, y):
    /// as a GPU's neighbouring fragments interpolate one triangle, past its edges too. Nil
    /// where the plane is edge-on to a line of sight.
    @inline(__always) public func flatOnMesh(_ x: Double, _ y: Double, _ mesh: SphereMesh) -> (Point, Point, Point)? {
        let m = Self.mercator(unit(x, y))
        // The square under the point (in the tile's world copy), and where in it.
        var dx = m.x - mesh.x0
        dx -= dx.rounded(.down)
        let fx = dx / mesh.cell, fy = (m.y - mesh.y0) / mesh.cell
        let i = fx.rounded(.down), j = fy.rounded(.down)
        let u = fx - i, v = fy - j
        // The triangle: above the diagonal (v0, v2, v1) or below it (v1, v2, v3).
        let left = mesh.x0 + i * mesh.cell, top = mesh.y0 + j * mesh.cell
        let corners: [(Double, Double)] = u + v <= 1
            ? [(left, top), (left, top + mesh.cell), (left + mesh.cell, top)]
            : [(left + mesh.cell, top), (left, top + mesh.cell), (left + mesh.cell, top + mesh.cell)]
        let p0 = SphereMesh.vector(corners[0].0, corners[0].1)
        let e1 = SphereMesh.vector(corners[1].0, corners[1].1) - p0
        let e2 = SphereMesh.vector(corners[2].0, corners[2].1) - p0
        let n = SIMD3(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
        let nn = (n * n).sum()
        guard nn > 0 else { return nil }
        // (The shift that puts the point in `wrapFrom`'s copy, for all three alike.)
        let shift = m.x < wrapFrom || m.x >= wrapFrom + 1 ? -(m.x - wrapFrom).rounded(.down) : 0
        let unwrap = m.x - mesh.x0 - dx
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
            let mx = corners[0].0 + (corners[1].0 - corners[0].0) * w1 + (corners[2].0 - corners[0].0) * w2
            let my = corners[0].1 + (corners[1].1 - corners[0].1) * w1 + (corners[2].1 - corners[0].1) * w2
            return flat(mercator: (mx + unwrap + shift, my))
        }
        guard let c = meet(x, y), let across = meet(x + 1, y), let down = meet(x, y + 1) else { return nil }
        return (c, across, down)
    }
}
