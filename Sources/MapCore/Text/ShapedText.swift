/// An image drawn inside a label's text (a `format` image section, MapLibre's icons in text):
/// a sprite image laid out as one character of its own. Sizes are its display size in layout
/// pixels (image pixels / `pixelRatio`, MapLibre's `displaySize`).
public struct ImageInText: Sendable, Equatable {
    public let name: String
    /// The sprite image drawn (its pixels, pixel ratio and SDF flag).
    public let icon: SpriteIcon
    public var width: Double { Double(icon.image.width) / icon.pixelRatio }
    public var height: Double { Double(icon.image.height) / icon.pixelRatio }
    public init(name: String, icon: SpriteIcon) { self.name = name; self.icon = icon }
    /// The same name and the same image (by identity: a sprite reloaded is another image).
    public static func == (a: ImageInText, b: ImageInText) -> Bool { a.name == b.name && a.icon === b.icon }
    /// MapLibre's IMAGE_PADDING: the atlas' transparent pixel around an image, which an image
    /// in text keeps as its `left` (and quads.ts as the quad's growth, 1 / pixelRatio).
    public static let padding = 1.0
    /// The Private Use Area characters MapLibre stands images in text by, one per image
    /// section in order (`tagged_string.ts`).
    public static let characters: ClosedRange<UInt32> = 0xE000...0xF8FF
}

/// A run of a label's text with its own font stack, scale and colour: a `format` section, or
/// the whole of a plain `text-field`. An image section (`image` set) has one character of
/// `ImageInText.characters` as its text and scale 1; the shaper scales it by 24 / text size.
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
    /// The image this section draws instead of text.
    public var image: ImageInText?
    public init(text: String, fontStack: String, scale: Double = 1, color: Color? = nil, verticalAlign: VerticalAlign = .bottom,
                image: ImageInText? = nil) {
        self.text = text; self.fontStack = fontStack; self.scale = scale; self.color = color; self.verticalAlign = verticalAlign
        self.image = image
    }
}

/// `text-justify` once resolved (`auto` follows the anchor).
public enum TextJustify: String, Sendable {
    case left, center, right
    /// `auto`'s choice for a label placed by `anchor`: its side of the point.
    public init(anchor: IconAnchor) {
        let f = anchor.fraction
        self = f.x == 0 ? .left : f.x == 1 ? .right : .center
    }
}

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
    /// Which glyphs a vertical shaping sets upright: for a point label's vertical placement
    /// (true, MapLibre's `allowVerticalPlacement`) all but whitespace and Arabic; for the
    /// vertical shaping of a line label kept upright (false) only those with upright vertical
    /// orientation (CJK). Ignored in horizontal writing mode.
    public var verticalPlacement: Bool
    /// `text-size` in layout pixels at the shaping's zoom: images in text are scaled by 24 / it,
    /// so that they keep their own size whatever the text's.
    public var textSize: Double = SDFGlyph.em
    public init(maxWidth: Double = 240, lineHeight: Double = 28.8, letterSpacing: Double = 0, justify: TextJustify = .center,
                anchor: IconAnchor = .center, offset: (x: Double, y: Double) = (0, 0), writingMode: WritingMode = .horizontal,
                verticalPlacement: Bool = true) {
        self.maxWidth = maxWidth; self.lineHeight = lineHeight; self.letterSpacing = letterSpacing; self.justify = justify
        self.anchor = anchor; self.offset = offset; self.writingMode = writingMode; self.verticalPlacement = verticalPlacement
    }
    public static func == (a: ShapingOptions, b: ShapingOptions) -> Bool {
        a.maxWidth == b.maxWidth && a.lineHeight == b.lineHeight && a.letterSpacing == b.letterSpacing && a.justify == b.justify
            && a.anchor == b.anchor && a.offset == b.offset && a.writingMode == b.writingMode
            && a.verticalPlacement == b.verticalPlacement && a.textSize == b.textSize
    }
}

/// One glyph of a shaped label: which glyph, and where its pen position is relative to the
/// label's anchor, in layout units; a renderer draws it at anchor + (text-size / 24)·(x, y).
/// x and y already include `ShapingOptions.offset` (text-offset, which MapLibre adds later, in
/// `quads.ts`) and, for an upright glyph of a vertical point shaping, quads.ts's centring of
/// scaled glyphs in their line. (A renderer of labels along lines, where MapLibre applies
/// text-offset at placement, passes a zero offset.) Blanks (a space: empty bitmap) are
/// positioned but draw nothing.
///
/// Its field's top-left texel centre is at (x + (left − 3 + 0.5)·scale, y + (−top − 3 + 0.5)·scale),
/// texels `scale` units apart: a point of the glyph drawn at (x + u, y + v) unturned.
///
/// A `vertical` glyph is turned −90° as quads.ts does it (lines 304-327): MapLibre rotates its
/// quad's corners −90° about (−h, h + 17) relative to (x + h, y), h = advance·scale/2, then
/// moves them by (10 + h, 0) (its 22 − (12 − h) half-width correction). Put together, the
/// point that would be drawn at (x + u, y + v) is drawn at
///
///     (x + v − 7, y + 17 + h − u)
///
/// so the glyph fills the 24-unit cell its advance gave it along x, centred on the line's
/// middle. text-rotate (and the quarter turn placement gives a vertical label as a whole)
/// come after, about the anchor.
///
/// An image in text (`image` set) has a `glyph` without a field carrying its layout metrics
/// (width and height its display size, left 1, top −3, advance its width) and `scale` its
/// section's scale × 24 / text size; MapLibre's quad for it spans
/// (x + (1 − 1/r)·scale, y + (3 − 1/r)·scale) on by (size·r + 2)/r·scale, r its pixel ratio:
/// the image's pixels cover (x + scale, y + 3·scale) to that plus (width, height)·scale.
public struct PositionedGlyph: Sendable, Equatable {
    public let glyph: SDFGlyph
    public let x: Double, y: Double
    /// The section's `font-scale`.
    public let scale: Double
    /// Index into the label's sections (its colour).
    public let section: Int
    /// Set upright in a vertical line (CJK in `text-writing-mode` vertical): turned −90°.
    public let vertical: Bool
    /// The image drawn here (nil for a glyph).
    public let image: ImageInText?
    public init(glyph: SDFGlyph, x: Double, y: Double, scale: Double, section: Int, vertical: Bool, image: ImageInText? = nil) {
        self.glyph = glyph; self.x = x; self.y = y; self.scale = scale; self.section = section; self.vertical = vertical
        self.image = image
    }
}

/// A label's text shaped (see `TextShaper`): its glyphs placed line by line, justified and moved
/// so that the anchor's point of its box is at `ShapingOptions.offset` (the glyphs include
/// that offset, see `PositionedGlyph`), and that box in layout units, as MapLibre's shaping
/// reports it for collisions: left/right span the longest line (`offset.x − hAlign·length`
/// on), top/bottom the lines' heights (`offset.y − vAlign·height` on), where hAlign and
/// vAlign are the anchor's fractions. One centred line of 28.8-unit line height spans
/// ±14.4 vertically; the ink lies inside, not on, the box.
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
