import Foundation
import MapCore
import Raster

/// Circle layers: a disc of the radius ringed by the stroke, blurred at its edge, for each point
/// of each feature.
final class CircleRenderLayer: RenderLayer {
    func draw(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if p.turn == nil { drawCircles(draw, p, t, AxisMap.self) } else { drawCircles(draw, p, t, RotatedMap.self) }
    }

    private func drawCircles<M: ScreenMap>(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ t: RenderTarget, _: M.Type) {
        for item in draw.items {
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

    /// A circle as the reference engines shade it: a disc of `radius` ringed by the stroke, the
    /// edge faded over max(1 px, blur x radius) with a smoothstep, colours mixed premultiplied.
    private func drawCircle(_ paint: CirclePaint, at c: Point, _ t: RenderTarget) {
        let outer = paint.radius + paint.strokeWidth
        guard outer > 0 else { return }
        let aaBlur = max(1 / outer, paint.blur)
        let inner = paint.radius / outer
        let fill = premultipliedFloats(paint.color, paint.opacity)
        let stroke = premultipliedFloats(paint.strokeColor, paint.strokeOpacity)
        guard let xs = pixelSpan(c.x - outer, c.x + outer, in: 0..<t.pixmap.width),
              let ys = pixelSpan(c.y - outer, c.y + outer, in: t.rows) else { return }
        let buf = t.pixmap.buffer
        for y in ys {
            let dy = (Double(y) + 0.5 - c.y) / outer
            for x in xs {
                let dx = (Double(x) + 0.5 - c.x) / outer
                let len = (dx * dx + dy * dy).squareRoot()
                guard len <= 1 else { continue }
                let opacity = smoothstep01((len - 1) / -aaBlur)
                let mix = paint.strokeWidth < 0.01 ? 0 : smoothstep01((len - inner + aaBlur) / aaBlur)
                var px = SIMD4<Double>()
                for k in 0..<4 { px[k] = opacity * (fill[k] + (stroke[k] - fill[k]) * mix) }
                let i = y * t.pixmap.width + x
                buf[i] = Blend.over(packPremultiplied(px), buf[i])
            }
        }
    }
}
