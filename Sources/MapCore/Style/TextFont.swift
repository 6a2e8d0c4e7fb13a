/// A font for text set on one line (the overlay's: status line, help, legend, attribution),
/// measured by the model and drawn by the renderer from the same glyph fields and mask cache
/// as map labels (`GlyphFont` is the one there is).
public protocol TextFont: AnyObject, Sendable {
    /// The advance of `text` at `size` pixels, with `letterSpacing` pixels between glyphs.
    func width(_ text: String, size: Double, letterSpacing: Double) -> Double
    /// Ascender and descender (positive below the baseline) at `size`, in pixels.
    func metrics(size: Double) -> (ascent: Double, descent: Double)
    /// `text` shaped on one line in layout units (24 per em: multiply by size / 24), its pen
    /// starting at x 0 on the baseline at y 0; nil when nothing of it can be drawn.
    func line(_ text: String) -> ShapedText?
}
