/// A label's sections shaped from a glyph source once every glyph they need is at hand: each
/// shaping asks for all of its font stacks' glyphs first (their ranges load together), and
/// waits when any is still on its way. Complex scripts go to the source's own shaping
/// (`GlyphSource.shapeRun`: HarfBuzz over local fonts), right-to-left text through `bidi`.
struct LabelShaper {
    enum Outcome {
        /// Some glyph is still loading: the label waits for the source's next arrival.
        case waiting
        /// The shaping, or nil when nothing of the text can be drawn.
        case shaped(ShapedText?)
    }

    let sections: [TextSection]
    let glyphs: any GlyphSource
    let bidi: (any BidiShaper)?

    func shape(_ options: ShapingOptions) -> Outcome {
        let glyphs = self.glyphs
        let runs: TextShaper.RunShaper = { glyphs.shapeRun($0, stack: $1) }
        var ready = true
        for (stack, codePoints) in TextShaper.codePoints(sections, options: options, bidi: bidi, runs: runs)
        where !glyphs.request(codePoints, stack: stack) {
            ready = false
        }
        guard ready else { return .waiting }
        return .shaped(TextShaper.shape(sections, options: options, glyphs: { glyphs.glyph($0, stack: $1) }, bidi: bidi, runs: runs))
    }
}
