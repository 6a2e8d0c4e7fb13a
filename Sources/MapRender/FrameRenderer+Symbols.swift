import MapCore
import MapData
import Raster

/// Vector icons (style images drawn from paths), and the arrow at the window's edge that points
/// to a place out of sight.
extension FrameRenderer {
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

    /// The arrow of each off-screen marker whose place (the world copy nearest the window's
    /// centre) is out of the window.
    func drawOffscreenMarkers(_ markers: [FrameDescription.OffscreenMarker], _ view: ViewTransform, _ pixmap: Pixmap) {
        let width = Double(view.size.width), height = Double(view.size.height)
        for m in markers {
            let s = view.nearestScreen(m.target)
            guard s.x < 0 || s.x > width || s.y < 0 || s.y > height else { continue }
            drawEdgeArrow(towards: Point(s.x, s.y), width: width, height: height, color: m.color, scale: m.scale, pixmap)
        }
    }

    /// An arrow 14 CSS pixels long (`scale` device pixels each) just inside the window's edge,
    /// pointing from the centre towards `target`.
    func drawEdgeArrow(towards target: Point, width: Double, height: Double, color: MapCore.Color,
                       scale k: Double = 1, _ pixmap: Pixmap) {
        let c = Point(width / 2, height / 2)
        let d = target - c
        let len = d.length
        guard len > 0 else { return }
        let u = d * (1 / len)
        // Scale the direction to touch the inset rectangle.
        let inset = 14 * k
        let kx = u.x == 0 ? Double.infinity : (width / 2 - inset) / abs(u.x)
        let ky = u.y == 0 ? Double.infinity : (height / 2 - inset) / abs(u.y)
        let tip = c + u * min(kx, ky, len)
        let n = Point(-u.y, u.x)
        rasterizer.moveTo(tip)
        rasterizer.lineTo(tip - u * (14 * k) + n * (7 * k))
        rasterizer.lineTo(tip - u * (10 * k))
        rasterizer.lineTo(tip - u * (14 * k) - n * (7 * k))
        rasterizer.close()
        rasterizer.fill(pixmap, color: color.premultiplied(opacity: 1), rule: .nonZero)
    }
}
