/// Lays a label's text out in lines of glyphs, as MapLibre GL JS 5.14's `shapeText`
/// (`symbol/shaping.ts`) does, so that labels break, align and collide as they do there.
///
/// In order: Arabic letters are joined (through `bidi`, when the text has right-to-left
/// characters); in vertical writing mode punctuation takes its vertical forms; runs of complex
/// scripts (Devanagari, Thai, Khmer, ...) are shaped whole by the glyph source when it can
/// (`ShapedRuns`; MapLibre draws them a glyph per character, as is done here otherwise); the text is
/// broken into balanced lines (`LineBreaker`); each line is put in visual order (through
/// `bidi`, else kept in logical order), trimmed of whitespace and laid out glyph by glyph;
/// lines are justified, and the block is moved so that the anchor's point of its box is at
/// (0, 0) plus `options.offset`.
///
/// Letter spacing: `options.letterSpacing` applies unless the text has a character of a
/// cursive script (Arabic, Duployan, Mongolian, Old Uyghur, Syriac); then the whole label has
/// none (MapLibre decides this in `symbol_layout.ts`; it is done here because the shaper sees
/// the text).
///
/// Images in text (`format` image sections: one Private Use Area character each, see
/// `ImageInText`) are laid out as MapLibre lays them out: scaled by 24 / `options.textSize`,
/// advancing by their width, a break opportunity after each, aligned in their line by their
/// height and pushing the line down by as much as they stand taller than its em. They are
/// never set upright in vertical text (nightmap's choice: MapLibre turns them with the line).
public enum TextShaper {
    /// A glyph source's shaper of runs of complex scripts (`GlyphSource.shapeRun`): a run's
    /// code points and font stack in, its glyphs in visual order out, or nil.
    public typealias RunShaper = ([UInt32], String) -> [SDFGlyph]?

    /// `sections` shaped, or nil when nothing is left to draw (empty text, or only whitespace
    /// and characters without glyphs: MapLibre draws no text then). `glyphs(codePoint, fontStack)`
    /// gives each glyph (nil: drawn as nothing, no advance). `runs`, when given, shapes the runs
    /// of complex scripts first (`ShapedRuns`); what it shapes is laid out from its glyphs.
    public static func shape(_ sections: [TextSection], options: ShapingOptions, glyphs: (UInt32, String) -> SDFGlyph?,
                             bidi: (any BidiShaper)? = nil, runs: RunShaper? = nil) -> ShapedText? {
        let (logical, spacing, bidi, shaped) = prepared(sections, options: options, bidi: bidi, runs: runs)
        guard !logical.isEmpty else { return nil }
        let glyphs = shaped.isEmpty ? glyphs : { codePoint, stack in shaped[codePoint] ?? glyphs(codePoint, stack) }

        let advances = logical.codePoints.indices.map { index in
            advance(of: logical.codePoints[index], in: sections[logical.sections[index]], spacing: spacing,
                    textSize: options.textSize, glyphs: glyphs)
        }
        let images = Set(logical.sections.indices.filter { sections[logical.sections[$0]].image != nil })
        let breaks = LineBreaker.breaks(logical.codePoints, advances: advances, maxWidth: options.maxWidth, breaksAfter: images)
        let lines: [TaggedText]
        if let bidi {
            lines = bidi.lines(logical.codePoints, sections: logical.sections, breaks: Array(breaks.dropLast()))
                .map { TaggedText(codePoints: $0.text, sections: $0.sections) }
        } else {
            lines = logical.lines(breakingAt: breaks)
        }
        var layout = LineLayout(sections: sections, options: options, spacing: spacing, shaped: Set(shaped.keys))
        for line in lines { layout.add(line, glyphs: glyphs) }
        return layout.shapedText()
    }

    /// The code points `shape` looks glyphs up for, by font stack (Arabic joined, punctuation
    /// of vertical text in its vertical forms, runs `runs` shapes left out): what a glyph
    /// source must have at hand first.
    public static func codePoints(_ sections: [TextSection], options: ShapingOptions,
                                  bidi: (any BidiShaper)? = nil, runs: RunShaper? = nil) -> [String: [UInt32]] {
        let (text, _, _, shaped) = prepared(sections, options: options, bidi: bidi, runs: runs)
        var out: [String: [UInt32]] = [:]
        for (c, s) in zip(text.codePoints, text.sections) where s < sections.count && sections[s].image == nil && shaped[c] == nil {
            out[sections[s].fontStack, default: []].append(c)
        }
        return out
    }

    /// The text as shaping sees it before breaking, the letter spacing it gets, the bidi
    /// shaper it goes through (only text with right-to-left characters sees it) and the glyphs
    /// of the runs `runs` shaped, by the ids standing for them in the text. A label with a
    /// shaped run gets no letter spacing, as a cursive one: spacing every glyph would pull
    /// HarfBuzz's marks off their bases.
    private static func prepared(_ sections: [TextSection], options: ShapingOptions, bidi: (any BidiShaper)?,
                                 runs: RunShaper?) -> (text: TaggedText, spacing: Double, bidi: (any BidiShaper)?, shaped: [UInt32: SDFGlyph]) {
        var logical = TaggedText(sections)
        var spacing = ScriptProperties.allowsLetterSpacing(logical.codePoints) ? options.letterSpacing : 0
        let bidi = logical.codePoints.contains(where: ScriptProperties.isRightToLeft) ? bidi : nil
        if let bidi { logical = TaggedText(sections, transform: bidi.shapeArabic) }
        if options.writingMode == .vertical { VerticalPunctuation.verticalize(&logical.codePoints) }
        let shaped = runs.map { ShapedRuns.replace(in: &logical, sections: sections, runs: $0) } ?? [:]
        if !shaped.isEmpty { spacing = 0 }
        return (logical, spacing, bidi, shaped)
    }

    /// How far a character moves the pen while lines are broken (always horizontally, as in
    /// MapLibre, even for vertical shapings); an image by its width at 24 / `textSize`.
    static func advance(of codePoint: UInt32, in section: TextSection, spacing: Double, textSize: Double,
                        glyphs: (UInt32, String) -> SDFGlyph?) -> Double {
        if let image = section.image { return image.width * imageScale(section, textSize: textSize) + spacing }
        guard let glyph = glyphs(codePoint, section.fontStack) else { return 0 }
        return glyph.advance * section.scale + spacing
    }

    /// An image section's scale in layout units: its own × 24 / text size (MapLibre's
    /// `layoutTextSizeFactor`), so that the image is drawn at its display size.
    static func imageScale(_ section: TextSection, textSize: Double) -> Double {
        textSize > 0 ? section.scale * SDFGlyph.em / textSize : 0
    }

    /// The layout glyph of an image in text: no field, its display size, left 1 (the atlas'
    /// padding), top −3 (the glyphs' border), advance its width (`shaping.ts`).
    static func glyph(of image: ImageInText, codePoint: UInt32) -> SDFGlyph {
        SDFGlyph(codePoint: codePoint, width: Int(image.width.rounded(.up)), height: Int(image.height.rounded(.up)),
                 left: ImageInText.padding, top: -Double(SDFGlyph.border), advance: image.width, bitmap: [])
    }
}

/// The lines of one shaping laid out one under the other (MapLibre's `shapeLines`): glyphs
/// along each line from x = 0, lines `lineHeight` × their largest scale apart from y = 0,
/// each line justified at once and the whole block aligned at the end.
struct LineLayout {
    /// A glyph being placed; `verticalShift` is how far quads.ts raises it in a vertical
    /// point label (scaled glyphs centred in their line).
    struct Placed {
        let glyph: SDFGlyph
        var x: Double
        let y: Double
        let scale: Double, section: Int, upright: Bool, verticalShift: Double
        var image: ImageInText? = nil
    }

    /// Where a line's first glyph sits below its top: MapLibre's SHAPING_DEFAULT_OFFSET (−17),
    /// which puts a 24-px glyph's middle on the line's middle.
    static let baselineOffset = -17.0

    let sections: [TextSection]
    let options: ShapingOptions
    let spacing: Double
    let justify: Double
    /// The ids of glyphs of shaped runs: never upright (a run is one piece of sideways text).
    let shaped: Set<UInt32>
    private(set) var placed: [Placed] = []
    private(set) var lineCount = 0
    /// The height of the lines so far (where the next one starts).
    private(set) var height = 0.0
    private(set) var maxLineLength = 0.0
    private(set) var maxLineHeight = 0.0

    init(sections: [TextSection], options: ShapingOptions, spacing: Double, shaped: Set<UInt32> = []) {
        self.sections = sections; self.options = options; self.spacing = spacing; self.shaped = shaped
        justify = switch options.justify { case .left: 0; case .center: 0.5; case .right: 1 }
    }

    /// Lays `line` out below the lines so far (an empty one still takes a line's height).
    mutating func add(_ line: TaggedText, glyphs: (UInt32, String) -> SDFGlyph?) {
        var line = line
        line.trim()
        lineCount += 1
        guard !line.isEmpty else { height += options.lineHeight; return }
        let lineMaxScale = line.sections.reduce(0) { max($0, sections[$1].scale) }
        let start = placed.count
        let (x, imageOffset) = layOut(line, lineMaxScale: lineMaxScale, glyphs: glyphs)
        if placed.count > start {
            maxLineLength = max(maxLineLength, x - spacing)
            justifyLine(from: start)
        }
        let lineHeight = options.lineHeight * lineMaxScale + imageOffset
        height += lineHeight
        maxLineHeight = max(maxLineHeight, lineHeight)
    }

    /// Places the glyphs of one trimmed line; returns the pen's x after the last one and how far
    /// its tallest image pushes the next line down (MapLibre's `imageOffset`: its height beyond
    /// the line's em, at least 0).
    ///
    /// The line's content height is its em at its largest scale, or its tallest image if taller;
    /// a glyph or image smaller than that sits in it by its section's vertical alignment.
    ///
    /// GL JS quirk kept on purpose: a character without a glyph does not move the section
    /// cursor on, so the characters after it on that line take the section of the character
    /// before them (their font stack, scale and colour), as in shaping.ts.
    private mutating func layOut(_ line: TaggedText, lineMaxScale: Double,
                                 glyphs: (UInt32, String) -> SDFGlyph?) -> (x: Double, imageOffset: Double) {
        let tallestImage = line.sections.reduce(0.0) { tallest, index in
            guard let image = sections[index].image else { return tallest }
            return max(tallest, image.height * TextShaper.imageScale(sections[index], textSize: options.textSize))
        }
        let contentSize = max(lineMaxScale * SDFGlyph.em, tallestImage)
        let lineOffset = max(0, (lineMaxScale - 1) * SDFGlyph.em)
        var x = 0.0, imageOffset = 0.0
        var cursor = 0
        for codePoint in line.codePoints {
            let sectionIndex = line.sections[cursor]
            let section = sections[sectionIndex]
            if let image = section.image {
                let scale = TextShaper.imageScale(section, textSize: options.textSize)
                let glyph = TextShaper.glyph(of: image, codePoint: codePoint)
                let raise = (contentSize - image.height * scale) * Self.alignFactor(section.verticalAlign)
                imageOffset = max(imageOffset, image.height * scale - SDFGlyph.em * lineMaxScale)
                placed.append(Placed(glyph: glyph, x: x, y: height + Self.baselineOffset + raise, scale: scale,
                                     section: sectionIndex, upright: false, verticalShift: 0, image: image))
                x += image.width * scale + spacing
                cursor += 1
                continue
            }
            let upright = isUpright(codePoint)
            guard let glyph = glyphs(codePoint, section.fontStack) else { continue }
            let room = contentSize - section.scale * SDFGlyph.em
            let raise = upright ? room : room * Self.alignFactor(section.verticalAlign)
            placed.append(Placed(glyph: glyph, x: x, y: height + Self.baselineOffset + raise, scale: section.scale,
                                 section: sectionIndex, upright: upright,
                                 verticalShift: lineOffset / 2 - (section.scale - 1) * SDFGlyph.em))
            x += (upright ? SDFGlyph.em : glyph.advance) * section.scale + spacing
            cursor += 1
        }
        return (x, imageOffset)
    }

    /// Whether a glyph stands upright in this shaping (MapLibre's `isLineVertical`).
    private func isUpright(_ codePoint: UInt32) -> Bool {
        guard options.writingMode == .vertical, !shaped.contains(codePoint) else { return false }
        guard options.verticalPlacement else { return ScriptProperties.hasUprightVerticalOrientation(codePoint) }
        return !ScriptProperties.isWhitespace(codePoint) && !ScriptProperties.needsComplexShaping(codePoint)
    }

    /// How much of the room a smaller section leaves in its line goes above it.
    private static func alignFactor(_ align: TextSection.VerticalAlign) -> Double {
        switch align { case .top: 0; case .center: 0.5; case .bottom: 1 }
    }

    /// Moves the line starting at `start` left by its length × justify (its last glyph's
    /// horizontal advance counts, even when upright).
    private mutating func justifyLine(from start: Int) {
        guard justify != 0, let last = placed.last else { return }
        let indent = (last.x + last.glyph.advance * last.scale) * justify
        for index in start..<placed.count { placed[index].x -= indent }
    }

    /// The lines aligned on the anchor (MapLibre's `align`) and their box, or nil without glyphs.
    func shapedText() -> ShapedText? {
        guard !placed.isEmpty else { return nil }
        let (hAlign, vAlign) = options.anchor.fraction
        let shiftX = (justify - hAlign) * maxLineLength + options.offset.x
        // Lines of the plain height are centred on their count; scaled ones on the block's height.
        let shiftY = (maxLineHeight != options.lineHeight
            ? -height * vAlign - Self.baselineOffset
            : -vAlign * Double(lineCount) * options.lineHeight + options.lineHeight / 2) + options.offset.y
        let verticalizable = options.writingMode == .vertical && options.verticalPlacement && placed.contains(where: \.upright)
        let glyphs = placed.map { glyph in
            PositionedGlyph(glyph: glyph.glyph, x: glyph.x + shiftX, y: glyph.y + shiftY - (verticalizable ? glyph.verticalShift : 0),
                            scale: glyph.scale, section: glyph.section, vertical: glyph.upright, image: glyph.image)
        }
        let top = options.offset.y - vAlign * height, left = options.offset.x - hAlign * maxLineLength
        return ShapedText(glyphs: glyphs, sections: sections, top: top, bottom: top + height, left: left,
                          right: left + maxLineLength, lineCount: lineCount, writingMode: options.writingMode)
    }
}

/// Runs of complex scripts (`ScriptProperties.complexScript(of:)`) shaped as a whole by a glyph
/// source before lines are broken: each run's characters are replaced by the ids of its glyphs
/// (`SDFGlyph.shapedIDs`), so line breaking, justification and layout see glyphs with their
/// shaped advances and need no change. A run is the longest stretch of one script in one
/// section, the marks and zero-width (non-)joiners after its characters included: a space, a
/// character of another script or a section's end ends it. No line breaks inside a run, since
/// the ids are no break opportunity (nor were its characters for MapLibre: it breaks such text
/// only at spaces).
enum ShapedRuns {
    /// Replaces the runs of `text` that `runs` shapes; the glyphs by id. A run `runs` gives
    /// nil (or nothing) for keeps its characters.
    static func replace(in text: inout TaggedText, sections: [TextSection], runs: TextShaper.RunShaper) -> [UInt32: SDFGlyph] {
        guard text.codePoints.contains(where: { ScriptProperties.complexScript(of: $0) != nil }) else { return [:] }
        var glyphs: [UInt32: SDFGlyph] = [:]
        var out = TaggedText(codePoints: [], sections: [])
        let count = text.codePoints.count
        var start = 0
        while start < count {
            let section = text.sections[start]
            guard let script = ScriptProperties.complexScript(of: text.codePoints[start]), section < sections.count else {
                out.codePoints.append(text.codePoints[start]); out.sections.append(section)
                start += 1
                continue
            }
            var end = start + 1
            while end < count, text.sections[end] == section,
                  ScriptProperties.continuesComplexRun(text.codePoints[end], script: script) { end += 1 }
            let run = Array(text.codePoints[start..<end])
            if let shaped = runs(run, sections[section].fontStack), !shaped.isEmpty {
                for glyph in shaped { glyphs[glyph.codePoint] = glyph }
                out.codePoints += shaped.map(\.codePoint)
                out.sections += repeatElement(section, count: shaped.count)
            } else {
                out.codePoints += run
                out.sections += repeatElement(section, count: run.count)
            }
            start = end
        }
        text = out
        return glyphs
    }
}
