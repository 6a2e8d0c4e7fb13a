import Foundation
import MapCore
import Raster

/// Circle layers: a disc of the radius ringed by the stroke, blurred at its edge, for each point
/// of each feature.
final class CircleRenderLayer: RenderLayer {
    func draw(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if let ground = p.ground { drawPitchedCircles(draw, p, ground, t); return }
        if let sphere = p.sphere { drawGlobeCircles(draw, p, sphere, t); return }
        if p.turn == nil { drawCircles(draw, p, t, AxisMap.self) } else { drawCircles(draw, p, t, RotatedMap.self) }
    }

    private func drawCircles<M: ScreenMap>(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ t: RenderTarget, _: M.Type) {
        let items = draw.items, ahead = M(p, copy: 0, translate: draw.translate)
        for (k, item) in items.enumerated() {
            if k + featurePrefetchDistance < items.count {
                t.pixmap.prefetch(items[k + featurePrefetchDistance].geometry, ahead, reach: 3, rows: t.rows)
            }
            let g = item.geometry, paint = item.paint
            guard !g.isEmpty else { continue }
            let reach = paint.radius + paint.strokeWidth + 1
            p.forEachCopy(g, margin: reach, draw.translate) { (map: M) in
                for i in 0..<(g.coordinates.count / 2) {
                    drawCircle(paint, at: map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1]), t)
                }
            }
        }
    }

    /// On the globe, as MapLibre's circle shader draws them there: a circle facing the viewer
    /// (`circle-pitch-alignment` viewport) is a disc on screen at its point's place, of its
    /// radius x ctc / w (or of its radius with `circle-pitch-scale` viewport); one lying on the
    /// map (alignment map) is drawn on its square laid on the sphere (`drawSphereCircle`),
    /// grown by w / ctc with pitch-scale viewport (while the globe blends into Mercator, past
    /// zoom 11, it faces the viewer). None whose centre is on the far side. (ctc: the depth of
    /// the sphere's point at the screen's centre; w: the point's.)
    private func drawGlobeCircles(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ sphere: SphereProjection, _ t: RenderTarget) {
        let map = RotatedMap(p, copy: 0, translate: draw.translate)
        guard let ctc = sphere.centreDepth, ctc > 0 else { return }
        let centre = Point(Double(t.pixmap.width) / 2, Double(p.viewHeight) / 2)
        let perPixel = sphere.anglePerPixel(atFlat: centre)
        for item in draw.items {
            let g = item.geometry, paint = item.paint
            for i in 0..<(g.coordinates.count / 2) {
                let flat = map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1])
                let m = sphere.mercator(flat)
                let v = SphereProjection.unit(m.x, m.y)
                guard sphere.side(v) >= 0 else { continue }
                let w = sphere.depth(v)
                if paint.pitchesWithMap && sphere.globeness >= 1 {
                    let angle = perPixel * (paint.radius + paint.strokeWidth) * (paint.scalesWithMap ? 1 : w / ctc)
                    drawSphereCircle(paint, centre: v, angle: angle, sphere, t)
                } else {
                    drawCircle(paint, at: sphere.screen(v, flat: flat), t, scale: paint.scalesWithMap ? ctc / w : 1)
                }
            }
        }
    }

    /// A circle lying on the globe: MapLibre's tessellated square about its centre
    /// (`SphereQuad`), each pixel shaded by the extrusion interpolated there.
    private func drawSphereCircle(_ paint: CirclePaint, centre c: SIMD3<Double>, angle: Double, _ sphere: SphereProjection, _ t: RenderTarget) {
        guard let quad = SphereQuad(centre: c, angle: angle, on: sphere) else { return }
        let shade = PlaneCircleShade(paint)
        let buf = t.pixmap.buffer, width = t.pixmap.width
        quad.forEachPixel(rows: t.rows, columns: 0..<width) { x, y, ex, ey in
            shade.blend(ex * ex + ey * ey, &buf[y * width + x])
        }
    }

    /// A circle as the reference engines shade it: a disc of `radius` ringed by the stroke, the
    /// edge faded over max(1 px, blur x radius) with a smoothstep, colours mixed premultiplied.
    /// (Pixels inside the fade and the stroke's start take the fill as it is, and pixels beyond
    /// the radius are left, both found by squared distance: only the fading ring is shaded.)
    /// `scale`: the circle drawn that much larger on screen (a pitched map's depth), its edge's
    /// fade as at its own size (MapLibre's antialiasing blur is 1 / its radius in pixels).
    func drawCircle(_ paint: CirclePaint, at c: Point, _ t: RenderTarget, scale: Double = 1) {
        let size = paint.radius + paint.strokeWidth
        guard size > 0 else { return }
        let aaBlur = max(1 / size, paint.blur)
        let inner = paint.radius / size
        let outer = size * scale
        let fill = premultipliedFloats(paint.color, paint.opacity)
        let stroke = premultipliedFloats(paint.strokeColor, paint.strokeOpacity)
        guard let xs = pixelSpan(c.x - outer, c.x + outer, in: 0..<t.pixmap.width),
              let ys = pixelSpan(c.y - outer, c.y + outer, in: t.rows) else { return }
        let stroked = paint.strokeWidth >= 0.01
        // Within `solid` of the centre (in radii) opacity is 1 and the stroke's mix 0.
        let solid = stroked ? min(1 - aaBlur, inner - aaBlur) : 1 - aaBlur
        let solidSquared = solid > 0 ? solid * solid : -1
        let fillPacked = packPremultiplied(fill)
        let invOuter = 1 / outer, invBlur = 1 / aaBlur
        let buf = t.pixmap.buffer, width = t.pixmap.width
        for y in ys {
            let dy = (Double(y) + 0.5 - c.y) * invOuter
            let dy2 = dy * dy
            guard dy2 <= 1 else { continue }
            let row = y * width
            for x in xs {
                let dx = (Double(x) + 0.5 - c.x) * invOuter
                let len2 = dx * dx + dy2
                guard len2 <= 1 else { continue }
                let i = row + x
                if len2 <= solidSquared {
                    buf[i] = Blend.over(fillPacked, buf[i])
                    continue
                }
                let len = len2.squareRoot()
                let opacity = smoothstep01((1 - len) * invBlur)
                let px: SIMD4<Double>
                if stroked {
                    let mix = smoothstep01((len - inner + aaBlur) * invBlur)
                    px = opacity * (fill + (stroke - fill) * mix)
                } else {
                    px = opacity * fill
                }
                buf[i] = Blend.over(packPremultiplied(px), buf[i])
            }
        }
    }
}
