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

/// The view's perspective as the symbol layout uses it (nil parts on a flat map).
struct SymbolPerspective {
    /// The view at pitch 0 (same centre, zoom, bearing).
    let flat: ViewTransform
    /// The flat screen onto the pitched one (w = its depth).
    let ground: GroundProjection
    let cameraToCenterDistance: Double
    /// cos(pitch): MapLibre sharpens the edges of labels in the map's plane by it.
    let cosPitch: Double

    init?(_ view: ViewTransform) {
        guard let p = view.perspective else { return nil }
        var camera = view.camera
        camera.pitch = 0
        flat = ViewTransform(camera: camera, size: view.size)
        ground = p.groundProjection
        cameraToCenterDistance = p.cameraToCenterDistance
        cosPitch = cos(p.pitch)
    }

    /// A point of the map, world copy `copy`, moved by `t` pixels of the flat screen (a
    /// translate, in the map's plane as MapLibre applies it), on the pitched screen.
    func pitch(_ m: MercatorPoint, copy: Double, translate t: (x: Double, y: Double), bearing: Double) -> SymbolPitch {
        let s = flat.screen(MercatorPoint(x: m.x + copy, y: m.y))
        let f = Point(s.x + t.x, s.y + t.y)
        let w = ground.depth(f.x, f.y)
        let c = cameraToCenterDistance
        guard w > 0 else {
            return SymbolPitch(point: Point(-1e9, -1e9), flat: f, ratio: 0, viewportScale: 0, mapScale: 0, mapTurn: bearing)
        }
        let p = ground.apply(f.x, f.y)
        let ratio = 0.5 + 0.5 * c / w
        // The map's east, one flat pixel along it, projected: its direction on screen.
        let b = bearing * Double.pi / 180
        let e = ground.apply(f.x + cos(b), f.y - sin(b))
        let turn = -atan2(e.y - p.y, e.x - p.x) * 180 / Double.pi
        return SymbolPitch(point: p, flat: f, ratio: ratio, viewportScale: min(max(ratio, 0), 4),
                           mapScale: min(max(0.5 + 0.5 * w / c, 0), 4), mapTurn: turn, depth: w / c)
    }

    /// The linear part of the flat-to-pitched map at flat point `f` (a, b, c, d: x' = a x + b y,
    /// y' = c x + d y): how a small shape laid in the map's plane there looks on screen.
    func plane(at f: Point) -> SIMD4<Double> {
        let m = ground.m
        let w = ground.depth(f.x, f.y)
        let p = ground.apply(f.x, f.y)
        return SIMD4((m.0 - p.x * m.6) / w, (m.1 - p.x * m.7) / w, (m.3 - p.y * m.6) / w, (m.4 - p.y * m.7) / w)
    }

    /// How much softer MapLibre draws the edges of a label lying in the map's plane at `pitch`:
    /// its shader's gamma x w / (cos(pitch) ctc) (`symbol_program.ts`, u_gamma_scale).
    func gammaScale(_ pitch: SymbolPitch) -> Double { pitch.depth / max(cosPitch, 1e-6) }

    /// A box about flat point `f` (flat-screen pixels, lying in the map's plane) on the pitched
    /// screen: the bounds of its corners and edges' middles projected (MapLibre's collision box
    /// of a part pitched with the map).
    func projectedBox(_ b: FrameDescription.ScreenBox, about f: Point) -> FrameDescription.ScreenBox {
        let mx = (b.minX + b.maxX) / 2, my = (b.minY + b.maxY) / 2
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(b.minX, b.minY), (mx, b.minY), (b.maxX, b.minY), (b.maxX, my), (b.maxX, b.maxY), (mx, b.maxY), (b.minX, b.maxY), (b.minX, my)] {
            let p = ground.apply(f.x + x, f.y + y)
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return .init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A flat-screen point on the pitched screen.
    func apply(_ f: Point) -> Point { ground.apply(f.x, f.y) }

    /// A line's vertex `f` (flat screen) on the pitched screen, seen from a label's anchor `a`:
    /// a vertex behind the near plane is pulled along the line from the anchor to it until it
    /// is in front (MapLibre's truncated segment: the direction from the anchor stays right).
    func projectTowards(_ f: Point, from a: Point) -> Point {
        let w = ground.depth(f.x, f.y), near = ground.near
        guard w < near else { return ground.apply(f.x, f.y) }
        let wa = ground.depth(a.x, a.y)
        guard wa > near, wa != w else { return ground.apply(f.x, f.y) }
        let t = (wa - near) / (wa - w)
        return ground.apply(a.x + (f.x - a.x) * t, a.y + (f.y - a.y) * t)
    }
}
