import Foundation

/// The tiles a pitched view needs, chosen as MapLibre GL JS chooses them (`coveringTiles` over
/// its Mercator details): a depth-first walk of the tile tree from the world's root (and its
/// copies either side), keeping the tiles that meet the ground the camera sees and stopping at
/// each tile's wanted zoom: the view's covering zoom everywhere, or past a steep pitch (60
/// degrees with the default field of view) a zoom that falls with the tile's distance from the
/// camera, so the far ground gets coarser tiles.
///
/// The ground seen is the quadrilateral under the screen's corners (the top ones at the
/// horizon or the far plane): testing a tile's square against it is the frustum test for flat
/// tiles.
public struct GroundCover: ViewTileCover, Equatable {
    /// The ground seen, a convex quadrilateral in Web Mercator (bottom left, bottom right, top
    /// right, top left).
    public let footprint: [MercatorPoint]
    /// The camera's position over the ground and its height, in Web Mercator units.
    public let cameraX: Double, cameraY: Double, cameraHeight: Double
    /// The camera's distance from the centre, Web Mercator units.
    public let centreDistance: Double
    /// Degrees.
    public let pitch: Double, fieldOfView: Double
    /// The view's centre in Web Mercator.
    public let centreX: Double, centreY: Double

    /// The ground `view` sees; nil unpitched (the flat box is exact there).
    public init?(_ view: ViewTransform) {
        guard let p = view.perspective else { return nil }
        let w = Double(view.size.width), h = Double(view.size.height)
        let top = p.groundTopY + 1e-3
        var corners: [MercatorPoint] = []
        for (x, y) in [(0.0, h), (w, h), (w, top), (0.0, top)] {
            guard let m = p.unproject(x: x, y: y) else { return nil }
            corners.append(m)
        }
        footprint = corners
        let d = p.cameraToCenterDistance / p.worldSize
        centreDistance = d
        cameraHeight = d * cos(p.pitch)
        centreX = p.centerX / p.worldSize; centreY = p.centerY / p.worldSize
        // Behind the centre, away from where the camera looks.
        cameraX = centreX + d * sin(p.pitch) * sin(-p.bearing)
        cameraY = centreY + d * sin(p.pitch) * cos(-p.bearing)
        pitch = p.pitch * 180 / Double.pi
        fieldOfView = p.fieldOfView * 180 / Double.pi
    }

    /// Whether the zoom falls with distance (MapLibre: past clamp(78.5 - fov / 2, 0, 60) degrees).
    public var variableZoom: Bool { pitch > min(max(78.5 - fieldOfView / 2, 0), 60) }

    /// Whether the square [x0, x1] x [y0, y1] meets the footprint (separating axes).
    func meets(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for q in footprint { minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y) }
        if maxX < x0 || minX > x1 || maxY < y0 || minY > y1 { return false }
        let n = footprint.count
        for i in 0..<n {
            let a = footprint[i], b = footprint[(i + 1) % n]
            // The edge's normal; the square is beyond the edge if all its corners are.
            let nx = b.y - a.y, ny = a.x - b.x
            let s = footprint[(i + 2) % n]
            let inside = (s.x - a.x) * nx + (s.y - a.y) * ny
            var allOut = true
            for (cx, cy) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                let v = (cx - a.x) * nx + (cy - a.y) * ny
                if v * inside >= 0 { allOut = false; break }
            }
            if allOut { return false }
        }
        return true
    }

    public func tiles(zoom: Double, tileSize: Double, round: Bool, minZoom: Int, maxZoom: Int,
                      bounds: LngLatBounds = .world) -> [TileID] {
        let z0 = zoom + log2(512 / max(tileSize, 1))
        guard z0.isFinite else { return [] }
        let nominal = Int(max(0, min(round ? z0.rounded() : z0.rounded(.down), Double(min(maxZoom, 30)))))
        let variable = variableZoom
        let byDistance = DistanceZoom(cameraHeight: cameraHeight, centreDistance: centreDistance, fieldOfView: fieldOfView)
        let bx0 = WebMercator.x(lng: bounds.west), bx1 = WebMercator.x(lng: bounds.east)
        let by0 = WebMercator.y(lat: bounds.north), by1 = WebMercator.y(lat: bounds.south)
        var stack: [(z: Int, x: Int, y: Int, wrap: Int)] = []
        for wrap in [-3, -2, -1, 1, 2, 3, 0] { stack.append((0, 0, 0, wrap)) }
        var found: [TileID: Double] = [:]
        var visited = 0
        while let t = stack.popLast() {
            visited += 1
            if visited > 64 * TileCover.limit { break }
            let n = Double(1 << t.z)
            let x0 = Double(t.wrap) + Double(t.x) / n, x1 = Double(t.wrap) + Double(t.x + 1) / n
            let y0 = Double(t.y) / n, y1 = Double(t.y + 1) / n
            guard meets(x0, y0, x1, y1) else { continue }
            var wanted = Double(nominal)
            if variable {
                let dx = max(x0 - cameraX, 0, cameraX - x1), dy = max(y0 - cameraY, 0, cameraY - y1)
                wanted = byDistance.wanted(z0, distance: (dx * dx + dy * dy).squareRoot())
            }
            wanted = max(0, round ? wanted.rounded() : wanted.rounded(.down))
            let target = min(Int(min(wanted, 30)), maxZoom)
            if t.z >= target {
                guard t.z >= minZoom, let id = TileID(z: t.z, x: t.x, y: t.y) else { continue }
                // Within the source's bounds (its x without world copies).
                let cx0 = Double(t.x) / n, cx1 = Double(t.x + 1) / n
                guard cx1 > bx0, cx0 < bx1, y1 > by0, y0 < by1 else { continue }
                let ddx = (cx0 + cx1) / 2 + Double(t.wrap) - centreX, ddy = (y0 + y1) / 2 - centreY
                let d = ddx * ddx + ddy * ddy
                if let old = found[id], old <= d { continue }
                found[id] = d
                if found.count >= TileCover.limit { break }
                continue
            }
            for i in 0..<4 { stack.append((t.z + 1, 2 * t.x + i % 2, 2 * t.y + i / 2, t.wrap)) }
        }
        return found.sorted { $0.value < $1.value || ($0.value == $1.value && $0.key.description < $1.key.description) }.map(\.key)
    }
}
