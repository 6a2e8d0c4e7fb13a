import Foundation
import MapCore
import MapData
import Raster

/// The overlay (attribution, status line, scale bar, help).
extension FrameRenderer {
    /// Attribution (bottom right), status line and scale bar (bottom left), where the overlay's
    /// layout puts them; the help panel (centre).
    func drawOverlay(_ o: Overlay, _ font: any TextFont, _ pixmap: Pixmap, height: Int) {
        let w = Double(pixmap.width), h = Double(height)
        let ui = TextPaint(font: font, size: o.layout?.text.textSize ?? OverlayLayout.textSize, color: Overlay.textColor,
                           haloColor: Overlay.haloColor, haloWidth: o.layout?.text.haloWidth ?? OverlayLayout.haloWidth)
        let (ascent, descent) = font.metrics(size: ui.size)
        let text = ui.color.premultiplied(opacity: 1)
        let halo = ui.haloColor.premultiplied(opacity: 0.9)
        let pad = (ui.haloWidth + 1).rounded(.up)
        func put(_ s: String, x: Double, baseline: Double, color: PremultipliedColor = text) {
            let px = Int((x - pad).rounded()), py = Int((baseline - ascent - pad).rounded())
            labels.sprite(s, paint: ui, halo: halo, text: color, frame: frameNumber).composite(onto: pixmap, x: px, y: py, rows: rows)
        }
        if let layout = o.layout {
            for line in layout.text.attribution { put(line.text, x: line.x, baseline: line.baseline) }
            if let status = layout.text.status { put(status.text, x: status.x, baseline: status.baseline) }
            if let scale = layout.scale {
                let tick = 5 * scale.ratio
                let bar = (Point(scale.x0, scale.y - tick), Point(scale.x0, scale.y), Point(scale.x1, scale.y), Point(scale.x1, scale.y - tick))
                withUnsafeBytes(of: bar) { raw in
                    let pts = raw.bindMemory(to: Point.self)
                    stroker.stroke(pts, closed: false, style: StrokeStyle(width: 4.5 * scale.ratio, cap: .square, join: .miter), into: &rasterizer)
                    rasterizer.fill(pixmap, color: halo)
                    stroker.stroke(pts, closed: false, style: StrokeStyle(width: 1.5 * scale.ratio, cap: .square, join: .miter), into: &rasterizer)
                    rasterizer.fill(pixmap, color: text)
                }
                put(scale.label.text, x: scale.label.x, baseline: scale.label.baseline)
            }
        }
        if let timeline = o.timeline, let t = o.layout?.timeline { drawTimeline(timeline, t, text: text, halo: halo, pixmap) }
        if let legend = o.legend, let l = o.layout?.legend {
            fillRect(l.panel, RGBA8(11, 16, 22, 204).premultiplied, pixmap)
            let span = legend.upTo - legend.from
            for (i, bin) in legend.bins.enumerated() {
                let end = i + 1 < legend.bins.count ? legend.bins[i + 1].from : legend.upTo
                let x0 = l.bar.minX + (max(bin.from, legend.from) - legend.from) / span * (l.bar.maxX - l.bar.minX)
                let x1 = l.bar.minX + (min(end, legend.upTo) - legend.from) / span * (l.bar.maxX - l.bar.minX)
                guard x1 > x0 else { continue }
                fillRect(.init(minX: x0, minY: l.bar.minY, maxX: x1, maxY: l.bar.maxY), bin.color.premultiplied(opacity: 1), pixmap)
            }
            let k = ui.size / OverlayLayout.textSize
            for tick in l.ticks {
                fillRect(.init(minX: tick.x - 0.5 * k, minY: l.bar.maxY, maxX: tick.x + 0.5 * k, maxY: l.bar.maxY + 3 * k), text, pixmap)
                put(tick.label.text, x: tick.label.x, baseline: tick.label.baseline)
            }
        }
        if let compass = o.compass { drawCompass(compass.area, bearing: compass.bearing, text: text, pixmap) }
        if let help = o.help {
            let k = ui.size / OverlayLayout.textSize        // device pixels per CSS pixel
            let lineHeight = (ascent + descent) * 1.5
            let widths = help.map { font.width($0, size: ui.size, letterSpacing: 0) }
            let pw = (widths.max() ?? 0) + 32 * k, ph = Double(help.count) * lineHeight + 28 * k
            let left = ((w - pw) / 2).rounded(), top = ((h - ph) / 2).rounded()
            var panel = Path()
            panel.addRect(Rect(minX: left, minY: top, maxX: left + pw, maxY: top + ph))
            panel.replay(into: &rasterizer)
            rasterizer.fill(pixmap, color: RGBA8(11, 16, 22, 242).premultiplied)
            for (i, line) in help.enumerated() {
                put(line, x: left + 16 * k, baseline: top + 14 * k + ascent + Double(i) * lineHeight)
            }
        }
    }

    /// The timeline's marks over a dark band: filled for slots with a frame, an outline for
    /// those without, the one shown taller.
    func drawTimeline(_ timeline: Overlay.Timeline, _ t: OverlayLayout.TimelineLayout, text: PremultipliedColor, halo: PremultipliedColor,
                      _ pixmap: Pixmap) {
        fillRect(t.box, halo, pixmap)
        for (i, filled) in timeline.filled.enumerated() {
            let x = t.x0 + Double(i) * t.step
            let h = i == timeline.current ? t.tall : t.short
            let mark = FrameDescription.ScreenBox(minX: x, minY: t.bottom - h, maxX: x + t.markWidth, maxY: t.bottom)
            if filled {
                fillRect(mark, text, pixmap)
            } else {
                addRect(mark)
                addRect(.init(minX: mark.minX + t.line, minY: mark.minY + t.line, maxX: mark.maxX - t.line, maxY: mark.maxY - t.line))
                rasterizer.fill(pixmap, color: text, rule: .evenOdd)
            }
        }
    }

    /// Fills a screen box with a colour (its edge pixels by the area they cover).
    func fillRect(_ b: FrameDescription.ScreenBox, _ color: PremultipliedColor, _ pixmap: Pixmap) {
        pixmap.fillBox(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, color: color, rows: rows)
    }

    /// A box's outline into the rasterizer (no path: nothing allocated).
    private func addRect(_ b: FrameDescription.ScreenBox) {
        rasterizer.moveTo(Point(b.minX, b.minY)); rasterizer.lineTo(Point(b.maxX, b.minY))
        rasterizer.lineTo(Point(b.maxX, b.maxY)); rasterizer.lineTo(Point(b.minX, b.maxY)); rasterizer.close()
    }

    /// The compass: a disc with a needle whose red half points north on screen.
    func drawCompass(_ area: CompassArea, bearing: Double, text: PremultipliedColor, _ pixmap: Pixmap) {
        let c = Point(area.x, area.y), r = area.radius
        var disc = Path()                   // (the symbols' path, kept between frames)
        swap(&disc, &symbolPath)
        defer { swap(&disc, &symbolPath) }
        disc.removeAll()
        disc.addCircle(center: c, radius: r)
        disc.replay(into: &rasterizer)
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
