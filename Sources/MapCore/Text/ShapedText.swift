/// A run of a label's text with its own font stack, scale and colour: a `format` section, or
/// the whole of a plain `text-field`.
public struct TextSection: Sendable, Equatable {
    public enum VerticalAlign: String, Sendable { case bottom, center, top }
    public var text: String
    /// The `text-font` names joined with "," (the glyph source's key).
    public var fontStack: String
    /// `font-scale` (1 unless a `format` section sets it).
    public var scale: Double
    /// `text-color` of the section, overriding the layer's.
    public var color: Color?
    public var verticalAlign: VerticalAlign
    public init(text: String, fontStack: String, scale: Double = 1, color: Color? = nil, verticalAlign: VerticalAlign = .bottom) {
        self.text = text; self.fontStack = fontStack; self.scale = scale; self.color = color; self.verticalAlign = verticalAlign
    }
}

/// `text-justify` once resolved (`auto` follows the anchor).
public enum TextJustify: String, Sendable { case left, center, right }

/// `text-writing-mode` of one shaping.
public enum WritingMode: Sendable { case horizontal, vertical }

/// How a label's text is laid out, in layout units (24 per em at `text-size` 24: multiply by
/// size / 24 for pixels), as MapLibre's shaping takes it.
public struct ShapingOptions: Sendable, Equatable {
    /// `text-max-width` × 24 (infinite for labels along lines: only line feeds break them).
    public var maxWidth: Double
    /// `text-line-height` × 24.
    public var lineHeight: Double
    /// `text-letter-spacing` × 24 (forced to 0 for scripts that join).
    public var letterSpacing: Double
    public var justify: TextJustify
    public var anchor: IconAnchor
    /// `text-offset` × 24 (x right, y down).
    public var offset: (x: Double, y: Double)
    public var writingMode: WritingMode
    public init(maxWidth: Double = 240, lineHeight: Double = 28.8, letterSpacing: Double = 0, justify: TextJustify = .center,
                anchor: IconAnchor = .center, offset: (x: Double, y: Double) = (0, 0), writingMode: WritingMode = .horizontal) {
        self.maxWidth = maxWidth; self.lineHeight = lineHeight; self.letterSpacing = letterSpacing; self.justify = justify
        self.anchor = anchor; self.offset = offset; self.writingMode = writingMode
    }
    public static func == (a: ShapingOptions, b: ShapingOptions) -> Bool {
        a.maxWidth == b.maxWidth && a.lineHeight == b.lineHeight && a.letterSpacing == b.letterSpacing && a.justify == b.justify
            && a.anchor == b.anchor && a.offset == b.offset && a.writingMode == b.writingMode
    }
}

/// One glyph of a shaped label: which glyph, and where its pen position is relative to the
/// label's anchor, in layout units. Its field's top-left texel centre is at
/// (x + (left − 3 + 0.5)·scale, y + (−top − 3 + 0.5)·scale), texels `scale` units apart; a
/// vertical one is then turned −90° as MapLibre's `quads.ts` turns it (see `TextShaper`).
public struct PositionedGlyph: Sendable, Equatable {
    public let glyph: SDFGlyph
    public let x: Double, y: Double
    /// The section's `font-scale`.
    public let scale: Double
    /// Index into the label's sections (its colour).
    public let section: Int
    /// Set upright in a vertical line (CJK in `text-writing-mode` vertical): turned −90°.
    public let vertical: Bool
    public init(glyph: SDFGlyph, x: Double, y: Double, scale: Double, section: Int, vertical: Bool) {
        self.glyph = glyph; self.x = x; self.y = y; self.scale = scale; self.section = section; self.vertical = vertical
    }
}

/// A label's text shaped: its glyphs placed line by line, justified and moved so that the
/// anchor's point of its box is at (0, 0) plus the offset, and that box (the lines' extent in
/// layout units, as MapLibre's shaping reports it: collisions use it).
public struct ShapedText: Sendable, Equatable {
    public let glyphs: [PositionedGlyph]
    public let sections: [TextSection]
    public let top: Double, bottom: Double, left: Double, right: Double
    /// How many lines the text was broken into.
    public let lineCount: Int
    public let writingMode: WritingMode
    public init(glyphs: [PositionedGlyph], sections: [TextSection], top: Double, bottom: Double, left: Double, right: Double,
                lineCount: Int, writingMode: WritingMode) {
        self.glyphs = glyphs; self.sections = sections; self.top = top; self.bottom = bottom; self.left = left; self.right = right
        self.lineCount = lineCount; self.writingMode = writingMode
    }
}
