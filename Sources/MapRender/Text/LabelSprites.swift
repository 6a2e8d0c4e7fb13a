import Foundation
import MapCore
import Raster

/// Labels as sprites: each label's halo and text made once into coverage masks, composited in
/// their colours once, and drawn at whole pixels every frame after. Map labels are shaded from
/// their glyphs' distance fields (`SDFLabelMasks`); the overlay's lines are glyph outlines
/// filled by the rasterizer with the halo grown from that coverage. Kept near `budget` bytes,
/// least recently used first out; what the last two frames drew always stays. Map labels and
/// the overlay's text share one cache.
final class LabelSprites {
    enum Key: Hashable {
        /// An overlay line: its text in a font at a size, with a halo.
        case outline(text: String, font: ObjectIdentifier, size: Double, halo: Double)
        /// A shaped map label (`SymbolSet.Text.key`), shaded so, with its fill colours in section order.
        case sdf(key: String, shading: SDFLabelMasks.Shading, colors: [UInt32])
    }
    /// (A class: marking an entry used must not go through the dictionary, whose in-place
    /// accessor allocates.)
    final class Entry {
        let text: AlphaMask, halo: AlphaMask
        /// More fill masks, for a label's sections in other colours (drawn over the sprite).
        let more: [AlphaMask]
        /// The top-left pixel relative to where the label is drawn.
        let x: Int, y: Int
        /// The two composited in the colours last asked for (made on first use).
        var sprite: MaskSprite?
        var lastUsed: Int
        init(text: AlphaMask, halo: AlphaMask, more: [AlphaMask] = [], x: Int = 0, y: Int = 0, lastUsed: Int) {
            self.text = text; self.halo = halo; self.more = more; self.x = x; self.y = y; self.lastUsed = lastUsed
        }
        /// Bytes held: the masks, and the sprite once made.
        var bytes: Int { text.width * text.height * (2 + more.count + (sprite == nil ? 0 : MaskSprite.bytesPerPixel)) }
    }
    /// Glyph quads shaded since the cache was made (a panning frame should add none).
    private(set) var glyphsDrawn = 0
    private(set) var maskCache: [Key: Entry] = [:]
    private(set) var maskBytes = 0
    static let budget = 1024 * 1024
    /// The frame that last evicted masks.
    private var lastEviction = -1

    /// One label's text over its halo in the given colours, from its cached masks; the sprite is
    /// made again only when the colours change.
    func sprite(_ text: String, font: any TextFont, size: Double, haloWidth: Double, halo: PremultipliedColor, text color: PremultipliedColor,
                frame: Int) -> MaskSprite {
        let key = Key.outline(text: text, font: ObjectIdentifier(font), size: size, halo: haloWidth)
        let entry = cached(key, frame: frame) { outlineMasks(text, font: font, size: size, haloWidth: haloWidth, frame: frame) }
        return sprite(entry, halo: halo, text: color)
    }

    /// A map label where the placement put it: its halo under its text, shaded from its glyphs'
    /// fields (turned by its rotation), at its eighth of a pixel when `exact`, else at the
    /// nearest whole pixel (a moving view: one mask per label serves the whole move).
    func draw(_ label: PlacedText, exact: Bool, frame: Int, _ t: RenderTarget) {
        let text = label.text, paint = text.paint
        // Colours by section: the layer's, or a section's own (each its own fill mask).
        var colors: [UInt32] = [paint.color.premultiplied(opacity: paint.opacity).packed]
        var groupOf: [Int] = []
        for section in label.shaped.sections {
            guard let c = section.color else { groupOf.append(0); continue }
            let packed = c.premultiplied(opacity: paint.opacity).packed
            if let i = colors.firstIndex(of: packed) { groupOf.append(i) } else { groupOf.append(colors.count); colors.append(packed) }
        }
        // The anchor's pixel, and where in it the anchor lies (in eighths).
        let n = Double(SDFLabelMasks.Shading.phases)
        let ax = exact ? (label.origin.x * n).rounded() : label.origin.x.rounded() * n
        let ay = exact ? (label.origin.y * n).rounded() : label.origin.y.rounded() * n
        let px = (ax / n).rounded(.down), py = (ay / n).rounded(.down)
        let shading = SDFLabelMasks.Shading(size: paint.size, haloWidth: paint.haloColor.a > 0 ? paint.haloWidth : 0,
                                            haloBlur: paint.haloBlur, rotation: label.rotation,
                                            phaseX: Int(ax - px * n), phaseY: Int(ay - py * n))
        let key = Key.sdf(key: label.key, shading: shading, colors: colors)
        let entry = cached(key, frame: frame) {
            let m = SDFLabelMasks(label.shaped, shading, groups: colors.count, group: { $0 < groupOf.count ? groupOf[$0] : 0 },
                                  glyphsDrawn: &glyphsDrawn)
            return Entry(text: m.fills[0], halo: m.halo, more: Array(m.fills.dropFirst()), x: m.x, y: m.y, lastUsed: frame)
        }
        let x = Int(px) + entry.x, y = Int(py) + entry.y
        let halo = paint.haloColor.premultiplied(opacity: paint.opacity)
        sprite(entry, halo: halo, text: PremultipliedColor(packed: colors[0])).composite(onto: t.pixmap, x: x, y: y, rows: t.rows)
        for (i, mask) in entry.more.enumerated() {
            mask.composite(PremultipliedColor(packed: colors[i + 1]), onto: t.pixmap, x: x, y: y, rows: t.rows)
        }
    }

    /// The entry's masks composited in these colours (made again only when they change).
    private func sprite(_ entry: Entry, halo: PremultipliedColor, text color: PremultipliedColor) -> MaskSprite {
        if let s = entry.sprite, s.underColor == halo.packed, s.overColor == color.packed { return s }
        let before = entry.bytes
        let sprite = MaskSprite(under: entry.halo, halo, over: entry.text, color)
        entry.sprite = sprite
        maskBytes += entry.bytes - before
        return sprite
    }

    /// The entry for `key`, made by `make` when it is not cached (then counted, and the cache
    /// trimmed when over its budget).
    private func cached(_ key: Key, frame frameNumber: Int, make: () -> Entry) -> Entry {
        if let m = maskCache[key] {
            m.lastUsed = frameNumber
            return m
        }
        let entry = make()
        // (Room for the sprite too, made next.)
        if maskBytes + entry.bytes + MaskSprite.bytesPerPixel * entry.text.width * entry.text.height > Self.budget && lastEviction != frameNumber {
            lastEviction = frameNumber
            evict(frame: frameNumber, keeping: Self.budget * 2 / 3)
        }
        maskCache[key] = entry
        maskBytes += entry.bytes
        return entry
    }

    /// An overlay line's text and halo masks: glyph outlines filled by the rasterizer, the halo
    /// grown from that coverage.
    private func outlineMasks(_ text: String, font: any TextFont, size: Double, haloWidth: Double, frame frameNumber: Int) -> Entry {
        let (ascent, descent) = font.metrics(size: size)
        let pad = (haloWidth + 1).rounded(.up)
        let width = font.width(text, size: size, letterSpacing: 0)
        let w = Int((width + 2 * pad).rounded(.up)) + 1, h = Int((ascent + descent + 2 * pad).rounded(.up)) + 1
        var r = Rasterizer(width: w, height: h)
        var textAlpha = [UInt8](repeating: 0, count: w * h)
        Self.forEachGlyph(text, origin: Point(pad, pad + ascent), font: font, size: size) { path, pen in
            path.replay(into: &r, transform: .translation(pen.x, pen.y))
        }
        textAlpha.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m) } }
        let haloAlpha = AlphaMask.dilated(textAlpha, width: w, height: h, radius: haloWidth)
        return Entry(text: AlphaMask(width: w, height: h, alpha: textAlpha), halo: AlphaMask(width: w, height: h, alpha: haloAlpha),
                     lastUsed: frameNumber)
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
    static func forEachGlyph(_ text: String, origin: Point, font: any TextFont, size: Double, _ body: (Path, Point) -> Void) {
        var x = origin.x
        var previous: Unicode.Scalar?
        for u in text.unicodeScalars {
            if let p = previous { x += font.kerning(p, u, size: size) }
            if let g = font.glyph(u, size: size) {
                body(g.path, Point(x, origin.y))
                x += g.advance
            } else {
                x += size * 0.5
            }
            previous = u
        }
    }
}
