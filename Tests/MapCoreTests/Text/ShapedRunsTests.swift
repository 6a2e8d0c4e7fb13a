import MapCore
import Testing

/// TextShaper with a glyph source that shapes runs of complex scripts (a fake one here: every
/// run becomes glyphs of the shaped area, one fewer than its characters, 7 units each).
/// Every other character is a glyph of 10 units, as in TextShaperTests.
@Suite struct ShapedRunsTests {
    /// Records the runs it is offered and shapes those it is told to.
    final class FakeShaper {
        var runs: [[UInt32]] = []
        var next = SDFGlyph.shapedIDs.lowerBound
        let refuses: Bool
        init(refuses: Bool = false) { self.refuses = refuses }

        func shape(_ run: [UInt32], _ stack: String) -> [SDFGlyph]? {
            runs.append(run)
            guard !refuses else { return nil }
            return (1..<max(2, run.count)).map { _ in
                defer { next += 1 }
                return SDFGlyph(codePoint: next, width: 0, height: 0, left: 0, top: -8, advance: 7, bitmap: [])
            }
        }
    }

    static var font: (UInt32, String) -> SDFGlyph? { TextShaperTests.font() }
    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func aRunIsReplacedByItsGlyphs() throws {
        let shaper = FakeShaper()
        let sections = [TextSection(text: "AB हिन्दी C", fontStack: "Test")]
        let shaped = try #require(TextShaper.shape(sections, options: ShapingOptions(), glyphs: Self.font, runs: shaper.shape))
        // The whole word, its virama and vowel signs included, offered once; Latin never.
        #expect(shaper.runs == [Self.scalars("हिन्दी")])
        // A, B, space, five glyphs of the run, space, C: the run's advances are its glyphs'.
        let ids = Array(SDFGlyph.shapedIDs.lowerBound..<SDFGlyph.shapedIDs.lowerBound + 5)
        #expect(shaped.glyphs.map(\.glyph.codePoint) == [0x41, 0x42, 0x20] + ids + [0x20, 0x43])
        let x = shaped.glyphs.map(\.x)
        #expect(zip(x.dropFirst(), x).map { $0 - $1 } == [10, 10, 10, 7, 7, 7, 7, 7, 10])
        #expect(shaped.right - shaped.left == 10 * 5 + 7 * 5)
        // What must be requested: everything but the shaped run.
        let asked = TextShaper.codePoints(sections, options: ShapingOptions(), runs: FakeShaper().shape)
        #expect(asked == ["Test": Self.scalars("AB  C")])
    }

    @Test func linesDoNotBreakInsideARun() throws {
        var options = ShapingOptions()
        options.maxWidth = 20
        let text = "नमस्ते दुनिया"
        let shaped = try #require(TextShaper.shape([TextSection(text: text, fontStack: "Test")], options: options,
                                                   glyphs: Self.font, runs: FakeShaper().shape))
        // Two words of 5 glyphs each (35 units, wider than the 20 allowed): a line each, whole.
        let rows = Dictionary(grouping: shaped.glyphs, by: \.y).values.map { $0.map(\.glyph.codePoint) }.sorted { $0[0] < $1[0] }
        let first = SDFGlyph.shapedIDs.lowerBound
        #expect(rows == [Array(first..<first + 5), Array(first + 5..<first + 10)])
        // Glyph by glyph (a source that cannot shape), MapLibre's breaks are the same: only at the space.
        let plain = try #require(TextShaper.shape([TextSection(text: text, fontStack: "Test")], options: options,
                                                  glyphs: Self.font, runs: FakeShaper(refuses: true).shape))
        #expect(Set(plain.glyphs.map(\.y)).count == 2 && plain.glyphs.count == Self.scalars(text).count - 1)
    }

    @Test func runsStopAtSectionsAndScripts() throws {
        let shaper = FakeShaper()
        let sections = [TextSection(text: "कि", fontStack: "A"), TextSection(text: "कथाไทย", fontStack: "B")]
        _ = TextShaper.shape(sections, options: ShapingOptions(), glyphs: Self.font, runs: shaper.shape)
        #expect(shaper.runs == [Self.scalars("कि"), Self.scalars("कथा"), Self.scalars("ไทย")])
        // A mark after a Latin letter starts no run.
        let marks = FakeShaper()
        _ = TextShaper.shape([TextSection(text: "e\u{301}", fontStack: "A")], options: ShapingOptions(), glyphs: Self.font, runs: marks.shape)
        #expect(marks.runs.isEmpty)
    }

    @Test func aRefusedRunIsDrawnGlyphByGlyphWithLetterSpacing() throws {
        var options = ShapingOptions()
        options.letterSpacing = 2
        let sections = [TextSection(text: "कथा", fontStack: "Test")]
        let plain = try #require(TextShaper.shape(sections, options: options, glyphs: Self.font, runs: FakeShaper(refuses: true).shape))
        #expect(plain.glyphs.map(\.glyph.codePoint) == Self.scalars("कथा") && plain.glyphs.map(\.x) == [-17, -5, 7])
        // Shaped, the label has no letter spacing (HarfBuzz's marks would come off their bases).
        let shaped = try #require(TextShaper.shape(sections, options: options, glyphs: Self.font, runs: FakeShaper().shape))
        #expect(shaped.glyphs.map(\.x) == [-7, 0])
    }

    @Test func aShapedRunLiesSidewaysInVerticalText() throws {
        var options = ShapingOptions()
        options.writingMode = .vertical
        let shaped = try #require(TextShaper.shape([TextSection(text: "中कथा", fontStack: "Test")], options: options,
                                                   glyphs: Self.font, runs: FakeShaper().shape))
        // The ideograph upright; the run's two glyphs turned with the line, like Latin, each
        // advancing by its own width rather than an em.
        #expect(shaped.glyphs.map(\.vertical) == [true, false, false])
        #expect(shaped.glyphs.map(\.x) == [-19, 5, 12])
    }
}
