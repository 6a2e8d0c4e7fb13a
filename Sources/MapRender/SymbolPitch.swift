import Foundation
import MapCore
import Raster

/// A symbol part's anchor on a pitched map, as MapLibre's symbol shaders and collision index
/// see it (3D-AND-LAYERS.md (a) "Symbols"): the anchor (moved by its translate in the map's
/// plane) projected, its clip w, and what that makes of the part's size and turn. On a flat map
/// everything is as before: the anchor on screen plus the translate, scale 1, the bearing.
struct SymbolPitch {
    /// The anchor on screen.
    var point: Point
    /// The anchor on the flat (pitch 0) screen of the same centre, zoom and bearing (the label
    /// plane of a part lying in the map's plane); `point` when the map is flat.
    var flat: Point
    /// MapLibre's perspective ratio 0.5 + 0.5 ctc / w (1 when flat): a part whose ratio is
    /// under `cutoff` is never placed; viewport-pitched boxes scale by it.
    var ratio: Double
    /// The size factor of a part facing the viewer: clamp(ratio, 0, 4).
    var viewportScale: Double
    /// The size factor of a part lying in the map's plane, in that plane: clamp(0.5 + 0.5 w / ctc, 0, 4).
    var mapScale: Double
    /// The map's turn at the anchor as the screen shows it, in degrees clockwise-negative as the
    /// bearing is (the bearing when flat): the projected direction of the map's east.
    var mapTurn: Double
    /// The anchor's clip w over the camera distance (1 at the view's centre).
    var depth: Double = 1

    /// MapLibre's `perspectiveRatioCutoff`: anchors deeper than 5 x the camera distance.
    static let cutoff = 0.6

    /// Whether a part at this anchor may be placed.
    var placeable: Bool { ratio >= Self.cutoff }
}

/// The view's perspective as the symbol layout uses it (nil on a flat map): the pitched
/// ground's (a homography of the flat screen) or the globe's (the flat screen laid on the
/// sphere). A part lying in the map's plane is laid out on the flat screen about its anchor and
/// its points carried onto the screen by it; on the globe a label's pixels in that plane stand
/// for the screen centre's (MapLibre's pitched-text correction cos(centre latitude) /
/// cos(anchor latitude), `getPitchedTextCorrection`), so a label lies on the sphere at one size
/// wherever it is.
struct SymbolPerspective {
    /// The view at pitch 0 in Web Mercator (same centre, zoom, bearing): the flat screen.
    let flat: ViewTransform
    let cameraToCenterDistance: Double
    /// cos(pitch): MapLibre sharpens the edges of labels in the map's plane by it.
    let cosPitch: Double
    private let surface: Surface

    private enum Surface {
        /// The flat screen onto the pitched one (w = its depth).
        case ground(GroundProjection)
        /// The globe's view, its camera and the flat screen to Mercator.
        case globe(ViewTransform, GlobeTransform, (Double, Double, Double, Double, Double, Double), cosCentre: Double)
    }

    init?(_ view: ViewTransform) {
        var camera = view.camera
        camera.pitch = 0
        flat = ViewTransform(camera: camera, size: view.size)
        if let globe = view.globe {
            surface = .globe(view, globe, globe.flatToMercator, cosCentre: cos(globe.center.lat * Double.pi / 180))
            cameraToCenterDistance = globe.project(globe.center).w
            cosPitch = cos(globe.pitch)
            return
        }
        guard let p = view.perspective else { return nil }
        surface = .ground(p.groundProjection)
        cameraToCenterDistance = p.cameraToCenterDistance
        cosPitch = cos(p.pitch)
    }

    /// Flat point `f` on screen and its clip depth (w <= 0: behind the camera, or on the
    /// globe's far side).
    private func project(_ f: Point) -> (point: Point, w: Double) {
        switch surface {
        case let .ground(g):
            return (g.apply(f.x, f.y), g.depth(f.x, f.y))
        case let .globe(view, globe, m, _):
            let mp = MercatorPoint(x: m.0 * f.x + m.1 * f.y + m.2, y: m.3 * f.x + m.4 * f.y + m.5)
            let s = view.screen(mp)
            let g = globe.project(WebMercator.unproject(mp))
            return (Point(s.x, s.y), g.seen ? g.w : -1)
        }
    }

    /// How many flat pixels one pixel of a part lying in the map's plane at flat point `f` spans
    /// (1 on the pitched ground; on the globe cos(centre latitude) / cos(its latitude)).
    private func correction(at f: Point) -> Double {
        guard case let .globe(_, _, m, cosCentre) = surface else { return 1 }
        let y = m.3 * f.x + m.4 * f.y + m.5
        let cosHere = 1 / cosh(Double.pi * (1 - 2 * min(max(y, 0), 1)))
        return cosCentre / max(cosHere, 1e-9)
    }

    /// A point of the map, world copy `copy`, moved by `t` pixels of the flat screen (a
    /// translate, in the map's plane as MapLibre applies it), on screen.
    func pitch(_ m: MercatorPoint, copy: Double, translate t: (x: Double, y: Double), bearing: Double) -> SymbolPitch {
        let s = flat.screen(MercatorPoint(x: m.x + copy, y: m.y))
        let f = Point(s.x + t.x, s.y + t.y)
        let (p, w) = project(f)
        let c = cameraToCenterDistance
        guard w > 0, c > 0 else {
            return SymbolPitch(point: Point(-1e9, -1e9), flat: f, ratio: 0, viewportScale: 0, mapScale: 0, mapTurn: bearing)
        }
        let ratio = 0.5 + 0.5 * c / w
        // The map's east, one flat pixel along it, projected: its direction on screen.
        let b = bearing * Double.pi / 180
        let e = project(Point(f.x + cos(b), f.y - sin(b))).point
        let turn = -atan2(e.y - p.y, e.x - p.x) * 180 / Double.pi
        return SymbolPitch(point: p, flat: f, ratio: ratio, viewportScale: min(max(ratio, 0), 4),
                           mapScale: min(max(0.5 + 0.5 * w / c, 0), 4), mapTurn: turn, depth: w / c)
    }

    /// Where a part's point `offset` pixels (in the map's plane) from its anchor at flat point
    /// `f` shows on screen.
    func place(_ offset: (x: Double, y: Double), from f: Point) -> Point {
        let k = correction(at: f)
        return project(Point(f.x + offset.x * k, f.y + offset.y * k)).point
    }

    /// The linear part of the map from a part's plane to the screen at `offset` from its anchor
    /// at flat point `f` (a, b, c, d: x' = a x + b y, y' = c x + d y): how a small shape laid in
    /// the map's plane there looks on screen.
    func plane(at f: Point, offset: (x: Double, y: Double) = (0, 0)) -> SIMD4<Double> {
        let k = correction(at: f)
        let q = Point(f.x + offset.x * k, f.y + offset.y * k)
        switch surface {
        case let .ground(g):
            let m = g.m
            let w = g.depth(q.x, q.y)
            let p = g.apply(q.x, q.y)
            return SIMD4((m.0 - p.x * m.6) / w, (m.1 - p.x * m.7) / w, (m.3 - p.y * m.6) / w, (m.4 - p.y * m.7) / w)
        case .globe:
            // (The sphere's slope there, by differences half a flat pixel either side.)
            let h = 0.5
            let l = project(Point(q.x - h, q.y)).point, r = project(Point(q.x + h, q.y)).point
            let u = project(Point(q.x, q.y - h)).point, d = project(Point(q.x, q.y + h)).point
            return SIMD4((r.x - l.x) / (2 * h), (d.x - u.x) / (2 * h), (r.y - l.y) / (2 * h), (d.y - u.y) / (2 * h)) * k
        }
    }

    /// How much softer MapLibre draws the edges of a label lying in the map's plane at `pitch`:
    /// its shader's gamma x w / (cos(pitch) ctc) (`symbol_program.ts`, u_gamma_scale).
    func gammaScale(_ pitch: SymbolPitch) -> Double { pitch.depth / max(cosPitch, 1e-6) }

    /// A box about a part's anchor at flat point `f` (pixels in the map's plane, turned by
    /// `turn` radians clockwise, then moved by `offset`) on screen: the bounds of its corners
    /// and edges' middles projected (MapLibre's collision box of a part pitched with the map).
    func projectedBox(_ b: FrameDescription.ScreenBox, about f: Point, offset: (x: Double, y: Double) = (0, 0),
                      turn: Double = 0) -> FrameDescription.ScreenBox {
        let mx = (b.minX + b.maxX) / 2, my = (b.minY + b.maxY) / 2
        let c = cos(turn), s = sin(turn)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(b.minX, b.minY), (mx, b.minY), (b.maxX, b.minY), (b.maxX, my), (b.maxX, b.maxY), (mx, b.maxY), (b.minX, b.maxY), (b.minX, my)] {
            let p = place((offset.x + x * c - y * s, offset.y + x * s + y * c), from: f)
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return .init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A flat-screen point of the map (a line's vertex) on screen.
    func apply(_ f: Point) -> Point { project(f).point }

    /// A line's vertex `f` (flat screen) on the pitched screen, seen from a label's anchor `a`:
    /// a vertex behind the near plane is pulled along the line from the anchor to it until it
    /// is in front (MapLibre's truncated segment: the direction from the anchor stays right).
    func projectTowards(_ f: Point, from a: Point) -> Point {
        guard case let .ground(ground) = surface else { return apply(f) }
        let w = ground.depth(f.x, f.y), near = ground.near
        guard w < near else { return ground.apply(f.x, f.y) }
        let wa = ground.depth(a.x, a.y)
        guard wa > near, wa != w else { return ground.apply(f.x, f.y) }
        let t = (wa - near) / (wa - w)
        return ground.apply(a.x + (f.x - a.x) * t, a.y + (f.y - a.y) * t)
    }
}
