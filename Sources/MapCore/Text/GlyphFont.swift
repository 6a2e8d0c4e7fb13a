import Foundation

/// One font stack of a glyph source as a `TextFont`: lines shaped by `TextShaper` (left-aligned,
/// never broken) and moved so that their baseline is at y 0. The baseline is where the stack's
/// 'H' stands (a glyph's field is placed from the ascender line, as glyph servers measure it), so
/// any font's lines sit on it. Shaped lines are kept, at most `capacity` of them (the overlay sets
/// the same few strings again and again).
public final class GlyphFont: TextFont, @unchecked Sendable {
    public let glyphs: any GlyphSource
    public let stack: String
    private let capacity: Int
    private let lock = NSLock()
    private var lines: [String: ShapedText?] = [:]
    /// Layout units from a shaped line's glyph y down to the baseline, and the descender's depth
    /// below it (from 'H' and 'p'; until those glyphs are at hand, DejaVu's proportions).
    private var baseline: Double?, descender = 5.5

    public init(glyphs: any GlyphSource, stack: String, capacity: Int = 512) {
        self.glyphs = glyphs; self.stack = stack; self.capacity = max(1, capacity)
    }

    public func line(_ text: String) -> ShapedText? {
        lock.lock(); defer { lock.unlock() }
        if let known = lines[text] { return known }
        let base = measuredBaseline()
        var options = ShapingOptions(maxWidth: .infinity, anchor: .left)
        options.justify = .left
        // (A one-line shaping puts its glyphs at y −17: moved so that the baseline is at 0.)
        options.offset = (0, 17 - (base ?? 23))
        // (What waits for glyphs, or was shaped before the baseline was known, is shaped again.)
        guard case let .shaped(shaped) = LabelShaper(sections: [TextSection(text: text, fontStack: stack)], glyphs: glyphs, bidi: nil)
            .shape(options) else { return nil }
        guard base != nil else { return shaped }
        if lines.count >= capacity { lines.removeAll(keepingCapacity: true) }
        lines[text] = shaped
        return shaped
    }

    public func width(_ text: String, size: Double, letterSpacing: Double) -> Double {
        guard let l = line(text) else { return 0 }
        let glyphCount = l.glyphs.count
        return max(0, (l.right - l.left) * size / SDFGlyph.em + letterSpacing * Double(max(0, glyphCount - 1)))
    }

    public func metrics(size: Double) -> (ascent: Double, descent: Double) {
        lock.lock(); defer { lock.unlock() }
        let base = measuredBaseline() ?? 23
        return (base / SDFGlyph.em * size, descender / SDFGlyph.em * size)
    }

    /// The baseline below a glyph's y in layout units, once the stack's 'H' is at hand.
    private func measuredBaseline() -> Double? {
        if let baseline { return baseline }
        guard glyphs.request([0x48, 0x70], stack: stack), let h = glyphs.glyph(0x48, stack: stack) else { return nil }
        let base = Double(h.height) - h.top
        baseline = base
        if let p = glyphs.glyph(0x70, stack: stack) { descender = max(0, Double(p.height) - p.top - base) }
        return base
    }
}
