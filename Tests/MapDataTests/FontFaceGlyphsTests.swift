import Foundation
import MapCore
import Testing
@testable import MapData

/// A style's root `font-faces`: read into the document (bad entries warned about, never
/// refusing it), and drawn from by `FontFaceGlyphs` before the style's other glyphs.
@Suite struct FontFaceGlyphsTests {
    static let resources = LocalGlyphsTests.fonts.deletingLastPathComponent()
    static let bold = LocalGlyphsTests.fonts.appendingPathComponent("DejaVuSans-Bold.ttf").path

    /// Answers every code point with a glyph 99 px wide, and keeps what it was asked for.
    final class Fallback: GlyphSource, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [(codePoints: [UInt32], stack: String)] = []
        let generation = 0
        var requests: [(codePoints: [UInt32], stack: String)] { lock.lock(); defer { lock.unlock() }; return asked }
        func request(_ codePoints: [UInt32], stack: String) -> Bool {
            lock.lock(); asked.append((codePoints, stack)); lock.unlock()
            return true
        }
        func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
            SDFGlyph(codePoint: codePoint, width: 0, height: 0, left: 0, top: 0, advance: 99, bitmap: [])
        }
    }

    static func document(_ fontFaces: String) throws -> StyleDocument {
        try StyleDocument(data: Data(#"{"version": 8, "sources": {}, "layers": [], "font-faces": \#(fontFaces)}"#.utf8), name: "style.json")
    }

    /// The style's glyphs for a document of `fontFaces`, URLs relative to `Resources`.
    static func glyphs(_ fontFaces: String, fallback: Fallback, report: @escaping @Sendable (String) -> Void = { _ in }) throws -> any GlyphSource {
        let style = try StyleLoader.style(for: try document(fontFaces), resolver: ResourceResolver(styleDirectory: resources, assets: nil),
                                          localGlyphs: fallback, glyphReport: report)
        return try #require(style.glyphs)
    }

    @Test func fontFacesAreRead() throws {
        let doc = try Self.document("""
            {"My Font": [{"url": "fonts/DejaVuSans-Bold.ttf", "unicode-range": ["U+41-5A", "u+0a"]}],
             "Plain": "plain.ttf",
             "Cyrillic": [{"url": "c.ttf", "unicode-range": ["U+4??"]}, {"url": "d.ttf"}]}
            """)
        #expect(doc.fontFaces["My Font"] == [FontFaceSource(url: "fonts/DejaVuSans-Bold.ttf", unicodeRanges: [0x41...0x5A, 0x0A...0x0A])])
        #expect(doc.fontFaces["Plain"] == [FontFaceSource(url: "plain.ttf", unicodeRanges: [0...0x10FFFF])])
        #expect(doc.fontFaces["Cyrillic"] == [FontFaceSource(url: "c.ttf", unicodeRanges: [0x400...0x4FF]), FontFaceSource(url: "d.ttf")])
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
    }

    @Test func badEntriesAreWarningsAndLeftOut() throws {
        let doc = try Self.document("""
            {"Noto Sans Regular": [{"url": "ok.ttf", "unicode-range": ["U+0-7F"]},
                                   {"url": "a.ttf", "unicode-range": ["U+0-7F", "U+ZZ"]},
                                   {"url": "b.ttf", "unicode-range": ["U+110000", "U+5A-41"]},
                                   {"unicode-range": ["U+0-7F"]}, 5],
             "Number": 7,
             "Ranges": [{"url": "r.ttf", "unicode-range": "U+0-7F"}]}
            """)
        #expect(doc.fontFaces.keys.sorted() == ["Noto Sans Regular"])
        #expect(doc.fontFaces["Noto Sans Regular"] == [FontFaceSource(url: "ok.ttf", unicodeRanges: [0...0x7F])])
        let paths = doc.warnings.map { String($0.prefix { $0 != ":" }) }
        #expect(paths == ["font-faces.Noto Sans Regular[1].unicode-range[1]", "font-faces.Noto Sans Regular[2].unicode-range[0]",
                          "font-faces.Noto Sans Regular[2].unicode-range[1]", "font-faces.Noto Sans Regular[3].url",
                          "font-faces.Noto Sans Regular[4]", "font-faces.Number", "font-faces.Ranges[0].unicode-range"], "\(doc.warnings)")
        #expect(doc.warnings[0].hasSuffix("found \"U+ZZ\""), "\(doc.warnings[0])")
        // Not an object at all: one warning, and the document still loads.
        #expect(try Self.document("[]").warnings == ["font-faces: expected object, found array"])
    }

    @Test func codePointsInTheirRangeComeFromTheFile() throws {
        let fallback = Fallback()
        let glyphs = try Self.glyphs(#"{"My Font": [{"url": "fonts/DejaVuSans-Bold.ttf", "unicode-range": ["U+41-5A"]}]}"#, fallback: fallback)
        let file = try #require(try SDFFontFace(path: Self.bold).glyph(0x41)?.get())
        // 'A' is the bold file's (its own metrics and field: 19 px wide, 18 advance); 'a', outside
        // the range, the fallback's.
        #expect(file.width == 19 && file.advance == 18)
        #expect(glyphs.glyph(0x41, stack: "My Font") == file)
        #expect(glyphs.glyph(0x61, stack: "My Font")?.advance == 99)
        // Only what the file lacks is asked of the fallback, under the stack's own name.
        #expect(glyphs.request([0x41, 0x61, 0x5A], stack: "My Font"))
        #expect(fallback.requests.map(\.codePoints) == [[0x61]] && fallback.requests.map(\.stack) == ["My Font"])
        // A later name of a stack counts too; a stack without the name goes to the fallback.
        #expect(glyphs.glyph(0x41, stack: "Other Font, My Font") == file)
        #expect(glyphs.glyph(0x41, stack: "Other Font")?.advance == 99)
    }

    @Test func unusableFontsAreReportedOnceAndFallBack() throws {
        let fallback = Fallback()
        let lines = LocalGlyphsTests.Lines()
        let glyphs = try Self.glyphs("""
            {"Web": "https://example.com/fonts/web.ttf",
             "Text": [{"url": "fonts/LICENSE-DejaVu.txt"}],
             "Gone": "fonts/gone.ttf"}
            """, fallback: fallback, report: lines.add)
        #expect(lines.all.sorted() == ["font-faces: fonts/gone.ttf: no such file (\(Self.resources.path)/fonts/gone.ttf)",
                                       "font-faces: http fonts are not fetched yet; https://example.com/fonts/web.ttf"])
        for stack in ["Web", "Text", "Gone", "Text"] { #expect(glyphs.glyph(0x41, stack: stack)?.advance == 99, "\(stack)") }
        // The licence text is not a font: one line naming it, when first drawn from.
        #expect(lines.all.count == 3 && lines.all.last?.contains("LICENSE-DejaVu.txt") == true, "\(lines.all)")
    }

    @Test(.enabled(if: NotoFonts.installed, "fonts-noto-core is not installed"))
    func runsAreShapedFromTheFileWhenItCoversThem() throws {
        let noto = try #require(NotoFonts.file("Noto Sans Devanagari"))
        let fallback = Fallback()
        let glyphs = try Self.glyphs("""
            {"Deva": "file://\(noto)", "Part": [{"url": "file://\(noto)", "unicode-range": ["U+928-939"]}]}
            """, fallback: fallback)
        let word = "हिन्दी".unicodeScalars.map(\.value)
        // Shaped in the file (as local fonts shape it), under ids of the files' own.
        let run = try #require(glyphs.shapeRun(word, stack: "Deva"))
        #expect(run.count == 5 && run.allSatisfy { LocalGlyphs.namedIDs.contains($0.codePoint) })
        #expect(run.map { glyphs.glyph($0.codePoint, stack: "Deva") } == run)
        // A file covering part of the run: the fallback's shaping (here none), glyph by glyph.
        #expect(glyphs.shapeRun(word, stack: "Part") == nil)
    }
}
