import Foundation

/// The mesh of flat triangles MapLibre draws the globe's surface with: a grid of `cells` x `cells`
/// squares of normalised Mercator round the world (the rows past 85.05 degrees fanned to the
/// poles), each split along one diagonal. The layers' own tile meshes (`create_tile_mesh.ts`)
/// split from top right to bottom left; a terrain's (`terrain.ts` `getTerrainMesh`, 128 squares a
/// terrain tile) from top left to bottom right. Each triangle is flat: the GPU clips it at the
/// horizon where its depth, linear along its edges, says (`SphereProjection.meshEdgeSpans`),
/// and reads textures through it at a finite rate even where the sphere turns edge-on at the
/// rim (`SphereUnprojection.flatOnMesh`).
public struct SurfaceMesh: Sendable, Equatable {
    public enum Diagonal: Sendable { case rising, falling }
    public var cells: Int
    public var diagonal: Diagonal
    public init(cells: Int, diagonal: Diagonal) { self.cells = cells; self.diagonal = diagonal }

    /// A terrain's mesh at terrain tile zoom `z`.
    public static func terrain(tileZoom z: Int) -> SurfaceMesh {
        SurfaceMesh(cells: 128 << min(max(z, 0), 16), diagonal: .falling)
    }

    /// The mesh raster tiles `side` wide (normalised Mercator) are drawn on: max(128 / 2^z, 32)
    /// squares a tile edge at tile zoom z (MapLibre's "tile" subdivision granularity,
    /// `subdivision_granularity_settings.ts`).
    public static func rasterTiles(side: Double) -> SurfaceMesh {
        let tiles = max((1 / side).rounded(), 1)
        return SurfaceMesh(cells: Int(tiles * max((128 / tiles).rounded(.down), 32)), diagonal: .rising)
    }

    /// A square's corners 0 1 / 2 3 (top left, top right, bottom left, bottom right) as its two
    /// triangles: above and below the diagonal from top right to bottom left, or below and above
    /// the one from top left to bottom right.
    var trianglePair: ((Int, Int, Int), (Int, Int, Int)) { diagonal == .rising ? ((0, 2, 1), (1, 2, 3)) : ((0, 2, 3), (0, 3, 1)) }
    var triangles: [(Int, Int, Int)] { [trianglePair.0, trianglePair.1] }

    /// The corners (normalised Mercator, in the world copy of x) of the triangle holding point
    /// (x, y).
    @inline(__always)
    func triangle(atX x: Double, y: Double) -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) {
        let n = Double(cells)
        let fx = x * n, fy = y * n
        let i = fx.rounded(.down), j = fy.rounded(.down)
        let u = fx - i, v = fy - j
        func corner(_ k: Int) -> SIMD2<Double> { SIMD2((i + Double(k % 2)) / n, (j + Double(k / 2)) / n) }
        let t = (diagonal == .rising ? u + v <= 1 : v >= u) ? trianglePair.0 : trianglePair.1
        return (corner(t.0), corner(t.1), corner(t.2))
    }

    /// The unit vector of normalised Mercator (x, y): the square's top and bottom rows at
    /// ±85.05°, where the mesh's are (`SphereProjection.unit` takes them for the poles, as
    /// MapLibre's pole vertices do for fills and tiles).
    @inline(__always) public static func vector(_ x: Double, _ y: Double) -> SIMD3<Double> {
        let lng = (x - 0.5) * 2 * Double.pi
        let lat = atan(sinh(Double.pi * (1 - 2 * y)))
        let c = cos(lat)
        return SIMD3(sin(lng) * c, sin(lat), cos(lng) * c)
    }
}
