import Foundation
import MapCore
import Raster

/// Circles on a pitched map, as MapLibre's circle shader draws them (3D-AND-LAYERS.md (a)
/// "Circles"): the centre (translated in the map's plane) projected; a circle facing the viewer
/// (`circle-pitch-alignment` viewport) is a disc of its radius x ctc / w on screen, or of its
/// radius with `circle-pitch-scale` viewport; one lying in the map's plane is a disc there, an
/// ellipse on screen, grown by w / ctc with `circle-pitch-scale` viewport.
extension CircleRenderLayer {
    func drawPitchedCircles(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ ground: GroundProjection, _ t: RenderTarget) {
        // The flat screen's centre is the view's: its depth is the camera distance.
        let width = Double(t.pixmap.width), height = Double(p.viewHeight)
        let ctc = ground.depth(width / 2, height / 2)
        guard ctc > 0, let inverse = PlaneInverse(ground) else { return }
        for item in draw.items {
            let g = item.geometry, paint = item.paint
            guard !g.isEmpty else { continue }
            // (A disc in the map's plane keeping its screen size is larger there far away.)
            let reach = (paint.radius + paint.strokeWidth + 1) * (paint.pitchesWithMap && !paint.scalesWithMap ? 4 : 1)
            p.forEachCopy(g, margin: reach, draw.translate) { (map: RotatedMap) in
                for i in 0..<(g.coordinates.count / 2) {
                    let f = map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1])
                    let w = ground.depth(f.x, f.y)
                    guard w > ground.near, w < ground.far else { continue }
                    if paint.pitchesWithMap {
                        drawPlaneCircle(paint, flat: f, scale: paint.scalesWithMap ? 1 : w / ctc, ground, inverse, t)
                    } else {
                        drawCircle(paint, at: ground.apply(f.x, f.y), t, scale: paint.scalesWithMap ? ctc / w : 1)
                    }
                }
            }
        }
    }

    /// A circle lying in the map's plane: each pixel taken back to the flat screen and shaded
    /// by its distance there from the centre `c` (a disc of the circle's size x `k` there).
    private func drawPlaneCircle(_ paint: CirclePaint, flat c: Point, scale k: Double, _ g: GroundProjection, _ inv: PlaneInverse,
                                 _ t: RenderTarget) {
        let size = paint.radius + paint.strokeWidth
        guard size > 0 else { return }
        let outer = size * k
        // Its box on screen: the flat square around it projected (all of it in front of the camera).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(c.x - outer, c.y - outer), (c.x + outer, c.y - outer), (c.x - outer, c.y + outer), (c.x + outer, c.y + outer)] {
            guard g.depth(x, y) > g.near else { return }
            let s = g.apply(x, y)
            minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
        }
        guard let xs = pixelSpan(minX, maxX, in: 0..<t.pixmap.width), let ys = pixelSpan(minY, maxY, in: t.rows) else { return }
        let shade = PlaneCircleShade(paint)
        let invOuter = 1 / outer
        let buf = t.pixmap.buffer, width = t.pixmap.width
        for y in ys {
            for x in xs {
                let f = inv.apply(Double(x) + 0.5, Double(y) + 0.5)
                let dx = (f.x - c.x) * invOuter, dy = (f.y - c.y) * invOuter
                let i = y * width + x
                shade.blend(dx * dx + dy * dy, &buf[i])
            }
        }
    }
}

/// A circle's colour at a distance from its centre, for circles shaded pixel by pixel from a
/// place found on their plane (MapLibre's circle fragment shader).
struct PlaneCircleShade {
    let fill: SIMD4<Double>, stroke: SIMD4<Double>
    let inner: Double, aaBlur: Double, invBlur: Double
    let stroked: Bool

    init(_ paint: CirclePaint) {
        let size = paint.radius + paint.strokeWidth
        aaBlur = max(1 / max(size, 1e-9), paint.blur); inner = paint.radius / max(size, 1e-9)
        invBlur = 1 / aaBlur
        fill = premultipliedFloats(paint.color, paint.opacity)
        stroke = premultipliedFloats(paint.strokeColor, paint.strokeOpacity)
        stroked = paint.strokeWidth >= 0.01
    }

    /// Blends the circle's colour at `len2` (the squared distance from its centre in outer
    /// radii) over `pixel`; nothing past the edge.
    @inline(__always) func blend(_ len2: Double, _ pixel: inout UInt32) {
        guard len2 <= 1 else { return }
        let len = len2.squareRoot()
        let opacity = smoothstep01((1 - len) * invBlur)
        let px = stroked ? opacity * (fill + (stroke - fill) * smoothstep01((len - inner + aaBlur) * invBlur)) : opacity * fill
        pixel = Blend.over(packPremultiplied(px), pixel)
    }
}

/// The pitched screen back onto the flat screen (the inverse of a ground projection).
struct PlaneInverse {
    let m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init?(_ g: GroundProjection) {
        let (a, b, c, d, e, f, gg, h, i) = g.m
        let det = a * (e * i - f * h) - b * (d * i - f * gg) + c * (d * h - e * gg)
        guard det != 0, det.isFinite else { return nil }
        m = ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
             (f * gg - d * i) / det, (a * i - c * gg) / det, (c * d - a * f) / det,
             (d * h - e * gg) / det, (b * gg - a * h) / det, (a * e - b * d) / det)
    }

    @inline(__always) func apply(_ x: Double, _ y: Double) -> Point {
        let w = m.6 * x + m.7 * y + m.8
        return Point((m.0 * x + m.1 * y + m.2) / w, (m.3 * x + m.4 * y + m.5) / w)
    }
}
