import Foundation
import MapCore
import MapData
import Raster

/// Text: labels and the overlay (attribution, status line, scale bar, help).
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
            labelSprite(s, paint: ui, halo: halo, text: color).composite(onto: pixmap, x: px, y: py, rows: rows)
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

    /// One label's text over its halo in the given colours, from its cached masks; the sprite is
    /// made again only when the colours change.
    func labelSprite(_ text: String, paint: TextPaint, halo: PremultipliedColor, text color: PremultipliedColor) -> MaskSprite {
        let entry = labelMasks(text, paint: paint)
        if let s = entry.sprite, s.underColor == halo.packed, s.overColor == color.packed { return s }
        let before = entry.bytes
        let sprite = MaskSprite(under: entry.halo, halo, over: entry.text, color)
        entry.sprite = sprite
        maskBytes += entry.bytes - before
        return sprite
    }

    /// The text and halo masks of one label (cached by text, font and paint). Each label's text
    /// and halo are rasterized once into two coverage masks (glyph outlines filled by our
    /// rasterizer; the halo grown from that coverage), composited together in their colours once
    /// (a `MaskSprite`), and that drawn at whole pixels every frame.
    func labelMasks(_ text: String, paint: TextPaint) -> MaskEntry {
        let font = paint.font
        let key = LabelKey(text: text, font: ObjectIdentifier(font), size: paint.size, halo: paint.haloWidth, spacing: paint.letterSpacing)
        if let m = maskCache[key] {
            m.lastUsed = frameNumber
            return m
        }
        let (ascent, descent) = font.metrics(size: paint.size)
        let pad = (paint.haloWidth + 1).rounded(.up)
        let width = font.width(text, size: paint.size, letterSpacing: paint.letterSpacing)
        let w = Int((width + 2 * pad).rounded(.up)) + 1, h = Int((ascent + descent + 2 * pad).rounded(.up)) + 1
        var r = Rasterizer(width: w, height: h)
        defer { r.deallocate() }
        var textAlpha = [UInt8](repeating: 0, count: w * h)
        Self.forEachGlyph(text, origin: Point(pad, pad + ascent), paint: paint) { path, pen in
            path.replay(into: &r, transform: .translation(pen.x, pen.y))
        }
        textAlpha.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m) } }
        let haloAlpha = AlphaMask.dilated(textAlpha, width: w, height: h, radius: paint.haloWidth)
        let entry = MaskEntry(text: AlphaMask(width: w, height: h, alpha: textAlpha),
                              halo: AlphaMask(width: w, height: h, alpha: haloAlpha), lastUsed: frameNumber)
        // (Room for the sprite too, made next.)
        if maskBytes + (2 + MaskSprite.bytesPerPixel) * w * h > FrameRenderer.maskBudget && lastEviction != frameNumber {
            lastEviction = frameNumber
            evictMasks(keeping: FrameRenderer.maskBudget * 2 / 3)
        }
        maskCache[key] = entry
        maskBytes += entry.bytes
        return entry
    }

    /// Drops the least recently used label masks until at most `keeping` bytes remain, but never
    /// those drawn in this frame or the one before: memory stays bounded however far the camera
    /// wanders, and the labels on screen stay cached however many there are (a 1920x1080 view
    /// shows more than the budget holds; evicting them made every frame rasterize them again).
    /// At most once a frame.
    func evictMasks(keeping: Int) {
        // When everything cached was drawn just now there is nothing to drop: no sort then.
        guard maskCache.values.contains(where: { $0.lastUsed < frameNumber - 1 }) else { return }
        let byAge = maskCache.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, entry) in byAge where maskBytes > keeping && entry.lastUsed < frameNumber - 1 {
            maskCache[key] = nil
            maskBytes -= entry.bytes
        }
    }

    /// Calls `body` with each glyph's outline and its pen position, the text's baseline starting at `origin`.
    static func forEachGlyph(_ text: String, origin: Point, paint: TextPaint, _ body: (Path, Point) -> Void) {
        let font = paint.font
        var x = origin.x
        var previous: Unicode.Scalar?
        for u in text.unicodeScalars {
            if let p = previous { x += font.kerning(p, u, size: paint.size) }
            if let g = font.glyph(u, size: paint.size) {
                body(g.path, Point(x, origin.y))
                x += g.advance + paint.letterSpacing
            } else {
                x += paint.size * 0.5 + paint.letterSpacing
            }
            previous = u
        }
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
