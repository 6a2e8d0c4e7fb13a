import Foundation
import MapCore
import Raster

/// Where normalised Mercator coordinates land on screen, including horizontal world copies.
///
/// A point goes first to unrotated screen space, x * world + ox (and y), and then, at a
/// bearing, through `turn`, the rotation about the viewport's centre. North up there is no turn,
/// and drawing uses `AxisMap`, exactly the scale and offset it always did; at a bearing it uses
/// `RotatedMap`, one affine map per world copy.
///
/// A pitched view keeps those maps: they place the map on the flat screen (the view at pitch 0
/// with the same centre, zoom and bearing), and `ground` projects the flat screen onto the
/// pitched one. Layers drawn through the rasterizer get the projection from it; `visible` and
/// `cull` then hold the ground the rows show.
struct Placement {
    let zoom: Double
    let world: Double
    var ox: Double, oy: Double
    /// The Mercator box the rows drawn cover (at a bearing: the box holding their rotated corners).
    let visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The whole view's height (a band renderer draws only some of its rows).
    let viewHeight: Int
    /// Unrotated screen space to the screen: the rotation about the viewport's centre; nil north up.
    let turn: Transform?
    /// The camera's bearing in degrees (icons aligned to the map turn by minus it).
    let bearing: Double
    /// Pitched: the flat screen onto the pitched screen (nil at pitch 0).
    let ground: GroundProjection?
    /// Pitched: the camera's projection (nil at pitch 0).
    let perspective: PerspectiveTransform?
    /// What the rows drawn show, on the flat screen: minX, minY, maxX, maxY (at pitch 0 the rows
    /// themselves, the viewport's width wide).
    let cull: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The globe: the flat screen onto the sphere and the sphere onto the screen (nil in Web
    /// Mercator). Only the world copy 0 is drawn: the sphere has one.
    let sphere: SphereProjection?
    /// Whether the ground is drawn on a terrain's mesh (MapLibre then draws the layers into
    /// the terrain tiles' textures first, which have no mipmaps).
    let drapedOnTerrain: Bool
    /// The globe: the screen back onto the flat screen (nil in Web Mercator).
    let unprojection: SphereUnprojection?
    /// Whether the view is pitched (geometry goes through `ground`; the screen-space shortcuts
    /// of the flat map do not apply).
    var isPitched: Bool { ground != nil }
    /// Whether the map is drawn on the globe (geometry goes through `sphere`).
    var isGlobe: Bool { sphere != nil }
    /// Whether geometry is projected by the rasterizer (pitched or on the globe): the
    /// screen-space shortcuts of the flat map do not apply.
    var isProjected: Bool { ground != nil || sphere != nil }

    /// For the rows `rows` of the view.
    init(view: ViewTransform, width: Int, rows: Range<Int>, surfaceMesh: SurfaceMesh? = nil) {
        zoom = view.camera.zoom
        world = view.worldSize
        ox = Double(width) / 2 - view.centerPixel.x
        oy = Double(view.size.height) / 2 - view.centerPixel.y
        viewHeight = view.size.height
        bearing = view.camera.bearing
        perspective = view.perspective
        ground = perspective?.groundProjection
        sphere = view.globe.map { $0.surface(mercator: view.globeBlend, globeness: view.globeness, mesh: surfaceMesh) }
        drapedOnTerrain = surfaceMesh != nil
        unprojection = view.globe?.unprojection
        if let box = view.globe?.seenMercatorBox ?? perspective?.groundBox(top: Double(rows.lowerBound), bottom: Double(rows.upperBound)) {
            // What the rows show (the globe's seen side; the pitched ground), and its box on the
            // flat screen.
            let r = view.camera.bearing * Double.pi / 180
            let cs = cos(r), sn = sin(r)
            let cx = Double(width) / 2, cy = Double(view.size.height) / 2
            turn = view.isNorthUp ? nil : Transform(a: cs, b: -sn, c: sn, d: cs, tx: cx - (cs * cx + sn * cy), ty: cy - (-sn * cx + cs * cy))
            visible = box
            let ox = ox, oy = oy, world = world, turn = turn
            func flat(_ x: Double, _ y: Double) -> Point {
                let p = Point(x * world + ox, y * world + oy)
                return turn?.apply(p) ?? p
            }
            // (The ground seen is the trapezoid of the rows' corners: its box is the box of
            // the Mercator box's corners turned.)
            let a = flat(box.minX, box.minY), b = flat(box.maxX, box.minY), c = flat(box.maxX, box.maxY), d = flat(box.minX, box.maxY)
            // (Grown by 2 px: what is culled must lie wholly outside the ground shown.)
            cull = (Swift.min(a.x, b.x, c.x, d.x) - 2, Swift.min(a.y, b.y, c.y, d.y) - 2,
                    Swift.max(a.x, b.x, c.x, d.x) + 2, Swift.max(a.y, b.y, c.y, d.y) + 2)
        } else if view.isNorthUp {
            cull = (0, Double(rows.lowerBound), Double(width), Double(rows.upperBound))
            turn = nil
            visible = (-ox / world, (Double(rows.lowerBound) - oy) / world, (Double(width) - ox) / world, (Double(rows.upperBound) - oy) / world)
        } else {
            cull = (0, Double(rows.lowerBound), Double(width), Double(rows.upperBound))
            let cs = view.cosBearing, sn = view.sinBearing
            let cx = Double(width) / 2, cy = Double(view.size.height) / 2
            let t = Transform(a: cs, b: -sn, c: sn, d: cs, tx: cx - (cs * cx + sn * cy), ty: cy - (-sn * cx + cs * cy))
            turn = t
            // The band's corners back through the turn, then into Mercator.
            let inverse = Transform(a: cs, b: sn, c: -sn, d: cs, tx: cx - (cs * cx - sn * cy), ty: cy - (sn * cx + cs * cy))
            let top = Double(rows.lowerBound), bottom = Double(rows.upperBound), w = Double(width)
            let a = inverse.apply(Point(0, top)), b = inverse.apply(Point(w, top))
            let c = inverse.apply(Point(w, bottom)), d = inverse.apply(Point(0, bottom))
            let minX = Swift.min(a.x, b.x, c.x, d.x), maxX = Swift.max(a.x, b.x, c.x, d.x)
            let minY = Swift.min(a.y, b.y, c.y, d.y), maxY = Swift.max(a.y, b.y, c.y, d.y)
            let ox = ox, oy = oy, world = world
            visible = ((minX - ox) / world, (minY - oy) / world, (maxX - ox) / world, (maxY - oy) / world)
        }
    }

    /// This placement with the view's centre on a whole pixel (a half pixel for an odd size), as
    /// the reference engines place raster layers when the camera is still: image texels then
    /// land on the same pixels wherever the centre falls between them. At a bearing the shift is
    /// made before the turn, in world pixels, as MapLibre's aligned projection matrix makes it
    /// (with its odd-size terms: cos and sin of minus the bearing times the half pixels).
    /// `step`: device pixels per CSS pixel (the reference engines align to CSS pixels).
    func pixelAligned(width: Int, step: Double = 1) -> Placement {
        let step = step.isFinite && step >= 1 ? step : 1
        let angle = turn == nil ? 0 : -bearing * .pi / 180
        let halfX = Double(Int((Double(width) / step).rounded()) % 2) / 2
        let halfY = Double(Int((Double(viewHeight) / step).rounded()) % 2) / 2
        func aligned(_ o: Double, _ size: Int, _ shift: Double) -> Double {
            let c = (Double(size) / 2 - o) / step              // the centre in world CSS pixels
            var d = c - c.rounded() + shift
            if d > 0.5 { d -= 1 }
            return o + d * step
        }
        var q = self
        q.ox = aligned(ox, width, cos(angle) * halfX + sin(angle) * halfY)
        q.oy = aligned(oy, viewHeight, cos(angle) * halfY + sin(angle) * halfX)
        return q
    }

    /// The rows of `t` that show ground: all of them at pitch 0; pitched, those whose pixel
    /// centres are below where the ground begins (`PerspectiveTransform.groundTopY`).
    func groundRows(_ t: RenderTarget) -> Range<Int> {
        guard let perspective else { return t.rows }
        let first = Int((perspective.groundTopY - 0.5).rounded(.up))
        return max(t.rows.lowerBound, min(first, t.rows.upperBound))..<t.rows.upperBound
    }

    /// Whether the ground the rows show lies inside the world's Web Mercator square north to
    /// south (the box of its corners, `visible`): the world's ground then covers the ground's
    /// rows from side to side.
    var groundWithinWorld: Bool { visible.minY > 0 && visible.maxY < 1 }

    /// A screen point of unrotated screen space `(x, y)` (the identity north up).
    @inline(__always) func turned(_ x: Double, _ y: Double) -> Point {
        guard let t = turn else { return Point(x, y) }
        return t.apply(Point(x, y))
    }

    /// Calls `body` for each chunk of `level` that intersects the viewport (grown by `margin`
    /// pixels), once per world copy it shows in, with the map of its points onto the screen.
    func forEachVisibleChunk<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, margin: Double, _: M.Type,
                                           _ body: (GeometrySet.Chunk, M) -> Void) {
        let m = margin / world
        let minX = visible.minX - m, maxX = visible.maxX + m
        let minY = visible.minY - m, maxY = visible.maxY + m
        let firstCopy = Int((minX).rounded(.down)), lastCopy = Int((maxX).rounded(.down))
        for copy in isGlobe ? 0...0 : firstCopy...max(firstCopy, lastCopy) {
            let shift = Double(copy)
            let map = M(self, copy: shift, translate: (0, 0))
            for ci in level.chunks {
                let c = g.chunks[ci]
                if c.maxX + shift < minX || c.minX + shift > maxX
                    || c.maxY < minY || c.minY > maxY { continue }
                body(c, map)
            }
        }
    }
}

/// Normalised Mercator coordinates of one world copy onto the screen.
protocol ScreenMap {
    /// The map for world copy `copy` (an integer) of `p`, moved by `translate` unrotated pixels
    /// (a layer's `*-translate`, anchored to the map).
    init(_ p: Placement, copy: Double, translate: (x: Double, y: Double))
    func point(_ x: Double, _ y: Double) -> Point
    /// The screen box holding the image of the Mercator box: minX, minY, maxX, maxY.
    func box(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> (Double, Double, Double, Double)
    /// The scale and offsets when the map is axis-aligned (north up), else nil.
    var axis: AxisMap? { get }
    /// The map as one affine transform.
    var transform: Transform { get }
}

extension ScreenMap {
    /// Block b of `boxes` (a `GeometrySet`'s block boxes) on screen, mapped as its points are.
    @inline(__always)
    func box(_ boxes: UnsafeBufferPointer<Double>, _ b: Int) -> (Double, Double, Double, Double) {
        box(boxes[4 * b], boxes[4 * b + 1], boxes[4 * b + 2], boxes[4 * b + 3])
    }
}

/// North up: a scale and an offset per axis.
struct AxisMap: ScreenMap {
    let sx: Double, ox: Double, sy: Double, oy: Double
    init(sx: Double, ox: Double, sy: Double, oy: Double) { self.sx = sx; self.ox = ox; self.sy = sy; self.oy = oy }
    @inline(__always) init(_ p: Placement, copy: Double, translate t: (x: Double, y: Double)) {
        self.init(sx: p.world, ox: p.ox + copy * p.world + t.x, sy: p.world, oy: p.oy + t.y)
    }
    @inline(__always) func point(_ x: Double, _ y: Double) -> Point { Point(x * sx + ox, y * sy + oy) }
    @inline(__always) func box(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> (Double, Double, Double, Double) {
        (minX * sx + ox, minY * sy + oy, maxX * sx + ox, maxY * sy + oy)
    }
    var axis: AxisMap? { self }
    var transform: Transform { Transform(a: sx, b: 0, c: 0, d: sy, tx: ox, ty: oy) }
}

/// At a bearing: the scale, offset and turn about the viewport's centre in one affine map.
struct RotatedMap: ScreenMap {
    let t: Transform
    @inline(__always) init(_ p: Placement, copy: Double, translate s: (x: Double, y: Double)) {
        let r = p.turn ?? .identity
        let ox = p.ox + copy * p.world + s.x, oy = p.oy + s.y
        t = Transform(a: r.a * p.world, b: r.b * p.world, c: r.c * p.world, d: r.d * p.world,
                      tx: r.a * ox + r.c * oy + r.tx, ty: r.b * ox + r.d * oy + r.ty)
    }
    @inline(__always) func point(_ x: Double, _ y: Double) -> Point {
        Point(t.a * x + t.c * y + t.tx, t.b * x + t.d * y + t.ty)
    }
    @inline(__always) func box(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> (Double, Double, Double, Double) {
        let p = point(minX, minY), q = point(maxX, minY), r = point(maxX, maxY), s = point(minX, maxY)
        return (min(p.x, q.x, r.x, s.x), min(p.y, q.y, r.y, s.y), max(p.x, q.x, r.x, s.x), max(p.y, q.y, r.y, s.y))
    }
    var axis: AxisMap? { nil }
    var transform: Transform { t }
}
