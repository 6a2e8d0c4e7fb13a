import Foundation
import MapCore
import MapData
import Raster

/// Symbol layers: sprite and SDF icons sampled through their turn, and vector icons (style images
/// drawn from paths) filled after their transform.
extension FrameRenderer {
    /// An icon: its image placed by the anchor and offset, turned about its point, sampled
    /// exactly or bilinearly; an SDF icon shaded by its distance field (halo, then colour).
    func drawIcon(_ paint: IconPaint, at point: Point, _ pixmap: Pixmap) {
        let image = paint.icon.image
        guard paint.opacity > 0 else { return }
        let s = paint.scale
        let w = Double(image.width) * s, h = Double(image.height) * s
        let f = paint.anchor.fraction
        // Icon-space box corner relative to the point, before rotation.
        let left = -w * f.x + paint.offset.x, top = -h * f.y + paint.offset.y
        let angle = paint.rotate * Double.pi / 180
        let cosA = cos(angle), sinA = sin(angle)
        // Screen bounds of the rotated box.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (u, v) in [(left, top), (left + w, top), (left, top + h), (left + w, top + h)] {
            let x = point.x + u * cosA - v * sinA, y = point.y + u * sinA + v * cosA
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard let xs = pixelSpan(minX, maxX, in: 0..<pixmap.width), let ys = pixelSpan(minY, maxY, in: rows) else { return }
        let buf = pixmap.buffer
        let src = image.buffer
        let iw = image.width, ih = image.height
        // SDF shading (the reference engines' symbol shader: buffer 0.75, edge gamma 0.105 / ratio).
        let gamma = 0.105 / paint.pixelRatio / max(paint.size, 1e-6)
        let haloGamma = (paint.haloBlur / paint.pixelRatio * 1.19 / 8 + 0.105 / paint.pixelRatio) / max(paint.size, 1e-6)
        let haloBuffer = (6 - paint.haloWidth / paint.pixelRatio / max(paint.size, 1e-6)) / 8
        let fillColor = premultipliedFloats(paint.color, paint.opacity)
        let haloColor = premultipliedFloats(paint.haloColor, paint.opacity)
        for y in ys {
            for x in xs {
                // Screen pixel centre back into image pixels.
                let dx = Double(x) + 0.5 - point.x, dy = Double(y) + 0.5 - point.y
                let u = (dx * cosA + dy * sinA - left) / s, v = (-dx * sinA + dy * cosA - top) / s
                guard u >= 0, v >= 0, u < Double(iw), v < Double(ih) else { continue }
                let i = y * pixmap.width + x
                if paint.icon.sdf {
                    let d = Double(bilinear(src, iw, ih, u, v) >> 24) / 255
                    if paint.haloWidth > 0 && paint.haloColor.a > 0 {
                        let a = smoothstep(haloBuffer - haloGamma, haloBuffer + haloGamma, d)
                        if a > 0 { buf[i] = Blend.over(packPremultiplied(haloColor.map { $0 * a }), buf[i]) }
                    }
                    let a = smoothstep(0.75 - gamma, 0.75 + gamma, d)
                    if a > 0 { buf[i] = Blend.over(packPremultiplied(fillColor.map { $0 * a }), buf[i]) }
                } else {
                    var c = paint.smooth ? bilinear(src, iw, ih, u, v) : src[Int(v) * iw + Int(u)]
                    if paint.opacity < 1 { c = Blend.scale(c, UInt32((paint.opacity * 256).rounded())) }
                    if c >> 24 != 0 { buf[i] = Blend.over(c, buf[i]) }
                }
            }
        }
    }

    /// Bilinear sample of a premultiplied image at image coordinates (u, v) (pixel centres at +0.5).
    /// Outside the image is transparent, as the transparent padding around each icon in the
    /// reference engines' atlas is: edges fade over half a texel.
    func bilinear(_ src: UnsafeMutableBufferPointer<UInt32>, _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> UInt32 {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> UInt32 { x < 0 || y < 0 || x >= w || y >= h ? 0 : src[y * w + x] }
        var out: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            func ch(_ p: UInt32) -> Double { Double(p >> UInt32(shift) & 255) }
            let top = ch(at(x0, y0)) * (1 - tx) + ch(at(x0 + 1, y0)) * tx
            let bottom = ch(at(x0, y0 + 1)) * (1 - tx) + ch(at(x0 + 1, y0 + 1)) * tx
            out |= UInt32(min(255, max(0, (top * (1 - ty) + bottom * ty).rounded()))) << UInt32(shift)
        }
        return out
    }

    /// A vector icon at `point`: its shapes filled (non-zero) after scaling, moving its anchor
    /// to the point, shifting by the offset and turning by `rotate` about the point.
    func drawVectorIcon(_ paint: VectorIconPaint, at point: Point, _ pixmap: Pixmap) {
        let icon = paint.icon
        let reach = paint.reach
        guard paint.opacity > 0, point.x > -reach, point.x < Double(pixmap.width) + reach,
              point.y > Double(rows.lowerBound) - reach, point.y < Double(rows.upperBound) + reach else { return }
        let a = paint.anchor.fraction
        var t = Transform.translation(point.x, point.y).concatenating(.rotation(paint.rotate * Double.pi / 180))
        if paint.offset.x != 0 || paint.offset.y != 0 { t = t.concatenating(.translation(paint.offset.x, paint.offset.y)) }
        t = t.concatenating(.scale(paint.scale, paint.scale)).concatenating(.translation(-a.x * icon.width, -a.y * icon.height))
        // The icon's outline is rebuilt in a path kept between frames.
        var path = Path()
        swap(&path, &symbolPath)
        defer { swap(&path, &symbolPath) }
        for shape in icon.shapes {
            path.removeAll()
            for c in shape.commands {
                switch c {
                case let .move(x, y): path.moveTo(t.apply(Point(x, y)))
                case let .line(x, y): path.lineTo(t.apply(Point(x, y)))
                case let .cubic(x1, y1, x2, y2, x, y):
                    path.cubicTo(t.apply(Point(x1, y1)), t.apply(Point(x2, y2)), t.apply(Point(x, y)))
                case let .quad(x1, y1, x, y): path.quadTo(t.apply(Point(x1, y1)), t.apply(Point(x, y)))
                case .close: path.close()
                }
            }
            path.replay(into: &rasterizer)
            let c = shape.color, light = paint.light
            let lit = MapCore.Color(r: c.r * light.r, g: c.g * light.g, b: c.b * light.b, a: c.a)
            rasterizer.fill(pixmap, color: lit.premultiplied(opacity: paint.opacity), rule: .nonZero)
        }
    }
}
