import Foundation
import MapCore
import Raster

/// Circle layers: a disc of the radius ringed by the stroke, blurred at its edge.
extension FrameRenderer {
    /// A circle as the reference engines shade it: a disc of `radius` ringed by the stroke, the
    /// edge faded over max(1 px, blur x radius) with a smoothstep, colours mixed premultiplied.
    func drawCircle(_ paint: CirclePaint, at c: Point, _ pixmap: Pixmap) {
        let outer = paint.radius + paint.strokeWidth
        guard outer > 0 else { return }
        let aaBlur = max(1 / outer, paint.blur)
        let inner = paint.radius / outer
        let fill = premultipliedFloats(paint.color, paint.opacity)
        let stroke = premultipliedFloats(paint.strokeColor, paint.strokeOpacity)
        guard let xs = pixelSpan(c.x - outer, c.x + outer, in: 0..<pixmap.width),
              let ys = pixelSpan(c.y - outer, c.y + outer, in: rows) else { return }
        let buf = pixmap.buffer
        for y in ys {
            let dy = (Double(y) + 0.5 - c.y) / outer
            for x in xs {
                let dx = (Double(x) + 0.5 - c.x) / outer
                let len = (dx * dx + dy * dy).squareRoot()
                guard len <= 1 else { continue }
                let opacity = smoothstep01((len - 1) / -aaBlur)
                let t = paint.strokeWidth < 0.01 ? 0 : smoothstep01((len - inner + aaBlur) / aaBlur)
                var px = SIMD4<Double>()
                for k in 0..<4 { px[k] = opacity * (fill[k] + (stroke[k] - fill[k]) * t) }
                let i = y * pixmap.width + x
                buf[i] = Blend.over(packPremultiplied(px), buf[i])
            }
        }
    }
}
