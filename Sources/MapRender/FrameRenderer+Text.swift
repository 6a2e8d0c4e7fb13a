import Foundation
import MapCore
import Raster

/// Text: the labels' masks and sprites (the overlay's text uses them too).
extension FrameRenderer {
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
}
