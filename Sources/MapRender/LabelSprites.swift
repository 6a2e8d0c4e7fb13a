import Foundation
import MapCore
import Raster

/// Labels as sprites: each text's glyphs and halo rasterized once into two coverage masks
/// (glyph outlines filled by the rasterizer; the halo grown from that coverage), composited in
/// their colours once, and drawn at whole pixels every frame after. Kept near `budget` bytes,
/// least recently used first out; what the last two frames drew always stays. Map labels and
/// the overlay's text share one cache.
final class LabelSprites {
    struct Key: Hashable { let text: String; let font: ObjectIdentifier; let size: Double; let halo: Double; let spacing: Double }
    /// (A class: marking an entry used must not go through the dictionary, whose in-place
    /// accessor allocates.)
    final class Entry {
        let text: AlphaMask, halo: AlphaMask
        /// The two composited in the colours last asked for (made on first use).
        var sprite: MaskSprite?
        var lastUsed: Int
        init(text: AlphaMask, halo: AlphaMask, lastUsed: Int) { self.text = text; self.halo = halo; self.lastUsed = lastUsed }
        /// Bytes held: both masks, and the sprite once made.
        var bytes: Int { text.width * text.height * (2 + (sprite == nil ? 0 : MaskSprite.bytesPerPixel)) }
    }
    private(set) var maskCache: [Key: Entry] = [:]
    private(set) var maskBytes = 0
    static let budget = 1024 * 1024
    /// The frame that last evicted masks.
    private var lastEviction = -1

    /// One label's text over its halo in the given colours, from its cached masks; the sprite is
    /// made again only when the colours change.
    func sprite(_ text: String, paint: TextPaint, halo: PremultipliedColor, text color: PremultipliedColor, frame: Int) -> MaskSprite {
        let entry = masks(text, paint: paint, frame: frame)
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
    private func masks(_ text: String, paint: TextPaint, frame frameNumber: Int) -> Entry {
        let font = paint.font
        let key = Key(text: text, font: ObjectIdentifier(font), size: paint.size, halo: paint.haloWidth, spacing: paint.letterSpacing)
        if let m = maskCache[key] {
            m.lastUsed = frameNumber
            return m
        }
        let (ascent, descent) = font.metrics(size: paint.size)
        let pad = (paint.haloWidth + 1).rounded(.up)
        let width = font.width(text, size: paint.size, letterSpacing: paint.letterSpacing)
        let w = Int((width + 2 * pad).rounded(.up)) + 1, h = Int((ascent + descent + 2 * pad).rounded(.up)) + 1
        var r = Rasterizer(width: w, height: h)
        var textAlpha = [UInt8](repeating: 0, count: w * h)
        Self.forEachGlyph(text, origin: Point(pad, pad + ascent), paint: paint) { path, pen in
            path.replay(into: &r, transform: .translation(pen.x, pen.y))
        }
        textAlpha.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m) } }
        let haloAlpha = AlphaMask.dilated(textAlpha, width: w, height: h, radius: paint.haloWidth)
        let entry = Entry(text: AlphaMask(width: w, height: h, alpha: textAlpha),
                              halo: AlphaMask(width: w, height: h, alpha: haloAlpha), lastUsed: frameNumber)
        // (Room for the sprite too, made next.)
        if maskBytes + (2 + MaskSprite.bytesPerPixel) * w * h > Self.budget && lastEviction != frameNumber {
            lastEviction = frameNumber
            evict(frame: frameNumber, keeping: Self.budget * 2 / 3)
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
    private func evict(frame frameNumber: Int, keeping: Int) {
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
