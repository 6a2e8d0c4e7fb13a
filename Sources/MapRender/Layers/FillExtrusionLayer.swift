import Foundation
import MapCore
import Raster

/// Fill-extrusion layers, drawn as MapLibre GL JS draws them (3D-AND-LAYERS.md (c)): every
/// polygon raised from its base to its height in the camera's perspective (at any pitch, 0
/// included), roofs and walls shaded per vertex by the style's light, back faces culled, the
/// nearest surface winning by a 24-bit depth buffer that the frame's fill-extrusion layers share
/// (a later layer hides behind an earlier one's buildings), pixels covered by their centres.
/// Below opacity 1 each pixel shows its nearest surface once (see `ExtrusionSurfaces`).
final class FillExtrusionRenderLayer {
    /// The band's depth and the face each pixel shows, kept for the frame.
    private var surfaces = ExtrusionSurfaces()
    private var face = ExtrusionFace(), roofFace = ExtrusionFace()
    /// The feature's pattern on its roof and (with the walls' own anchor) its walls; tile pixels
    /// a metre up a wall; tile units (8192 a tile) per world pixel, and the edge distance so far.
    private var roofPattern: ExtrusionPattern?, wallPattern: ExtrusionPattern?
    private var wallRise = 0.0, edgeUnits = 0.0, edgePixels = 0.0, edgeDistance = 0.0
    /// Grid units across the world that vertices are rounded to (0: none).
    private var grid = 0.0
    private var ring: [SIMD3<Double>] = []
    private var local: [SIMD2<Double>] = []
    /// Whether the edge ending at each point of `local` is a tile cut (no wall).
    private var cut: [Bool] = []
    /// Tiles across the world that vector features were cut to (0: none).
    private var cutTiles = 0.0
    private var tileRings = ExtrusionTileRings(), gridRing: [SIMD2<Double>] = [], cutRing: [SIMD2<Double>] = []

    /// Draws `draw` into the target's rows; `frame` tells frames apart (the depth is cleared
    /// for a new one); `keepDepth`: the frame has other fill-extrusion layers, which share the depth.
    func draw(_ draw: FillExtrusionDraw, _ view: ViewTransform, _ target: RenderTarget, frame: Int, keepDepth: Bool = true) {
        let width = target.width, rows = target.rows
        guard draw.opacity > 0, !rows.isEmpty, width > 0 else { return }
        let patterned = draw.features.items.contains { $0.paint.pattern != nil }
        let cam = ExtrusionCamera(view)
        surfaces.begin(frame: frame, rows: rows, width: width, firstWins: draw.opacity < 1 || patterned, depthScale: cam.depthScale, near: cam.near,
                       keep: keepDepth)
        drawFeatures(draw, cam, target)
        surfaces.shade(into: target, opacity: draw.opacity)
    }

    /// The colour of a vertex (MapLibre's fill_extrusion vertex shader), before opacity.
    struct Shade {
        let color: SIMD3<Double>, luminance: Double
        let light: ExtrusionLight, gradient: Bool
        let lightColor: SIMD3<Double>, floor: SIMD3<Double>

        init(_ c: MapCore.Color, _ l: ExtrusionLight, gradient: Bool) {
            color = SIMD3(c.r, c.g, c.b)
            luminance = c.r * 0.2126 + c.g * 0.7152 + c.b * 0.0722
            light = l; self.gradient = gradient
            lightColor = SIMD3(l.color.r, l.color.g, l.color.b)
            floor = (SIMD3<Double>(repeating: 1) - lightColor) * 0.3
        }

        /// Normal as the bucket stores it (x carries the top bit t), base and height in metres.
        func vertex(nx: Double, ny: Double, nz: Double, top: Bool, base: Double, height: Double) -> SIMD3<Double> {
            let i = light.intensity
            var d = min(max(nx * light.x + ny * light.y + nz * light.z, 0), 1)
            d = (1 - i) + (max(1 - luminance + i, 1) - (1 - i)) * d
            if ny != 0 && gradient {
                let lo = 0.7 + (0.98 - 0.7) * (1 - i)
                d *= min(max(((top ? 1 : 0) + base) * (height / 150).squareRoot(), lo), 1)
            }
            let v = (color + 0.03) * d * lightColor
            return v.replacing(with: floor, where: v .< floor).replacing(with: 1, where: v .> 1)
        }
    }

    private func drawFeatures(_ draw: FillExtrusionDraw, _ cam: ExtrusionCamera, _ target: RenderTarget) {
        let ws = cam.worldSize, t = draw.features.translate
        let centerMercX = cam.centerX / ws
        // Patterns repeat in pixels of the integer zoom; walls run by edge distances in units of
        // the tiles the source is cut into (8192 a tile: a GeoJSON source's zoom, else the same),
        // from the corner of such a tile.
        let zoom = max(min(draw.zoom, 30), 0).rounded(.down)
        let tilesPerWorld = exp2(Double(draw.features.tileZoom ?? Int(zoom))), tilePixelsPerWorld = 512 * exp2(zoom)
        wallRise = exp2(zoom) / 65536
        edgeUnits = tilesPerWorld * 8192 / ws
        edgePixels = tilePixelsPerWorld / (tilesPerWorld * 8192)
        // Vertices on the tiles' grid (see `FeatureDraw.tileZoom`), else as they are.
        grid = draw.features.tileZoom.map { exp2(Double(min(max($0, 0), 30))) * 8192 } ?? 0
        cutTiles = draw.cutZoom.map { exp2(Double(min(max($0, 0), 30))) } ?? 0
        for item in draw.features.items {
            let g = item.geometry, paint = item.paint
            guard g.kind == .polygons, !g.isEmpty else { continue }
            let shade = Shade(paint.color, draw.light, gradient: draw.verticalGradient)
            // The world copy nearest the centre.
            let copy = (centerMercX - (g.minX + g.maxX) / 2).rounded()
            let ox = (copy) * ws + t.x - cam.centerX, oy = t.y - cam.centerY
            let h = paint.height * cam.pixelsPerMetre, b = paint.base * cam.pixelsPerMetre
            // (A feature wholly off this band's rows, or off the screen's sides, is passed over.)
            if !cam.mayShow(minX: g.minX * ws + ox, minY: g.minY * ws + oy, maxX: g.maxX * ws + ox, maxY: g.maxY * ws + oy,
                            base: b, height: h, width: target.width, rows: target.rows) { continue }
            // A pattern: on the roof, anchored to the world in tile pixels; on the walls, from
            // the corner of the tile of the first vertex (MapLibre's tile the feature is drawn in).
            if let fp = paint.pattern {
                var pattern = ExtrusionPattern(fp, tilePixelsPerWorld: tilePixelsPerWorld)
                let tileX = (g.coordinates[0] * tilesPerWorld).rounded(.down), tileY = (g.coordinates[1] * tilesPerWorld).rounded(.down)
                // Roof (u, v: world pixels about the centre, translated): tile pixels of the untranslated point.
                let k = tilePixelsPerWorld / ws
                pattern.x = SIMD3(k, 0, ((cam.centerX - t.x) / ws - copy) * tilePixelsPerWorld)
                pattern.y = SIMD3(0, k, (cam.centerY - t.y) / ws * tilePixelsPerWorld)
                roofPattern = pattern
                wallPattern = pattern
                wallPattern?.x.z = tileX / tilesPerWorld * tilePixelsPerWorld
                wallPattern?.y.z = tileY / tilesPerWorld * tilePixelsPerWorld
            } else {
                roofPattern = nil; wallPattern = nil
            }
            // A pattern on a GeoJSON source's walls runs along the rings of each tile they are cut into.
            let tiledWalls = wallPattern != nil && grid > 0
            for p in 0..<(g.polygonStarts.count - 1) {
                let first = g.polygonStarts[p], end = g.polygonStarts[p + 1]
                guard first < end else { continue }
                // Walls on every edge of every ring, wound as MapLibre's tiles wind them
                // (exteriors clockwise on screen, holes counter-clockwise); the roof over them all.
                roofFace.reset()
                let roofSeen = cam.eye.z > h
                for r in first..<end {
                    ringPoints(g, r, ws: ws, ox: ox, oy: oy, exterior: r == first)
                    let n = local.count
                    guard n >= 2 else { continue }
                    if roofSeen && n >= 3 {
                        ring.removeAll(keepingCapacity: true)
                        for q in local { ring.append(cam.clip(q.x, q.y, h)) }
                        roofFace.addRing(ring, near: cam.near, far: cam.far)
                    }
                    guard h > b, !tiledWalls else { continue }
                    // (In the ring's order from its first point, as the edge distance runs.)
                    edgeDistance = 0
                    for k in 1...n where !(cutTiles > 0 && cut[k % n]) {
                        wall(from: local[k - 1], to: local[k % n], base: b, height: h, paint: paint, shade: shade, cam)
                    }
                }
                if roofSeen { roof(height: h, paint: paint, shade: shade, cam) }
                if tiledWalls && h > b {
                    walls(g, first..<end, tilesPerWorld: tilesPerWorld, tilePixelsPerWorld: tilePixelsPerWorld, buffer: draw.tileBuffer,
                          ws: ws, ox: ox, oy: oy, base: b, height: h, paint: paint, shade: shade, cam)
                }
            }
        }
    }

    /// Ring `r` of `g` in world pixels about the centre, wound clockwise on screen for an
    /// exterior, counter-clockwise for a hole, its closing point dropped.
    private func ringPoints(_ g: FeatureGeometry, _ r: Int, ws: Double, ox: Double, oy: Double, exterior: Bool) {
        local.removeAll(keepingCapacity: true)
        let range = g.part(r)
        var area = 0.0
        let grid = self.grid, toWorld = grid > 0 ? ws / grid : ws
        for i in range {
            var x = g.coordinates[2 * i], y = g.coordinates[2 * i + 1]
            if grid > 0 { x = (x * grid).rounded(); y = (y * grid).rounded() }
            let q = SIMD2(x * toWorld + ox, y * toWorld + oy)
            if let last = local.last { area += last.x * q.y - q.x * last.y }
            local.append(q)
        }
        if local.count >= 2, local[0] == local[local.count - 1] { local.removeLast() }
        guard let f = local.first, let l = local.last else { return }
        area += l.x * f.y - f.x * l.y
        // (Reversed as the closed ring is: its first point stays first.)
        if (area > 0) != exterior { local.reverse(); local.insert(local.removeLast(), at: 0) }
        // Edges along the side of a tile the feature was cut to.
        cut.removeAll(keepingCapacity: true)
        guard cutTiles > 0 else { return }
        let n = local.count
        for k in 0..<n {
            let a = local[k == 0 ? n - 1 : k - 1], c = local[k]
            func onTileLine(_ v: Double, _ o: Double) -> Bool {
                let t = (v - o) / ws * cutTiles
                return abs(t - t.rounded()) < 1e-6
            }
            cut.append((a.x == c.x && onTileLine(a.x, ox)) || (a.y == c.y && onTileLine(a.y, oy)))
        }
    }

    /// The walls of the polygon of rings `rings`, ring by ring of each tile (at the pattern's
    /// tiles' zoom) whose square grown by `buffer` (grid units) it reaches, as MapLibre draws
    /// them: edges along a tile's side outside the tile left out, the edge distance restarting in
    /// each tile's ring, the pattern anchored at that tile's corner.
    private func walls(_ g: FeatureGeometry, _ rings: Range<Int>, tilesPerWorld: Double, tilePixelsPerWorld: Double, buffer: Double,
                       ws: Double, ox: Double, oy: Double, base: Double, height: Double, paint: FillExtrusionPaint, shade: Shade,
                       _ cam: ExtrusionCamera) {
        let grid = self.grid, toWorld = ws / grid
        let box = ((g.minX * grid).rounded(), (g.minY * grid).rounded(), (g.maxX * grid).rounded(), (g.maxY * grid).rounded())
        let tx0 = Int(((box.0 - buffer) / 8192).rounded(.down)), tx1 = Int(((box.2 + buffer) / 8192).rounded(.down))
        let ty0 = Int(((box.1 - buffer) / 8192).rounded(.down)), ty1 = Int(((box.3 + buffer) / 8192).rounded(.down))
        guard tx1 - tx0 < 16, ty1 - ty0 < 16, var pattern = wallPattern else { return }
        for ty in ty0...ty1 {
            for tx in tx0...tx1 {
                let x0 = Double(tx) * 8192, y0 = Double(ty) * 8192
                pattern.x.z = Double(tx) / tilesPerWorld * tilePixelsPerWorld
                pattern.y.z = Double(ty) / tilesPerWorld * tilePixelsPerWorld
                wallPattern = pattern
                for r in rings {
                    gridRing.removeAll(keepingCapacity: true)
                    for i in g.part(r) { gridRing.append(SIMD2(g.coordinates[2 * i] * grid, g.coordinates[2 * i + 1] * grid).rounded(.toNearestOrAwayFromZero)) }
                    if let f = gridRing.first, gridRing.last != f { gridRing.append(f) }
                    tileRings.cut(gridRing, box: box, x0: x0 - buffer, x1: x0 + 8192 + buffer, y0: y0 - buffer, y1: y0 + 8192 + buffer,
                                  exterior: r == rings.lowerBound, into: &cutRing)
                    guard cutRing.count >= 2 else { continue }
                    edgeDistance = 0
                    for k in 1..<cutRing.count {
                        let p2 = cutRing[k - 1], p1 = cutRing[k]
                        // (MapLibre's boundary edges: along a side, outside the tile.)
                        if p1.x == p2.x && (p1.x < x0 || p1.x > x0 + 8192) { continue }
                        if p1.y == p2.y && (p1.y < y0 || p1.y > y0 + 8192) { continue }
                        wall(from: SIMD2(p2.x * toWorld + ox, p2.y * toWorld + oy), to: SIMD2(p1.x * toWorld + ox, p1.y * toWorld + oy),
                             base: base, height: height, paint: paint, shade: shade, cam)
                    }
                }
            }
        }
    }

    /// The wall on the edge from `a` to `c` (MapLibre's p2 to p1): its normal perp(c - a), in
    /// the tile's frame (x east, y south), points into the building.
    private func wall(from a: SIMD2<Double>, to c: SIMD2<Double>, base: Double, height: Double, paint: FillExtrusionPaint,
                      shade: Shade, _ cam: ExtrusionCamera) {
        let e = c - a
        let length = (e * e).sum().squareRoot()
        guard length > 0 else { return }
        // MapLibre's edge distance: tile units, rounded at each vertex, restarting past 32768.
        let dist = length * edgeUnits
        if edgeDistance + dist > 32768 { edgeDistance = 0 }
        let atC = edgeDistance.rounded(), atA = (edgeDistance + dist).rounded()
        edgeDistance += dist
        let nx = -e.y / length, ny = e.x / length
        // Back faces (seen from inside the building) are culled.
        guard (cam.eye.x - c.x) * nx + (cam.eye.y - c.y) * ny < 0 else { return }
        face.reset()
        ring.removeAll(keepingCapacity: true)
        ring.append(cam.clip(a.x, a.y, base)); ring.append(cam.clip(c.x, c.y, base))
        ring.append(cam.clip(c.x, c.y, height)); ring.append(cam.clip(a.x, a.y, height))
        face.addRing(ring, near: cam.near, far: cam.far)
        guard face.setPlane(cam, origin: SIMD3(a.x, a.y, base), du: SIMD3(e.x, e.y, 0), dv: SIMD3(0, 0, height - base)) else { return }
        // The normal as the bucket stores it: x floored to 1/8192 steps with the top bit, y cut to
        // a 16-bit integer of 1/16384 steps.
        let qx = (nx * 8192).rounded(.down) * 2, qy = (ny * 16384).rounded(.towardZero) / 16384
        if var pattern = wallPattern {
            // u runs from a to c, v from the foot to the top: tile pixels along and up.
            pattern.x = SIMD3((atC - atA) * edgePixels, 0, atA * edgePixels + pattern.x.z)
            pattern.y = SIMD3(0, -(paint.height - paint.base) * wallRise, -paint.base * wallRise + pattern.y.z)
            let bottom = shade.patternVertex(nx: qx / 16384, ny: qy, nz: 0, top: false, base: paint.base, height: paint.height)
            let top = shade.patternVertex(nx: (qx + 1) / 16384, ny: qy, nz: 0, top: true, base: paint.base, height: paint.height)
            fillFace(cam, bottom: bottom, top: top, pattern: pattern)
            return
        }
        let bottom = shade.vertex(nx: qx / 16384, ny: qy, nz: 0, top: false, base: paint.base, height: paint.height)
        let top = shade.vertex(nx: (qx + 1) / 16384, ny: qy, nz: 0, top: true, base: paint.base, height: paint.height)
        fillFace(cam, bottom: bottom, top: top)
    }

    /// The roof whose rings `roofFace` holds, at `height`: seen only from above (the caller
    /// checks), one colour.
    private func roof(height: Double, paint: FillExtrusionPaint, shade: Shade, _ cam: ExtrusionCamera) {
        guard roofFace.setPlane(cam, origin: SIMD3(0, 0, height), du: SIMD3(1, 0, 0), dv: SIMD3(0, 1, 0)) else { return }
        let c = roofPattern == nil ? shade.vertex(nx: 1.0 / 16384, ny: 0, nz: 1, top: true, base: paint.base, height: paint.height)
            : shade.patternVertex(nx: 1.0 / 16384, ny: 0, nz: 1, top: true, base: paint.base, height: paint.height)
        swap(&face, &roofFace)
        fillFace(cam, bottom: c, top: c, pattern: roofPattern, convex: false)
        swap(&face, &roofFace)
    }

    /// Covers the face set up in `face`, coloured from `bottom` (v = 0) to `top` (v = 1), where
    /// it is nearest (see `ExtrusionSurfaces`).
    private func fillFace(_ cam: ExtrusionCamera, bottom: SIMD3<Double>, top: SIMD3<Double>,
                          pattern: ExtrusionPattern? = nil, convex: Bool = true) {
        // One colour over the face, packed once (also when its ends' bytes are the same, as
        // every colour between them then is).
        var packed: UInt32?
        if pattern == nil {
            let p = packPremultiplied(SIMD4(bottom.x, bottom.y, bottom.z, 1))
            if bottom == top || p == packPremultiplied(SIMD4(top.x, top.y, top.z, 1)) { packed = p }
        }
        surfaces.cover(&face, convex: convex,
                       ExtrusionSurfaces.Face(inverse: face.inverse, bottom: bottom, top: top, packed: packed, pattern: -1),
                       pattern: pattern)
    }
}
