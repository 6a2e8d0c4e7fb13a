import Raster
/// A font text is set in (MapData's FreeType face is one): glyph outlines the renderer fills,
/// advances, kerning and metrics the model and the renderer measure with.
public protocol TextFont: AnyObject, Sendable {
    /// The advance of `text` at `size` pixels, kerned, with `letterSpacing` between glyphs.
    func width(_ text: String, size: Double, letterSpacing: Double) -> Double
    /// Ascender and descender (positive below the baseline) at `size`, in pixels.
    func metrics(size: Double) -> (ascent: Double, descent: Double)
    /// The glyph for `scalar` at `size` pixels, or nil when the font lacks it.
    func glyph(_ scalar: Unicode.Scalar, size: Double) -> TextGlyph?
    /// Horizontal kerning between two scalars at `size`, in pixels.
    func kerning(_ a: Unicode.Scalar, _ b: Unicode.Scalar, size: Double) -> Double
}

/// One glyph at one size: its outline in pixels (origin on the baseline, y down) and advance.
public struct TextGlyph {
    public let path: Path
    public let advance: Double
    public init(path: Path, advance: Double) { self.path = path; self.advance = advance }
}
