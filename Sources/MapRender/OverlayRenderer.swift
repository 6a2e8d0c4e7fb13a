import Foundation
import MapCore
import Raster

/// The overlay: an app's screen-space items (text, boxes, shapes, strokes, the compass) drawn
/// over the map in the order given. Its text comes from the labels' sprites.
final class OverlayRenderer {
    private let labels: LabelSprites
    private var stroker = Stroker()

    init(labels: LabelSprites) { self.labels = labels }

    /// `frame`: the renderer's frame count (the label cache's clock).
    func draw(_ overlay: Overlay, _ t: RenderTarget, _ rasterizer: inout Rasterizer, frame: Int) {
        let pixmap = t.pixmap
        for item in overlay.items {
            switch item {
            case let .text(text):
                drawText(text, t, frame: frame)
            case let .box(b, color):
                pixmap.fillBox(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, color: color, rows: t.rows)
            case let .shape(contours, color, rule):
                for c in contours { Self.addPolygon(c, &rasterizer) }
                rasterizer.fill(pixmap, color: color, rule: rule)
            case let .stroke(points, style, color):
                points.withUnsafeBufferPointer { stroker.stroke($0, closed: false, style: style, into: &rasterizer) }
                rasterizer.fill(pixmap, color: color)
            case let .compass(area, bearing, color):
                drawCompass(area, bearing: bearing, text: color, pixmap, &rasterizer)
            }
        }
    }

    /// A line of text over its halo, from the labels' cached masks.
    private func drawText(_ text: OverlayText, _ t: RenderTarget, frame: Int) {
        labels.draw(text.text, font: text.font, size: text.size, haloWidth: text.haloWidth, halo: text.halo, text: text.color,
                    at: Point(text.x, text.baseline), frame: frame, t)
    }

    /// A closed polygon into the rasterizer (no path: nothing allocated).
    private static func addPolygon(_ points: [Point], _ rasterizer: inout Rasterizer) {
        guard let first = points.first else { return }
        rasterizer.moveTo(first)
        for p in points.dropFirst() { rasterizer.lineTo(p) }
        rasterizer.close()
    }

    /// The compass: a disc with a needle whose red half points north on screen.
    private func drawCompass(_ area: CompassArea, bearing: Double, text: PremultipliedColor, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
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
