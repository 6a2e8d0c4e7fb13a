import Foundation
import MapCore
import Testing
@testable import MapData

/// Runs of complex scripts shaped by HarfBuzz over installed Noto fonts (fonts-noto-core):
/// reordering, conjuncts and mark positions as HarfBuzz 6.0 gives them. The glyph indices,
/// advances and offsets below were read with a 20-line C program over libharfbuzz 6.0
/// (hb_blob_create_from_file, hb_font_set_scale(24 × 64), hb_buffer_guess_segment_properties,
/// hb_shape; hb-shape is not installed here) on Debian's Noto Sans Devanagari and Noto Sans
/// Thai, and printed with hb_font_get_glyph_name:
///
///     हिन्दी  607 ivowelsign03deva cl=0 adv=398 | 61 hadeva cl=0 adv=816 | 202 naprehalfdeva cl=6 adv=475
///            | 42 dadeva cl=12 adv=799 | 653 iivowelsign1deva cl=12 adv=398
///     ปี่     80 uni0E1B adv=929 | 95 uni0E35.narrow adv=0 | 44 uni0E48.small adv=0 x_offset=-212
///     ฎุ      11 uni0E0E.short adv=926 | 98 uni0E38.small adv=0 y_offset=2
///
/// (Positions in 64ths of a pixel at 24 px; clusters in UTF-8 bytes there.) The i-matra
/// (U+093F, nominally glyph 67) comes first, as a variant sized for the conjunct it spans;
/// न + ् (U+0928 U+094D) become one half form. Noto Sans Thai places its tone marks with
/// horizontal offsets and smaller variants; the only y offset among common syllables is the
/// sara u under the shortened ฎ.
@Suite(.enabled(if: NotoFonts.installed, "fonts-noto-core is not installed"))
struct HarfBuzzShapingTests {
    static let appFonts = NotoFonts.appFonts
    static func file(_ family: String) -> String? { NotoFonts.file(family) }

    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// Glyph `index` of the font of `family` drawn by index, as a shaped glyph's field is made.
    static func drawn(_ family: String, index: UInt32) throws -> SDFGlyph {
        let face = try SDFFontFace(path: try #require(file(family)))
        return try #require(face.glyph(index: index, id: 0)).get()
    }

    @Test func devanagariIsReorderedAndJoined() throws {
        let lines = LocalGlyphsTests.Lines()
        let local = LocalGlyphs(appFontDirectory: Self.appFonts, report: lines.add)
        let stack = "Noto Sans Devanagari Regular"
        let word = Self.scalars("हिन्दी")
        let run = try #require(local.shapeRun(word, stack: stack))
        // Six characters, five glyphs: the half form of न joins न and the virama.
        #expect(run.count == 5)
        #expect(run.map(\.advance) == [398, 816, 475, 799, 398].map { Double($0) / 64 })
        // The i-matra, typed after ह, is drawn first: its glyph, not ह's.
        let matra = try Self.drawn("Noto Sans Devanagari", index: 607)
        #expect(run.first?.bitmap == matra.bitmap && run.first?.left == matra.left && run.first?.top == matra.top)
        #expect(try run[1].bitmap == Self.drawn("Noto Sans Devanagari", index: 61).bitmap)
        #expect(try run[2].bitmap == Self.drawn("Noto Sans Devanagari", index: 202).bitmap)
        // Ids of the shaped area, each answered by glyph(_:stack:) afterwards; the run cached.
        #expect(run.allSatisfy { SDFGlyph.shapedIDs.contains($0.codePoint) })
        #expect(Set(run.map(\.codePoint)).count == 5)
        #expect(run.map { local.glyph($0.codePoint, stack: stack) } == run)
        #expect(local.shapeRun(word, stack: stack) == run)

        // Through TextShaper: the glyphs laid out at the run's advances.
        let section = TextSection(text: "हिन्दी", fontStack: stack)
        let shaped = try #require(TextShaper.shape([section], options: ShapingOptions(), glyphs: { local.glyph($0, stack: $1) },
                                                   runs: { local.shapeRun($0, stack: $1) }))
        #expect(shaped.glyphs.map(\.glyph) == run)
        let x = shaped.glyphs.map(\.x)
        #expect(zip(x.dropFirst(), x).map { $0 - $1 } == run.dropLast().map(\.advance))
        #expect(TextShaper.codePoints([section], options: ShapingOptions(), runs: { local.shapeRun($0, stack: $1) }).isEmpty)

        // A stack whose face lacks Devanagari: the fallback face shapes the run, on the stack's baseline.
        let dejaVu = try #require(local.shapeRun(word, stack: "DejaVu Sans Book"))
        #expect(dejaVu.map(\.advance) == run.map(\.advance))
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func thaiMarksArePositioned() throws {
        let local = LocalGlyphs(appFontDirectory: Self.appFonts) { _ in }
        let stack = "Noto Sans Thai Regular"
        // ป + sara ii + mai ek: the tone mark, in its small form, 212/64 px to the left.
        let tone = try #require(local.shapeRun(Self.scalars("ปี่"), stack: stack))
        #expect(tone.map(\.advance) == [929.0 / 64, 0, 0])
        let mark = try Self.drawn("Noto Sans Thai", index: 44)
        #expect(tone[2].bitmap == mark.bitmap && tone[2].left == mark.left - 212.0 / 64 && tone[2].top == mark.top)
        // ฎ + sara u: the vowel below, raised 2/64 px.
        let below = try #require(local.shapeRun(Self.scalars("ฎุ"), stack: stack))
        let u = try Self.drawn("Noto Sans Thai", index: 98)
        #expect(below.count == 2 && below[1].bitmap == u.bitmap && below[1].top == u.top + 2.0 / 64 && below[1].left == u.left)
    }

    @Test func runsWithoutComplexScriptsAreNotShaped() {
        let local = LocalGlyphs(appFontDirectory: Self.appFonts) { _ in }
        #expect(local.shapeRun(Self.scalars("Delhi"), stack: "DejaVu Sans Book") == nil)
        #expect(local.shapeRun([], stack: "DejaVu Sans Book") == nil)
        // Characters no installed font has: drawn one by one (as nothing).
        #expect(local.shapeRun([0x0E00, 0x0E01], stack: "Noto Sans Thai Regular") == nil)
    }

    @Test func shapedGlyphsAreBounded() throws {
        let local = LocalGlyphs(appFontDirectory: Self.appFonts, capacity: 6) { _ in }
        let stack = "Noto Sans Devanagari Regular"
        let first = try #require(local.shapeRun(Self.scalars("हिन्दी"), stack: stack))
        #expect(local.glyph(first[0].codePoint, stack: stack) == first[0])
        // Five more glyphs do not fit beside the first five: those are forgotten, and their
        // ids are not handed out again.
        let second = try #require(local.shapeRun(Self.scalars("नमस्ते"), stack: stack))
        #expect(Set(first.map(\.codePoint)).isDisjoint(with: second.map(\.codePoint)))
        #expect(local.glyph(first[0].codePoint, stack: stack) == nil)
        #expect(second.allSatisfy { local.glyph($0.codePoint, stack: stack) == $0 })
    }

    @Test func theStoreShapesOnlyRunsOfFailedRanges() throws {
        let dir = try GlyphStoreTests.glyphFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fallback = ShapingFallback()
        let store = GlyphStore(template: "glyphs/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: dir, assets: nil),
                               fallback: fallback)
        let stack = GlyphStoreTests.stack
        let latin = Self.scalars("AB"), hindi = Self.scalars("हिन्दी")
        // Not asked for yet: nothing to shape with.
        #expect(store.shapeRun(hindi, stack: stack) == nil)
        _ = store.request(latin + hindi, stack: stack)
        #expect(store.waitUntilIdle(timeout: 10))
        // The loaded range 0-255 keeps MapLibre's glyph per character; the missing 2304-2559
        // goes to the fallback, whose shaped glyphs the store then answers for.
        #expect(store.shapeRun(latin, stack: stack) == nil)
        let run = try #require(store.shapeRun(hindi, stack: stack))
        #expect(fallback.runs == [hindi])
        #expect(store.glyph(run[0].codePoint, stack: stack) == run[0])
        // A run across a loaded and a failed range is not shaped.
        #expect(store.shapeRun([0x41] + hindi, stack: stack) == nil && fallback.runs == [hindi])
    }

    /// A fallback that shapes any run into one glyph of the shaped area, and counts runs.
    final class ShapingFallback: GlyphSource, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [[UInt32]] = []
        let generation = 0
        static let glyph = SDFGlyph(codePoint: SDFGlyph.shapedIDs.lowerBound, width: 0, height: 0, left: 0, top: 0, advance: 9, bitmap: [])
        func request(_ codePoints: [UInt32], stack: String) -> Bool { true }
        func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? { codePoint == Self.glyph.codePoint ? Self.glyph : nil }
        func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]? {
            lock.lock(); asked.append(codePoints); lock.unlock()
            return [Self.glyph]
        }
        var runs: [[UInt32]] { lock.lock(); defer { lock.unlock() }; return asked }
    }
}

/// The fonts the shaping tests read (outside the suite, whose trait asks for them).
enum NotoFonts {
    static let appFonts = LocalGlyphsTests.fonts.path

    /// The file fontconfig gives `family` (nightmap's own fonts first).
    static func file(_ family: String) -> String? {
        FontMatcher(appFontDirectory: appFonts) { _ in }?.face(for: FontName(family))?.path
    }

    static let installed = file("Noto Sans Devanagari")?.hasSuffix("NotoSansDevanagari-Regular.ttf") == true
        && file("Noto Sans Thai")?.hasSuffix("NotoSansThai-Regular.ttf") == true
}
