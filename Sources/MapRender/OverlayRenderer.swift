import Foundation
import MapCore
import Raster

/// The overlay: an app's screen-space items (text, boxes, shapes, strokes, the compass) drawn
/// over the map in the order given.
extension FrameRenderer {
    func drawOverlay(_ overlay: Overlay, _ pixmap: Pixmap) {
        for item in overlay.items {
            switch item {
            case let .text(t):
                drawOverlayText(t, pixmap)
            case let .box(b, color):
                fillRect(b, color, pixmap)
            case let .shape(contours, color, rule):
                for c in contours { addPolygon(c) }
                rasterizer.fill(pixmap, color: color, rule: rule)
            case let .stroke(points, style, color):
                points.withUnsafeBufferPointer { stroker.stroke($0, closed: false, style: style, into: &rasterizer) }
                rasterizer.fill(pixmap, color: color)
            case let .compass(area, bearing, color):
                drawCompass(area, bearing: bearing, text: color, pixmap)
            }
        }
    }

    /// A line of text over its halo, from the labels' cached masks, at whole pixels.
    func drawOverlayText(_ t: OverlayText, _ pixmap: Pixmap) {
        let paint = TextPaint(font: t.font, size: t.size, haloWidth: t.haloWidth)
        let ascent = t.font.metrics(size: t.size).ascent
        let pad = (t.haloWidth + 1).rounded(.up)
        let x = Int((t.x - pad).rounded()), y = Int((t.baseline - ascent - pad).rounded())
        labels.sprite(t.text, paint: paint, halo: t.halo, text: t.color, frame: frameNumber).composite(onto: pixmap, x: x, y: y, rows: rows)
    }

    /// Fills a screen box with a colour (its edge pixels by the area they cover).
    func fillRect(_ b: FrameDescription.ScreenBox, _ color: PremultipliedColor, _ pixmap: Pixmap) {
        pixmap.fillBox(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, color: color, rows: rows)
    }

    /// A closed polygon into the rasterizer (no path: nothing allocated).
    private func addPolygon(_ points: [Point]) {
        guard let first = points.first else { return }
        rasterizer.moveTo(first)
        for p in points.dropFirst() { rasterizer.lineTo(p) }
        rasterizer.close()
    }

    /// The compass: a disc with a needle whose red half points north on screen.
    func drawCompass(_ area: CompassArea, bearing: Double, text: PremultipliedColor, _ pixmap: Pixmap) {
        let c = Point(area.x, area.y), r = area.radius
        Geometry.circle(center: c, radius: r, into: &rasterizer)        // (straight in: no path allocated)
        rasterizer.fill(pixmap, color: RGBA8(44, 54, 68, 235).premultiplied)     // lighter than the night map
        // North on screen: the map is turned counter-clockwise by the bearing.
        let a = bearing * Double.pi / 180
        let north = Point(-sin(a), -cos(a)), side = Point(cos(a), -sin(a))
        let w = 0.22 * r
        func half(_ end: Point, _ color: PremultipliedColor) {
            rasterizer.moveTo(end); rasterizer.lineTo(c + side * w); rasterizer.lineTo(c - side * w); rasterizer.close()
            rasterizer.fill(pixmap, color: color)
        }
        half(c + north * (0.75 * r), RGBA8(230, 70, 60, 255).premultiplied)
        half(c - north * (0.75 * r), text)
    }
}
