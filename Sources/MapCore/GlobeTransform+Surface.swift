import Foundation
import Raster

/// What drawing needs of the globe camera: the surface projection the rasterizer draws flat
/// geometry through, the subdivision grid, and the part of the map the seen side holds.
extension GlobeTransform {
    /// The flat screen (the Web Mercator view at pitch 0 with the same centre, zoom and bearing)
    /// to normalised Mercator: (ax, bx, tx, ay, by, ty) of x = ax fx + bx fy + tx, y = ay fx + by fy + ty.
    public var flatToMercator: (Double, Double, Double, Double, Double, Double) {
        let cs = cos(bearing), sn = sin(bearing), k = 1 / worldSize
        let m = WebMercator.project(center)
        let cx = m.x * worldSize, cy = m.y * worldSize
        return (cs * k, -sn * k, (cx - cs * width / 2 + sn * height / 2) * k,
                sn * k, cs * k, (cy - sn * width / 2 - cs * height / 2) * k)
    }

    /// MapLibre's subdivision cell for fills at tile zoom `z`, in normalised Mercator units: a
    /// tile's edge is cut into max(128 / 2^z, 2) cells (`subdivision_granularity_settings.ts`).
    public static func subdivisionStep(tileZoom z: Int) -> Double {
        let tiles = exp2(Double(max(z, 0)))
        let cells = max((128 / tiles).rounded(.down), 2)
        return 1 / (tiles * cells)
    }

    /// The surface projection for geometry on the flat screen; `mercator` the same camera's
    /// Web Mercator perspective, blended in by `1 - globeness`.
    /// `mesh`: the surface's mesh where not the layers' own (a terrain's).
    public func surface(mercator: PerspectiveTransform?, globeness: Double, mesh: SurfaceMesh? = nil) -> SphereProjection {
        let z = Int(max(0, (log2(worldSize / 512)).rounded(.down)))
        return SphereProjection(matrix: matrix, inverse: inverse ?? [], camera: camera, width: width, height: height, flatToMercator: flatToMercator,
                                horizon: horizonPlane, mercator: globeness < 1 ? mercator?.groundProjection : nil,
                                globeness: globeness, step: Self.subdivisionStep(tileZoom: z), surface: mesh)
    }

    /// The screen back onto the flat screen through the sphere (nil if the camera is singular).
    public var unprojection: SphereUnprojection? {
        inverse.flatMap { SphereUnprojection(inverse: $0, width: width, height: height, flatToMercator: flatToMercator) }
    }

    /// The box in normalised Mercator of the seen side, in world copy 0 (the sphere has one):
    /// the whole width when it crosses the antimeridian or holds a pole. Found from the horizon
    /// circle and the seen points of the screen's edges.
    public var seenMercatorBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let n = SIMD3(horizonPlane.x, horizonPlane.y, horizonPlane.z), d = -horizonPlane.w
        let rim = max(0, 1 - d * d).squareRoot()
        let seed: SIMD3<Double> = abs(n.y) < 0.9 ? SIMD3(0, 1, 0) : SIMD3(1, 0, 0)
        var u = seed - n * (seed * n).sum()
        u /= (u * u).sum().squareRoot()
        let v = SIMD3(n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x)
        var points: [LngLat] = []
        // The horizon circle where it is on screen, and the screen's edges where they show the sphere.
        for k in 0..<96 {
            let t = Double(k) / 96 * 2 * Double.pi
            let p = n * d + (u * cos(t) + v * sin(t)) * rim
            let s = project(p)
            if s.x >= -1 && s.x <= width + 1 && s.y >= -1 && s.y <= height + 1 { points.append(Self.lngLat(p)) }
        }
        for k in 0...16 {
            let f = Double(k) / 16
            for (x, y) in [(f * width, 0.0), (f * width, height), (0, f * height), (width, f * height)] {
                if let p = unproject(x: x, y: y) { points.append(p) }
            }
        }
        points.append(center)
        let centre = WebMercator.project(center)
        var minX = centre.x, maxX = centre.x, minY = centre.y, maxY = centre.y
        let north = isSeen(SIMD3(0, 1, 0)) && project(SIMD3(0, 1, 0)).y.isFinite && onScreen(project(SIMD3(0, 1, 0)))
        let south = isSeen(SIMD3(0, -1, 0)) && onScreen(project(SIMD3(0, -1, 0)))
        for p in points {
            let m = WebMercator.project(p)
            // (Longitudes unwrapped about the centre's.)
            let x = m.x - (m.x - centre.x).rounded()
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, m.y); maxY = max(maxY, m.y)
        }
        if north { minY = 0 }
        if south { maxY = 1 }
        if north || south || minX < 0 || maxX > 1 { minX = 0; maxX = 1 }
        return (minX, max(0, minY), maxX, min(1, maxY))
    }

    private func onScreen(_ s: (x: Double, y: Double, clip: SIMD4<Double>)) -> Bool {
        s.x >= 0 && s.x <= width && s.y >= 0 && s.y <= height
    }
}
