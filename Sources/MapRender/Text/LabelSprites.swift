import Foundation
import MapCore
import Raster

/// Labels as sprites: each label's halo and text shaded once from its glyphs' distance fields
/// into coverage masks (`SDFLabelMasks`), composited in their colours once, and drawn at whole
/// pixels every frame after; the images inside a label's text (`LabelImages`) go over its text.
/// Kept near `budget` bytes, least recently used first out; what the
/// last two frames drew always stays. Map labels and the overlay's lines share one cache.
final class LabelSprites {
    /// A shaping (a label's `SymbolSet.Text.key` and variant, or an overlay line's font and
    /// text), shaded so, with its fill colours in section order and the opacity its images are
    /// drawn at.
    struct Key: Hashable {
        let key: String
        let shading: SDFLabelMasks.Shading
        let colors: [UInt32]
        let opacity: Double
        /// A label along a line: its glyphs' places and turns relative to its anchor, in
        /// 64ths of a pixel and 4096ths of a radian (a pan moves them all alike: the same key).
        var poses: [Int32] = []
    }
    /// (A class: marking an entry used must not go through the dictionary, whose in-place
    /// accessor allocates.)
    final class Entry {
        let text: AlphaMask, halo: AlphaMask
        /// More fill masks, for a label's sections in other colours (drawn over the sprite).
        let more: [AlphaMask]
        /// The top-left pixel relative to where the label is drawn.
        let x: Int, y: Int
        /// The images in the label's text, if it has any.
        let images: LabelImages?
        /// The two composited in the colours last asked for (made on first use).
        var sprite: MaskSprite?
        var lastUsed: Int
        init(text: AlphaMask, halo: AlphaMask, more: [AlphaMask] = [], x: Int = 0, y: Int = 0, images: LabelImages? = nil, lastUsed: Int) {
            self.text = text; self.halo = halo; self.more = more; self.x = x; self.y = y; self.images = images; self.lastUsed = lastUsed
        }
        /// Bytes held: the masks, the images, and the sprite once made.
        var bytes: Int {
            text.width * text.height * (2 + more.count + (sprite == nil ? 0 : MaskSprite.bytesPerPixel)) + (images?.bytes ?? 0)
        }
    }
    /// Glyph quads shaded since the cache was made (a panning frame should add none).
    private(set) var glyphsDrawn = 0
    private(set) var maskCache: [Key: Entry] = [:]
    private(set) var maskBytes = 0
    static let budget = 1024 * 1024
    /// The frame that last evicted masks.
    private var lastEviction = -1

    /// An overlay line (`font.line`) over its halo, its pen starting at `origin` on the baseline.
    func draw(_ text: String, font: any TextFont, size: Double, haloWidth: Double, halo: PremultipliedColor, text color: PremultipliedColor,
              at origin: Point, frame: Int, _ t: RenderTarget) {
        guard let line = font.line(text) else { return }
        draw(line, key: "overlay \(ObjectIdentifier(font).hashValue)\u{1}" + text, size: size, haloWidth: haloWidth, haloBlur: 0, rotation: 0,
             colors: [color.packed], groupOf: [], halo: halo, opacity: 1, at: origin, exact: true, frame: frame, t)
    }

    /// A map label where the placement put it: its halo under its text, shaded from its glyphs'
    /// fields (turned by its rotation), at its eighth of a pixel when `exact`, else at the
    /// nearest whole pixel (a moving view: one mask per label serves the whole move). `symbol`:
    /// the label's identity across frames (`PlacedSymbol.id`).
    func draw(_ label: PlacedText, symbol: Int, exact: Bool, frame: Int, _ t: RenderTarget) {
        let text = label.text, paint = text.paint
        // Colours by section: the layer's, or a section's own (each its own fill mask).
        var colors: [UInt32] = [paint.color.premultiplied(opacity: paint.opacity).packed]
        var groupOf: [Int] = []
        for section in label.shaped.sections {
            guard let c = section.color else { groupOf.append(0); continue }
            let packed = c.premultiplied(opacity: paint.opacity).packed
            if let i = colors.firstIndex(of: packed) { groupOf.append(i) } else { groupOf.append(colors.count); colors.append(packed) }
        }
        // (On a pitched map every label's size and plane change as the view moves: while it
        // moves they are rounded, so that a slow pan draws from masks already shaded.)
        var scale = label.sizeScale, plane = label.plane, gammaScale = label.gammaScale
        if !exact && (scale != 1 || plane != nil) {
            scale = (scale * 64).rounded() / 64
            gammaScale = (gammaScale * 64).rounded() / 64
            plane = plane.map { ($0 * 64).rounded(.toNearestOrAwayFromZero) / 64 }
        }
        draw(label.shaped, key: label.key, size: paint.size * scale, plane: plane, gammaScale: gammaScale, haloWidth: paint.haloColor.a > 0 ? paint.haloWidth : 0,
             haloBlur: paint.haloBlur, rotation: label.rotation, poses: label.glyphs, colors: colors, groupOf: groupOf,
             halo: paint.haloColor.premultiplied(opacity: paint.opacity), opacity: paint.opacity, fade: label.fade, at: label.origin,
             symbol: symbol, exact: exact, frame: frame, t)
    }

    /// A shaping's halo under its fills (`colors` by colour group, `groupOf` a section's group),
    /// then its images at `opacity`, turned by `rotation` about `origin`, from the cached masks.
    /// `poses`: a label along a line, glyph by glyph (see `SDFLabelMasks`); `fade` (0...1) scales
    /// the whole label as it fades in or out, without shading it again.
    private func draw(_ shaped: ShapedText, key: String, size: Double, plane: SIMD4<Double>? = nil, gammaScale: Double = 1, haloWidth: Double, haloBlur: Double, rotation: Double,
                      poses: [GlyphPose]? = nil, colors: [UInt32], groupOf: [Int], halo: PremultipliedColor, opacity: Double,
                      fade: Double = 1, at origin: Point, symbol: Int = 0, exact: Bool, frame: Int, _ t: RenderTarget) {
        let alpha = UInt32(min(max(fade, 0), 1) * 256)
        guard alpha > 0 else { return }
        // The anchor's pixel, and where in it the anchor lies (in eighths).
        let n = Double(SDFLabelMasks.Shading.phases)
        let ax = exact ? (origin.x * n).rounded() : origin.x.rounded() * n
        let ay = exact ? (origin.y * n).rounded() : origin.y.rounded() * n
        let px = (ax / n).rounded(.down), py = (ay / n).rounded(.down)
        let shading = SDFLabelMasks.Shading(size: size, haloWidth: haloWidth, haloBlur: haloBlur, rotation: rotation,
                                            phaseX: Int(ax - px * n), phaseY: Int(ay - py * n), plane: plane, gammaScale: gammaScale)
        var cacheKey = Key(key: key, shading: shading, colors: colors, opacity: opacity)
        if let poses {
            cacheKey.poses.reserveCapacity(3 * poses.count)
            for p in poses {
                cacheKey.poses.append(Int32(clamping: Int((p.x * 64).rounded())))
                cacheKey.poses.append(Int32(clamping: Int((p.y * 64).rounded())))
                cacheKey.poses.append(Int32(clamping: Int((p.angle * 4096).rounded())))
            }
        }
        // (While the view moves, a label whose shading drifted only a little since it was last
        // shaded, as a pitched view's labels do with every step, is drawn from that mask.)
        let standIn = { () -> Entry? in
            guard !exact else { return nil }
            let label = Recent(symbol: symbol, key: key, colors: colors, opacity: opacity)
            if let last = self.recent[label], let e = self.maskCache[last], Self.near(last, cacheKey) { return e }
            self.recent[label] = cacheKey
            return nil
        }
        let entry = cached(cacheKey, frame: frame, standIn: standIn) {
            let group = { (section: Int) in section < groupOf.count ? groupOf[section] : 0 }
            // (Poses rounded as keyed: equal keys shade equal masks.)
            let rounded = poses.map { $0.map { GlyphPose(x: ($0.x * 64).rounded() / 64, y: ($0.y * 64).rounded() / 64, angle: ($0.angle * 4096).rounded() / 4096) } }
            let m = SDFLabelMasks(shaped, shading, poses: rounded, groups: colors.count, group: group, glyphsDrawn: &glyphsDrawn)
            let images = shaped.glyphs.contains { $0.image != nil }
                ? LabelImages(shaped, shading, opacity: opacity, color: { colors[group($0)] }) : nil
            return Entry(text: m.fills[0], halo: m.halo, more: Array(m.fills.dropFirst()), x: m.x, y: m.y, images: images, lastUsed: frame)
        }
        let x = Int(px) + entry.x, y = Int(py) + entry.y
        sprite(entry, halo: halo, text: PremultipliedColor(packed: colors[0])).composite(onto: t.pixmap, x: x, y: y, rows: t.rows, alpha: alpha)
        for (i, mask) in entry.more.enumerated() {
            let c = colors[i + 1]
            mask.composite(PremultipliedColor(packed: alpha >= 256 ? c : Blend.scale(c, alpha)), onto: t.pixmap, x: x, y: y, rows: t.rows)
        }
        if let images = entry.images {
            images.composite(onto: t.pixmap, x: Int(px) + images.x, y: Int(py) + images.y, rows: t.rows, alpha: alpha)
        }
    }

    /// A label apart from how it is shaded, and the key it was last shaded under while the view
    /// moved: by its identity too, since labels of one text (a street's name along each of its
    /// pieces) are shaded each at its own size and shape.
    struct Recent: Hashable {
        let symbol: Int
        let key: String
        let colors: [UInt32]
        let opacity: Double
    }
    private var recent: [Recent: Key] = [:]

    /// Whether a mask shaded for `a` may stand in for `b` while the view moves: the glyphs'
    /// shape on screen (the size through the pitched plane) and the softness of their edges (the
    /// shader's gamma, over the size) within 3 %, turns within a hundredth of a radian, glyphs
    /// along a line within half a pixel of their places. (On screen, not factor by factor: a
    /// label in the map's plane moving away grows in size as its plane shrinks.)
    static func near(_ a: Key, _ b: Key) -> Bool {
        let s = a.shading, t = b.shading
        guard s.haloWidth == t.haloWidth, s.haloBlur == t.haloBlur, s.phaseX == t.phaseX, s.phaseY == t.phaseY,
              abs(s.rotation - t.rotation) <= 0.01, (s.plane == nil) == (t.plane == nil), a.poses.count == b.poses.count,
              abs(s.gammaScale / s.size - t.gammaScale / t.size) <= 0.03 * t.gammaScale / t.size else { return false }
        let p = (s.plane ?? SIMD4(1, 0, 0, 1)) * s.size, q = (t.plane ?? SIMD4(1, 0, 0, 1)) * t.size
        guard ((p - q) * (p - q)).sum() <= 0.03 * 0.03 * (q * q).sum() else { return false }
        for i in a.poses.indices {
            // (Places in 64ths of a pixel, turns in 4096ths of a radian.)
            guard abs(Int(a.poses[i]) - Int(b.poses[i])) <= (i % 3 == 2 ? 41 : 32) else { return false }
        }
        return true
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

    /// The entry for `key`, else the one `standIn` offers, else made by `make` (then counted,
    /// and the cache trimmed when over its budget).
    private func cached(_ key: Key, frame frameNumber: Int, standIn: () -> Entry? = { nil }, make: () -> Entry) -> Entry {
        if let m = maskCache[key] ?? standIn() {
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
        recent = recent.filter { maskCache[$0.value] != nil }
    }
}
