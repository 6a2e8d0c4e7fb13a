import MapCore
import Testing

/// TextShaper against cases worked out by hand from MapLibre GL JS 5.14's shaping.ts and
/// tagged_string.ts. Every glyph advances 10 units unless a test says otherwise; control
/// characters, U+200B and 'X' have no glyph. One line of the default 28.8-unit line height
/// sits at y = −17 when centred.
@Suite struct TextShaperTests {
    static func glyph(_ codePoint: UInt32, advance: Double = 10) -> SDFGlyph {
        SDFGlyph(codePoint: codePoint, width: 0, height: 0, left: 0, top: -8, advance: advance, bitmap: [])
    }

    /// The synthetic font: 10 units a glyph, `advances` overriding some.
    static func font(_ advances: [UInt32: Double] = [:]) -> (UInt32, String) -> SDFGlyph? {
        { codePoint, _ in
            if codePoint < 0x20 || codePoint == 0x200B || codePoint == 0x58 { return nil }
            return glyph(codePoint, advance: advances[codePoint] ?? 10)
        }
    }

    static func shape(_ text: String, _ options: ShapingOptions = ShapingOptions(), font: (UInt32, String) -> SDFGlyph? = font(),
                      bidi: (any BidiShaper)? = nil) -> ShapedText? {
        TextShaper.shape([TextSection(text: text, fontStack: "Test")], options: options, glyphs: font, bidi: bidi)
    }

    /// The text of each line, told apart by the glyphs' y.
    static func lines(_ shaped: ShapedText?) -> [String] {
        var lines: [(y: Double, text: String)] = []
        for glyph in shaped?.glyphs ?? [] {
            let character = String(UnicodeScalar(glyph.glyph.codePoint).map(Character.init) ?? "?")
            if let last = lines.last, abs(last.y - glyph.y) < 1e-9 {
                lines[lines.count - 1].text += character
            } else {
                lines.append((glyph.y, character))
            }
        }
        return lines.map(\.text)
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
    static func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { near($0, $1) } }

    @Test func oneLineIsCentredOnTheAnchor() throws {
        let shaped = try #require(Self.shape("ABC"))
        #expect(Self.near(shaped.glyphs.map(\.x), [-15, -5, 5]))
        #expect(shaped.glyphs.allSatisfy { Self.near($0.y, -17) && !$0.vertical && $0.scale == 1 && $0.section == 0 })
        #expect(Self.near(shaped.top, -14.4) && Self.near(shaped.bottom, 14.4))
        #expect(shaped.left == -15 && shaped.right == 15 && shaped.lineCount == 1)
    }

    @Test func lineFeedsBreakEvenWithoutAWidthLimit() throws {
        let shaped = try #require(Self.shape("AB\nCDE"))
        #expect(Self.lines(shaped) == ["AB", "CDE"])
        // Line tops at 0 and 28.8, moved up by half the block (28.8).
        #expect(Self.near(shaped.glyphs.map(\.y), [-31.4, -31.4, -2.6, -2.6, -2.6]))
        #expect(Self.near(shaped.glyphs.map(\.x), [-10, 0, -15, -5, 5]))
        #expect(Self.near(shaped.top, -28.8) && Self.near(shaped.bottom, 28.8) && shaped.lineCount == 2)
        // An empty line still takes a line's height: tops at 0, 28.8 and 57.6, block 86.4.
        let gap = try #require(Self.shape("A\n\nB"))
        #expect(Self.near(gap.glyphs.map(\.y), [-45.8, 11.8]) && gap.lineCount == 3)
        #expect(Self.near(gap.top, -43.2) && Self.near(gap.bottom, 43.2))
        let alongLine = ShapingOptions(maxWidth: .infinity)
        #expect(Self.lines(Self.shape("AB\nCDE", alongLine)) == ["AB", "CDE"])
        #expect(Self.lines(Self.shape("AAAAAAAAAA BBBBBBBBBB CCCCCCCCCC", alongLine)) == ["AAAAAAAAAA BBBBBBBBBB CCCCCCCCCC"])
    }

    /// "AA BB CC DD EE" is 140 wide: two lines at max width 130, so a target of 70. Breaks after
    /// the spaces end lines at x = 20, 40, 60, 80 (spaces not counted). The last line scores
    /// (100 − x − 70)²/2 when shorter than 70: after "CC" that is 450 + (60 − 70)² = 550, less
    /// than after "BB" (900 + 50 = 950) or "DD" (1250 + 100 = 1350). A greedy breaker would
    /// have put "AA BB CC DD" (110) on the first line.
    @Test func linesAreBalancedRatherThanFilled() {
        #expect(Self.lines(Self.shape("AA BB CC DD EE", ShapingOptions(maxWidth: 130))) == ["AA BB CC", "DD EE"])
    }

    /// '-' and '/' advance 0 here, so the breaks after them both end the first line at x = 20
    /// with the same badness (target 20 of 40): MapLibre's `<=` takes the later one, and '/'
    /// stays on the first line.
    @Test func equallyGoodBreaksGoToTheLaterOne() {
        let font = Self.font([0x2D: 0, 0x2F: 0])
        #expect(Self.lines(Self.shape("AA-/BB", ShapingOptions(maxWidth: 30), font: font)) == ["AA-/", "BB"])
    }

    /// Target 50. Breaking after '-' (x = 50) would be perfect but starts the next line with ')':
    /// +50 penalty, 2500. After ')' (x = 60): 100 + the last line's 50 = 150 wins.
    /// With the fullwidth '（' the same holds at the end of a line.
    @Test func parenthesesStayWithTheirWords() {
        let options = ShapingOptions(maxWidth: 60)
        #expect(Self.lines(Self.shape("AAAA-)-BBB", options)) == ["AAAA-)", "-BBB"])
        #expect(Self.lines(Self.shape("AAAA\u{FF08}-BBBB", options)) == ["AAAA\u{FF08}-", "BBBB"])
        // A line may break before '(' when two characters follow it ('(' and one more).
        #expect(Self.lines(Self.shape("AAAA(BBBBB", options)) == ["AAAA", "(BBBBB"])
    }

    /// Six ideographs, 60 wide, max 40: target 30, any break between them, so three and three.
    /// With a U+200B in the text, breaks between ideographs cost 150 (22,500) and the one at
    /// the zero-width space wins though it leaves a single ideograph on the first line.
    @Test func ideographsBreakAnywhereUnlessZeroWidthSpacesSayWhere() {
        let options = ShapingOptions(maxWidth: 40)
        #expect(Self.lines(Self.shape("中中中中中中", options)) == ["中中中", "中中中"])
        #expect(Self.lines(Self.shape("中\u{200B}中中中中中", options)) == ["中", "中中中中中"])
    }

    /// "AAAA" over "BB": 40 and 20 long, centred on the anchor as a block of 40.
    @Test func justifyMovesEachLineWithinTheBlock() throws {
        func xs(_ justify: TextJustify) throws -> [Double] {
            try #require(Self.shape("AAAA\nBB", ShapingOptions(justify: justify))).glyphs.map(\.x)
        }
        #expect(Self.near(try xs(.left), [-20, -10, 0, 10, -20, -10]))
        #expect(Self.near(try xs(.center), [-20, -10, 0, 10, -10, 0]))
        #expect(Self.near(try xs(.right), [-20, -10, 0, 10, 0, 10]))
    }

    /// "ABC", 30 × 28.8, centre-justified, at each anchor: its box and first glyph.
    @Test(arguments: [
        (IconAnchor.center, -15.0, -14.4, -17.0), (.left, 0, -14.4, -17), (.right, -30, -14.4, -17),
        (.top, -15, 0, -2.6), (.bottom, -15, -28.8, -31.4), (.topLeft, 0, 0, -2.6), (.topRight, -30, 0, -2.6),
        (.bottomLeft, 0, -28.8, -31.4), (.bottomRight, -30, -28.8, -31.4),
    ])
    func anchorsPutTheirPointOfTheBoxAtTheOrigin(anchor: IconAnchor, left: Double, top: Double, y: Double) throws {
        let shaped = try #require(Self.shape("ABC", ShapingOptions(anchor: anchor)))
        #expect(Self.near(shaped.left, left) && Self.near(shaped.right, left + 30))
        #expect(Self.near(shaped.top, top) && Self.near(shaped.bottom, top + 28.8))
        #expect(Self.near(shaped.glyphs[0].x, left) && Self.near(shaped.glyphs[0].y, y))
    }

    @Test func textOffsetMovesGlyphsAndBox() throws {
        let shaped = try #require(Self.shape("ABC", ShapingOptions(offset: (24, -12))))
        #expect(Self.near(shaped.glyphs.map(\.x), [9, 19, 29]))
        #expect(shaped.glyphs.allSatisfy { Self.near($0.y, -29) })
        #expect(Self.near(shaped.left, 9) && Self.near(shaped.right, 39))
        #expect(Self.near(shaped.top, -26.4) && Self.near(shaped.bottom, 2.4))
    }

    /// 2 units after every glyph; the line's length leaves out the last one (3 × 12 − 2 = 34).
    /// One Arabic letter drops the spacing from the whole label.
    @Test func letterSpacingExceptForCursiveScripts() throws {
        let spaced = try #require(Self.shape("ABC", ShapingOptions(letterSpacing: 2)))
        #expect(Self.near(spaced.glyphs.map(\.x), [-17, -5, 7]))
        #expect(spaced.left == -17 && spaced.right == 17)
        let arabic = try #require(Self.shape("ABC\u{628}", ShapingOptions(letterSpacing: 2)))
        #expect(Self.near(arabic.glyphs.map(\.x), [-20, -10, 0, 10]))
        #expect(arabic.left == -20 && arabic.right == 20)
    }

    @Test func aMissingGlyphTakesNoRoom() throws {
        let shaped = try #require(Self.shape("AXB"))
        #expect(shaped.glyphs.map(\.glyph.codePoint) == [0x41, 0x42])
        #expect(Self.near(shaped.glyphs.map(\.x), [-10, 0]))
        #expect(shaped.left == -10 && shaped.right == 10)
    }

    /// GL JS's quirk, kept: after a character without a glyph, the line's section cursor lags
    /// one behind, so 'B' is drawn with the section of 'X' (index 0, scale 1), not its own.
    @Test func aMissingGlyphShiftsTheSectionsAfterItAsInGLJS() throws {
        let shaped = try #require(TextShaper.shape([TextSection(text: "AX", fontStack: "Test"),
                                                    TextSection(text: "B", fontStack: "Test", scale: 2)],
                                                   options: ShapingOptions(), glyphs: Self.font()))
        #expect(shaped.glyphs.map(\.section) == [0, 0] && shaped.glyphs.map(\.scale) == [1, 1])
    }

    @Test func nothingToDrawIsNil() {
        for text in ["", "   ", " \n\t ", "XX", "\u{200B}"] { #expect(Self.shape(text) == nil, "\(text.debugDescription)") }
    }

    /// "AB" at scale 1 and "C" at 1.5: the line is 36 units tall, so A and B sit 12 lower
    /// (bottom-aligned), the line advances 43.2, and the block is centred on its height
    /// (−43.2/2 + 17 = −4.6). Top-aligned, A and B rise to C's top.
    @Test func aLargerSectionRaisesItsLine() throws {
        func shape(_ align: TextSection.VerticalAlign) throws -> ShapedText {
            try #require(TextShaper.shape([TextSection(text: "AB", fontStack: "Test", verticalAlign: align),
                                           TextSection(text: "C", fontStack: "Test", scale: 1.5)],
                                          options: ShapingOptions(), glyphs: Self.font()))
        }
        let bottom = try shape(.bottom)
        #expect(Self.near(bottom.glyphs.map(\.y), [-9.6, -9.6, -21.6]))
        #expect(Self.near(bottom.glyphs.map(\.x), [-17.5, -7.5, 2.5]))
        #expect(bottom.glyphs.map(\.section) == [0, 0, 1] && bottom.glyphs.map(\.scale) == [1, 1, 1.5])
        #expect(Self.near(bottom.top, -21.6) && Self.near(bottom.bottom, 21.6))
        #expect(Self.near(try shape(.top).glyphs.map(\.y), [-21.6, -21.6, -21.6]))
        #expect(Self.near(try shape(.center).glyphs.map(\.y), [-15.6, -15.6, -21.6]))
    }

    /// Vertically, '(' between ideographs becomes '︵' and every glyph stands upright, a full
    /// em apart (72 long, justified left as the caller passes it); next to a Latin letter '('
    /// stays, and a line label's vertical shaping sets only CJK upright.
    @Test func verticalWritingSetsIdeographsUprightAnEmApart() throws {
        let vertical = ShapingOptions(justify: .left, writingMode: .vertical)
        let shaped = try #require(Self.shape("中(中", vertical))
        #expect(shaped.glyphs.map(\.glyph.codePoint) == [0x4E2D, 0xFE35, 0x4E2D])
        #expect(Self.near(shaped.glyphs.map(\.x), [-36, -12, 12]))
        #expect(shaped.glyphs.allSatisfy { $0.vertical && Self.near($0.y, -17) })
        #expect(shaped.left == -36 && shaped.right == 36 && shaped.writingMode == .vertical)

        var alongLine = vertical
        alongLine.verticalPlacement = false
        let mixed = try #require(Self.shape("A(中", alongLine))
        #expect(mixed.glyphs.map(\.glyph.codePoint) == [0x41, 0x28, 0x4E2D])
        #expect(mixed.glyphs.map(\.vertical) == [false, false, true])
        #expect(Self.near(mixed.glyphs.map(\.x), [-22, -12, -2]))

        // Scale 2: 48 apart; the line (57.6) is centred on its height, then quads.ts's centring
        // of scaled glyphs (24/2 − 24 = −12) lowers them: −17 − 11.8 + 12.
        let large = try #require(TextShaper.shape([TextSection(text: "中中", fontStack: "Test", scale: 2)],
                                                  options: vertical, glyphs: Self.font()))
        #expect(Self.near(large.glyphs.map(\.x), [-48, 0]))
        #expect(large.glyphs.allSatisfy { Self.near($0.y, -16.8) })
        #expect(Self.near(large.top, -28.8) && Self.near(large.bottom, 28.8))
    }

    /// Records what shaping asks of the bidi hook; "joins" א into ב and reverses each line.
    final class RecordingBidi: BidiShaper, @unchecked Sendable {
        var shaped: [[UInt32]] = []
        var cut: [(text: [UInt32], sections: [Int], breaks: [Int])] = []
        func shapeArabic(_ text: [UInt32]) -> [UInt32] {
            shaped.append(text)
            return text.map { $0 == 0x5D0 ? 0x5D1 : $0 }
        }
        func lines(_ text: [UInt32], sections: [Int], breaks: [Int]) -> [(text: [UInt32], sections: [Int])] {
            cut.append((text, sections, breaks))
            let bounds = [0] + breaks + [text.count]
            return zip(bounds, bounds.dropFirst()).map { (Array(text[$0..<$1].reversed()), Array(sections[$0..<$1].reversed())) }
        }
    }

    @Test func rightToLeftTextGoesThroughTheBidiHookLineByLine() throws {
        let bidi = RecordingBidi()
        let sections = [TextSection(text: "AB\n", fontStack: "Test"), TextSection(text: "\u{5D0}C", fontStack: "Test")]
        let shaped = try #require(TextShaper.shape(sections, options: ShapingOptions(), glyphs: Self.font(), bidi: bidi))
        #expect(bidi.shaped == [[0x41, 0x42, 0x0A], [0x5D0, 0x43]])
        #expect(bidi.cut.count == 1)
        #expect(bidi.cut.first?.text == [0x41, 0x42, 0x0A, 0x5D1, 0x43])
        #expect(bidi.cut.first?.sections == [0, 0, 0, 1, 1])
        #expect(bidi.cut.first?.breaks == [3])
        #expect(Self.lines(shaped) == ["BA", "C\u{5D1}"])
        #expect(shaped.glyphs.map(\.section) == [0, 0, 1, 1])

        let latin = RecordingBidi()
        _ = Self.shape("AB\nCD", bidi: latin)
        #expect(latin.shaped.isEmpty && latin.cut.isEmpty)
    }
}
