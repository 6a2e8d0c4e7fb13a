import MapCore
import MapData
import Raster

/// Symbol layers: vector icons at points, and the edge marker for icons out of sight.
extension FrameRenderer {
    /// Each feature's icon: its shapes filled (non-zero) after scaling by `icon-size`, rotating by
    /// `icon-rotate` (plus the feature's bearing when asked, a compass heading: minus the map's
    /// bearing on screen) about the anchor, and moving the anchor onto the point; in every world
    /// copy the viewport shows.
    func drawSymbols(_ draw: FrameDescription.SymbolDraw, _ paint: SymbolPaint, _ p: Placement, _ pixmap: Pixmap) {
        let icon = draw.icon
        let size = paint.iconSize
        let a = paint.iconAnchor.fraction
        let reach = (icon.width * icon.width + icon.height * icon.height).squareRoot() * size
        let viewHeight = Double(p.viewHeight)
        for feature in draw.features {
            let mx = WebMercator.x(lng: feature.position.lng), my = WebMercator.y(lat: feature.position.lat)
            let rotation = (paint.iconRotate + (paint.rotateWithBearing ? feature.bearing - p.bearing : 0)) * Double.pi / 180
            let first = Int((p.visible.minX - mx - reach / p.world).rounded(.down))
            let last = Int((p.visible.maxX - mx + reach / p.world).rounded(.up))
            if paint.edgeMarker {
                // The copy nearest the view centre; when it is out of the window, an arrow at the edge.
                let cx = Double(pixmap.width) / 2
                var sx = mx * p.world + p.ox
                let shift = ((cx - sx) / p.world).rounded()
                sx += shift * p.world
                var sy = my * p.world + p.oy
                if p.turn != nil { let q = p.turned(sx, sy); sx = q.x; sy = q.y }
                if sx < 0 || sx > Double(pixmap.width) || sy < 0 || sy > viewHeight {
                    drawEdgeArrow(towards: Point(sx, sy), width: Double(pixmap.width), height: viewHeight,
                                  color: icon.shapes.first?.color ?? .white, light: draw.light, scale: draw.pixelRatio, pixmap)
                }
            }
            for copy in first...max(first, last) {
                var sx = (mx + Double(copy)) * p.world + p.ox, sy = my * p.world + p.oy
                if p.turn != nil { let q = p.turned(sx, sy); sx = q.x; sy = q.y }
                guard sx > -reach, sx < Double(pixmap.width) + reach,
                      sy > Double(rows.lowerBound) - reach, sy < Double(rows.upperBound) + reach else { continue }
                let t = Transform.translation(sx, sy)
                    .concatenating(.rotation(rotation))
                    .concatenating(.scale(size, size))
                    .concatenating(.translation(-a.x * icon.width, -a.y * icon.height))
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
                    let c = shape.color
                    let lit = MapCore.Color(r: c.r * draw.light.r, g: c.g * draw.light.g, b: c.b * draw.light.b, a: c.a)
                    rasterizer.fill(pixmap, color: lit.premultiplied(opacity: paint.iconOpacity), rule: .nonZero)
                }
            }
        }
    }

    /// A 14-px arrow 10 px inside the window's edge, on the line from the centre to `target`.
    /// An arrow 14 CSS pixels long (`scale` device pixels each) just inside the window's edge,
    /// pointing from the centre towards `target`.
    func drawEdgeArrow(towards target: Point, width: Double, height: Double, color: MapCore.Color, light: MapCore.Color,
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
        let lit = MapCore.Color(r: color.r * light.r, g: color.g * light.g, b: color.b * light.b, a: 0.9)
        rasterizer.fill(pixmap, color: lit.premultiplied(opacity: 1), rule: .nonZero)
    }
}
