import Foundation
import MapCore
import MapData
import Raster

/// Text: place labels and the overlay (attribution, status line, scale bar, help).
extension FrameRenderer {
    /// Attribution (bottom right), status line and scale bar (bottom left), where the overlay's
    /// layout puts them; the help panel (centre).
    func drawOverlay(_ o: Overlay, _ font: any TextFont, _ pixmap: Pixmap, height: Int) {
        let w = Double(pixmap.width), h = Double(height)
        var ui = LabelPaint(textSize: o.layout?.text.textSize ?? OverlayLayout.textSize)
        ui.haloWidth = o.layout?.text.haloWidth ?? OverlayLayout.haloWidth
        let (ascent, descent) = font.metrics(size: ui.textSize)
        let text = ui.textColor.premultiplied(opacity: 1)
        let halo = ui.haloColor.premultiplied(opacity: 0.9)
        let pad = (ui.haloWidth + 1).rounded(.up)
        func put(_ s: String, x: Double, baseline: Double, color: PremultipliedColor = text) {
            let px = Int((x - pad).rounded()), py = Int((baseline - ascent - pad).rounded())
            labelSprite(s, paint: ui, font: font, halo: halo, text: color).composite(onto: pixmap, x: px, y: py, rows: rows)
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
        if let compass = o.compass { drawCompass(compass.area, bearing: compass.bearing, text: text, pixmap) }
        if let help = o.help {
            let k = ui.textSize / OverlayLayout.textSize        // device pixels per CSS pixel
            let lineHeight = (ascent + descent) * 1.5
            let widths = help.map { LabelPlacer.advance($0, font: font, paint: ui) }
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

    /// Labels: each label's text and halo are rasterized once into two coverage masks (glyph
    /// outlines filled by our rasterizer; the halo grown from that coverage), composited together
    /// in their colours once (a `MaskSprite`), and that drawn at whole pixels every frame; dots
    /// are drawn from two cached masks. Placement is kept while the view stays put.
    func drawLabels(_ layerIndex: Int, _ draw: FrameDescription.LabelDraw, _ paint: LabelPaint, _ font: any TextFont,
                            _ frame: FrameDescription, _ pixmap: Pixmap) {
        // All label layers are placed together, once per view and set of label layers.
        if !placementIsShared && !labelPlacement.isCurrent(for: frame) { labelPlacement.place(frame) }
        let labels = labelPlacement.labels(layer: layerIndex)
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound)
        @inline(__always) func visible(_ l: PlacedLabel) -> Bool { l.box.maxY >= top && l.box.minY <= bottom }
        let lit = { (c: MapCore.Color) in MapCore.Color(r: c.r * draw.light.r, g: c.g * draw.light.g, b: c.b * draw.light.b, a: c.a) }
        let haloColor = lit(paint.haloColor).premultiplied(opacity: 0.9)
        let textColor = lit(paint.textColor).premultiplied(opacity: 1)
        // Dots and their halos, at whole pixels like the text beside them. Every placed label's
        // dot (composite clips it to this band's rows): a dot can lie in a band its text does not
        // reach, when the text sits above or below it.
        if paint.dotRadius > 0 {
            let dot = dotMasks(paint)
            for label in labels {
                guard let d = label.dot else { continue }
                let x = Int((d.x - dot.centre).rounded()), y = Int((d.y - dot.centre).rounded())
                AlphaMask.composite(dot.halo, haloColor, dot.dot, textColor, onto: pixmap, x: x, y: y, rows: rows)
            }
        }
        // Text: halo masks under text masks.
        let (ascent, _) = font.metrics(size: paint.textSize)
        let pad = (paint.haloWidth + 1).rounded(.up)
        for label in labels where visible(label) {
            let x = Int((label.origin.x - pad).rounded()), y = Int((label.origin.y - ascent - pad).rounded())
            labelSprite(label.text, paint: paint, font: font, halo: haloColor, text: textColor).composite(onto: pixmap, x: x, y: y, rows: rows)
        }
    }

    /// A label dot and its halo as two masks of one size, the dot's centre `centre` px from their
    /// top-left corner (a pixel's centre), drawn once per paint.
    func dotMasks(_ paint: LabelPaint) -> (dot: AlphaMask, halo: AlphaMask, centre: Double) {
        let key = DotKey(radius: paint.dotRadius, halo: paint.haloWidth)
        if let m = dotCache, m.key == key { return m.masks }
        let outer = max(0, min(paint.dotRadius + paint.haloWidth, 64))
        let size = Int((2 * outer).rounded(.up)) + 3
        let centre = Double(size / 2) + 0.5
        var r = Rasterizer(width: size, height: size)
        defer { r.deallocate() }
        var halo = [UInt8](repeating: 0, count: size * size), dot = halo
        Geometry.circle(center: Point(centre, centre), radius: outer, into: &r)
        halo.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m) } }
        Geometry.circle(center: Point(centre, centre), radius: min(paint.dotRadius, 64), into: &r)
        dot.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m) } }
        let masks = (AlphaMask(width: size, height: size, alpha: dot), AlphaMask(width: size, height: size, alpha: halo), centre)
        dotCache = (key, masks)
        return masks
    }

    /// One label's text over its halo in the given colours, from its cached masks; the sprite is
    /// made again only when the colours change.
    func labelSprite(_ text: String, paint: LabelPaint, font: any TextFont, halo: PremultipliedColor, text color: PremultipliedColor) -> MaskSprite {
        let entry = labelMasks(text, paint: paint, font: font)
        if let s = entry.sprite, s.underColor == halo.packed, s.overColor == color.packed { return s }
        let before = entry.bytes
        let sprite = MaskSprite(under: entry.halo, halo, over: entry.text, color)
        entry.sprite = sprite
        maskBytes += entry.bytes - before
        return sprite
    }

    /// The text and halo masks of one label (cached by text and paint).
    func labelMasks(_ text: String, paint: LabelPaint, font: any TextFont) -> MaskEntry {
        let key = LabelKey(text: text, size: paint.textSize, halo: paint.haloWidth, spacing: paint.letterSpacing)
        if let m = maskCache[key] {
            m.lastUsed = frameNumber
            return m
        }
        let (ascent, descent) = font.metrics(size: paint.textSize)
        let pad = (paint.haloWidth + 1).rounded(.up)
        let width = LabelPlacer.advance(text, font: font, paint: paint)
        let w = Int((width + 2 * pad).rounded(.up)) + 1, h = Int((ascent + descent + 2 * pad).rounded(.up)) + 1
        let origin = PlacedLabel(text: text, kind: .city, dot: nil, origin: Point(pad, pad + ascent),
                                 box: .init(minX: 0, minY: 0, maxX: 0, maxY: 0))
        var r = Rasterizer(width: w, height: h)
        defer { r.deallocate() }
        var textAlpha = [UInt8](repeating: 0, count: w * h)
        LabelPlacer.forEachGlyph(origin, font: font, paint: paint) { path, pen in
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
