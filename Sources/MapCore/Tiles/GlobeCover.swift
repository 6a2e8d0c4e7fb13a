import Foundation
import Raster

/// The tiles a globe view needs, chosen as MapLibre GL JS chooses them for its globe
/// (`coveringTiles` over `GlobeCoveringTilesDetailsProvider`): a depth-first walk of the tile
/// tree from the one world (the sphere has no copies), keeping the tiles whose patch of the sphere
/// meets the camera's frustum on the side of the horizon it sees, and stopping at each tile's
/// wanted zoom. Past covering zoom 4 that zoom falls with the tile's distance from the point under
/// the camera (`DistanceZoom`), the distance taken across the antimeridian and over the poles,
/// so nearer tiles are finer: straight down at zoom 7.95 the middle tiles are zoom 8's.
///
/// A tile's patch is tested as MapLibre tests its convex volume, both ways: the patch (a grid of
/// its points, 5 x 5 from zoom 4 and denser below, the poles for the polar rows, a margin out for
/// the sphere's bulge between them) against each of the frustum's planes and the horizon's, and
/// the frustum's corners against each of the patch's bounding planes (up and down along the tile's middle,
/// north and south across it, its east and west meridians). Without the second a large tile
/// beside the view, its points outside different planes, would pass.
public struct GlobeCover: Sendable {
    /// The frustum's six planes and the horizon's, in the unit sphere's space (inside: >= 0).
    let planes: [SIMD4<Double>]
    let horizon: SIMD4<Double>
    /// The frustum's eight corners, in the unit sphere's space.
    let corners: [SIMD3<Double>]
    /// The camera over the map and the view's centre, normalised Web Mercator (MapLibre's
    /// `cameraMercatorCoordinate`: back from the centre by ctc / worldSize along the view).
    let cameraX: Double, cameraY: Double, centreX: Double, centreY: Double
    let byDistance: DistanceZoom

    public init(_ globe: GlobeTransform) {
        let m = globe.matrix
        func row(_ i: Int) -> SIMD4<Double> { SIMD4(m[4 * i], m[4 * i + 1], m[4 * i + 2], m[4 * i + 3]) }
        let w = row(3)
        planes = [w + row(0), w - row(0), w + row(1), w - row(1), w + row(2), w - row(2)].map { p in
            let n = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot()
            return n > 0 ? p / n : p
        }
        horizon = globe.horizonPlane
        var frustum: [SIMD3<Double>] = []
        if let inv = globe.inverse {
            for z in [-1.0, 1] { for y in [-1.0, 1] { for x in [-1.0, 1] {
                if let p = PerspectiveTransform.unprojected(inv, x, y, z) { frustum.append(p) }
            } } }
        }
        corners = frustum.count == 8 ? frustum : []
        let c = WebMercator.project(globe.center)
        centreX = c.x; centreY = c.y
        let d = globe.cameraToCenterDistance / globe.worldSize
        cameraX = c.x - d * sin(globe.pitch) * sin(globe.bearing)
        cameraY = c.y + d * sin(globe.pitch) * cos(globe.bearing)
        byDistance = DistanceZoom(cameraHeight: d * cos(globe.pitch), centreDistance: d,
                                  fieldOfView: globe.fieldOfView * 180 / Double.pi)
    }

    /// Whether tile (z, x, y)'s patch may show.
    func shows(_ z: Int, _ x: Int, _ y: Int) -> Bool {
        let n = Double(1 << z)
        guard z > 0 else { return true }
        func point(_ i: Double, _ j: Double) -> SIMD3<Double> { SurfaceMesh.vector((Double(x) + i) / n, (Double(y) + j) / n) }
        // (Denser for the large tiles of low zooms, so the margin stays small.)
        let k = max(4, 64 >> z)
        let north = y == 0, south = y == (1 << z) - 1
        let points = Self.patches.points(z, x, y) {
            var points: [SIMD3<Double>] = []
            points.reserveCapacity((k + 1) * (k + 1) + 2)
            for j in 0...k { for i in 0...k { points.append(point(Double(i) / Double(k), Double(j) / Double(k))) } }
            if north { points.append(SIMD3(0, 1, 0)) }
            if south { points.append(SIMD3(0, -1, 0)) }
            return points
        }
        // The bulge between neighbouring points, at most the angle between them.
        let margin = 1 - cos(2 * Double.pi / n / Double(k))
        for plane in planes {
            let normal = SIMD3(plane.x, plane.y, plane.z)
            if points.allSatisfy({ ($0 * normal).sum() + plane.w < -margin }) { return false }
        }
        if horizonHides(points, margin: margin) { return false }
        guard corners.count == 8 else { return true }
        // The patch's bounding planes (inside: n . p + d >= 0), the frustum's corners against them.
        let middle = point(0.5, 0.5)
        var east = SIMD3(middle.z, 0, -middle.x)
        east /= max((east * east).sum().squareRoot(), 1e-12)
        let up = SIMD3(middle.y * east.z - middle.z * east.y, middle.z * east.x - middle.x * east.z, middle.x * east.y - middle.y * east.x)
        func range(_ axis: SIMD3<Double>) -> (Double, Double) {
            var lo = Double.infinity, hi = -Double.infinity
            for p in points { let d = (p * axis).sum(); lo = min(lo, d); hi = max(hi, d) }
            return (lo - margin, hi + margin)
        }
        let (low, high) = range(middle), (southmost, northmost) = range(up)
        var bounds: [(SIMD3<Double>, Double)] = [(-middle, high), (middle, -low)]
        if !north { bounds.append((-up, northmost)) }
        if !south { bounds.append((up, -southmost)) }
        // The meridians through the east and west edges, facing the tile's middle.
        for (a, b) in [(point(1, 1), point(1, 0)), (point(0, 0), point(0, 1))] {
            var m = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
            let len = (m * m).sum().squareRoot()
            guard len > 1e-12 else { continue }
            m /= len
            if (m * middle).sum() < 0 { m = -m }
            bounds.append((m, margin))
        }
        for (normal, d) in bounds where corners.allSatisfy({ ($0 * normal).sum() + d < 0 }) { return false }
        return true
    }

    /// The points of each tile's patch (they do not depend on the camera), kept for the tiles
    /// tested lately.
    static let patches = PatchCache()

    final class PatchCache: @unchecked Sendable {
        private let lock = NSLock()
        private var points: [TileID: [SIMD3<Double>]] = [:]

        func points(_ z: Int, _ x: Int, _ y: Int, make: () -> [SIMD3<Double>]) -> [SIMD3<Double>] {
            guard let id = TileID(z: z, x: x, y: y) else { return make() }
            lock.lock()
            if let p = points[id] { lock.unlock(); return p }
            lock.unlock()
            let p = make()
            lock.lock()
            // (Up to a few thousand tiles' worth, then all dropped at once.)
            if points.count >= 4096 { points.removeAll(keepingCapacity: true) }
            points[id] = p
            lock.unlock()
            return p
        }
    }

    /// Whether all `points` lie more than `margin` behind the horizon's plane.
    private func horizonHides(_ points: [SIMD3<Double>], margin: Double) -> Bool {
        let normal = SIMD3(horizon.x, horizon.y, horizon.z)
        return points.allSatisfy { ($0 * normal).sum() + horizon.w < -margin }
    }

    /// The distance from the point under the camera to tile (z, x, y), normalised Mercator: the
    /// nearest of the tile itself (across the antimeridian too) and its mirror images over the
    /// poles (`distanceToTile2d`).
    func distance(_ z: Int, _ x: Int, _ y: Int) -> Double {
        let size = 1 / Double(1 << z), x0 = Double(x) * size, y0 = Double(y) * size
        func simple(_ p: Double, _ t: Double) -> Double { p < t ? t - p : max(0, p - t - size) }
        func wrapped(_ tx: Double, _ ty: Double) -> Double {
            let d = cameraX - tx
            let dx: Double
            if d < 0 { dx = min(-d, 1 + d - size) } else if d > size { dx = min(max(d - size, 0), 1 - d) } else { dx = 0 }
            return max(dx, simple(cameraY, ty))
        }
        return min(wrapped(x0, y0), wrapped(x0 + 0.5, -y0 - size), wrapped(x0 + 0.5, 2 - y0 - size))
    }
}

extension GlobeCover: ViewTileCover {
    public func tiles(zoom: Double, tileSize: Double, round: Bool, minZoom: Int, maxZoom: Int,
                      bounds: LngLatBounds = .world) -> [TileID] {
        let z0 = zoom + log2(512 / max(tileSize, 1))
        guard z0.isFinite else { return [] }
        let covering = max(0, round ? z0.rounded() : z0.rounded(.down))
        let variable = covering > 4
        let bx0 = WebMercator.x(lng: bounds.west), bx1 = WebMercator.x(lng: bounds.east)
        let by0 = WebMercator.y(lat: bounds.north), by1 = WebMercator.y(lat: bounds.south)
        var stack: [(z: Int, x: Int, y: Int)] = [(0, 0, 0)]
        var found: [(TileID, Double)] = []
        var visited = 0
        while let t = stack.popLast() {
            visited += 1
            if visited > 64 * TileCover.limit || found.count >= TileCover.limit { break }
            guard shows(t.z, t.x, t.y) else { continue }
            var wanted = covering
            if variable {
                let w = byDistance.wanted(z0, distance: distance(t.z, t.x, t.y))
                wanted = max(0, round ? w.rounded() : w.rounded(.down))
            }
            let target = min(Int(min(wanted, 30)), maxZoom)
            if t.z >= target {
                guard t.z >= minZoom, let id = TileID(z: t.z, x: t.x, y: t.y) else { continue }
                let n = Double(1 << t.z)
                let x0 = Double(t.x) / n, x1 = Double(t.x + 1) / n, y0 = Double(t.y) / n, y1 = Double(t.y + 1) / n
                guard x1 > bx0, x0 < bx1, y1 > by0, y0 < by1 else { continue }
                // (Nearest the centre first, across the antimeridian.)
                var dx = (x0 + x1) / 2 - centreX
                dx -= dx.rounded()
                let dy = (y0 + y1) / 2 - centreY
                found.append((id, dx * dx + dy * dy))
                continue
            }
            for i in 0..<4 { stack.append((t.z + 1, 2 * t.x + i % 2, 2 * t.y + i / 2)) }
        }
        return found.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.description < $1.0.description) }.map(\.0)
    }
}
