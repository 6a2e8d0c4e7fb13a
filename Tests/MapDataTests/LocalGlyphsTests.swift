import Foundation
@testable import MapData
import MapCore
import Testing

/// Glyphs from local fonts (`LocalGlyphs`): fontconfig matching of `text-font` names, TinySDF's
/// field, and glyphs of nightmap's DejaVu Sans (`Resources/fonts`) in the glyph servers' form.
@Suite struct LocalGlyphsTests {
    static let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/fonts").standardizedFileURL

    /// Collects reported lines (the report closure is called from any thread).
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    @Test func namesReadAsMapLibreGuessesWeightAndStyle() {
        let table: [(String, String, Int, Bool)] = [
            ("Open Sans Semibold Italic", "Open Sans", 600, true),
            ("Noto Sans Black", "Noto Sans", 900, false),
            ("Noto Sans Bold", "Noto Sans", 700, false),
            ("DejaVu Sans Book", "DejaVu Sans", 400, false),
            ("Open Sans Regular", "Open Sans", 400, false),
            ("Roboto Thin", "Roboto", 100, false),
            ("Roboto Hairline", "Roboto", 100, false),
            ("Source Sans Pro Extra Light", "Source Sans Pro", 200, false),
            ("Inter UltraLight", "Inter", 200, false),
            ("Lato Light Oblique", "Lato", 300, true),
            ("Roboto Medium", "Roboto", 500, false),
            ("Fira Sans Semi-Bold", "Fira Sans", 600, false),
            ("Metropolis DemiBold", "Metropolis", 600, false),
            ("Noto Sans ExtraBold", "Noto Sans", 800, false),
            ("Montserrat Ultra Bold", "Montserrat", 800, false),
            ("Arial Heavy", "Arial", 900, false),
            ("Inter Extra Black", "Inter", 950, false),
            ("Lato BoldItalic", "Lato", 700, true),
            ("Arial Unicode MS Regular", "Arial Unicode MS", 400, false),
            // Only trailing words are style words: this family starts with one.
            ("Black Ops One", "Black Ops One", 400, false),
            ("Klokantech Noto Sans Italic", "Klokantech Noto Sans", 400, true),
        ]
        for (text, family, weight, italic) in table {
            let name = FontName(text)
            #expect(name.family == family && name.weight == weight && name.italic == italic, "\(text) read as \(name)")
        }
    }

    @Test func bundledFontsMatchByName() throws {
        var lines: [String] = []
        let matcher = try #require(FontMatcher(appFontDirectory: Self.fonts.path) { lines.append($0) })
        // The bundled files, not the system's copies of DejaVu (found first by name).
        #expect(matcher.face(for: FontName("DejaVu Sans Bold"))?.path == Self.fonts.appendingPathComponent("DejaVuSans-Bold.ttf").path)
        #expect(matcher.face(for: FontName("DejaVu Sans Book"))?.path == Self.fonts.appendingPathComponent("DejaVuSans.ttf").path)
        // No bold italic is bundled: an installed Bold Oblique (fonts-dejavu-extra) is closer
        // in style than the bundled Bold and wins; without one, the bundled Bold is used.
        let boldItalic = FontName("DejaVu Sans Bold Italic")
        let installed = matcher.fallbackFaces(for: 65, like: boldItalic).first { $0.path.hasSuffix("DejaVuSans-BoldOblique.ttf") }
        #expect(matcher.face(for: boldItalic)?.path == (installed?.path ?? Self.fonts.appendingPathComponent("DejaVuSans-Bold.ttf").path))
        // A family nobody has is not matched by name, though fontconfig would put another in its place.
        #expect(matcher.face(for: FontName("Nowhere Sans Bold")) == nil)
        #expect(matcher.closestFace(to: FontName("Nowhere Sans Bold")) != nil)
        // The licence text beside the fonts is not a font file: nothing to report.
        #expect(lines.isEmpty, "\(lines)")
    }

    @Test func distanceTransformIsFelzenszwalbHuttenlochers() {
        // Squared distances to the nearest zero, by hand: a row, and a 3x3 with a zero in the middle.
        let inf = TinySDF.infinity
        var scratch = TinySDF.EDTScratch(length: 8)
        var row = [inf, inf, 0, inf, inf]
        TinySDF.edt(&row, x0: 0, y0: 0, width: 5, height: 1, gridWidth: 5, &scratch)
        #expect(row == [4, 1, 0, 1, 4])
        var square = [Double](repeating: inf, count: 9)
        square[4] = 0
        TinySDF.edt(&square, x0: 0, y0: 0, width: 3, height: 3, gridWidth: 3, &scratch)
        #expect(square == [2, 1, 2, 1, 0, 1, 2, 1, 2])
        // 4 x 3 with the zero at (2, 1): (dx² + dy²) for each cell.
        var wide = [Double](repeating: inf, count: 12)
        wide[6] = 0
        TinySDF.edt(&wide, x0: 0, y0: 0, width: 4, height: 3, gridWidth: 4, &scratch)
        #expect(wide == [5, 2, 1, 2, 4, 1, 0, 1, 5, 2, 1, 2])
        // Finite seeds (anti-aliased pixels'): min over r of f(r) + (q - r)², by hand.
        var seeded: [Double] = [1, 9, 0.25, 9, 16]
        TinySDF.edt(&seeded, x0: 0, y0: 0, width: 5, height: 1, gridWidth: 5, &scratch)
        #expect(seeded == [1, 1.25, 0.25, 1.25, 4.25])
        // All zeros stay zeros (every parabola ties).
        var zeros = [Double](repeating: 0, count: 5)
        TinySDF.edt(&zeros, x0: 0, y0: 0, width: 5, height: 1, gridWidth: 5, &scratch)
        #expect(zeros == [0, 0, 0, 0, 0])
    }

    @Test func fieldIsTinySDFs() throws {
        // One fully covered pixel: a 7x7 field. Outside pixels are their distance d to it:
        // round(255 - 255 * (d / 8 + 0.25)): d = 1 -> 159, √2 -> 146, 3 -> 96, √18 (the corner) -> 56.
        // The pixel itself is inside with no outside pixel in its 1x1 box (TinySDF's inner
        // transform sees only the box): 255.
        let one = field([255], 1, 1)
        try #require(one.count == 49)
        #expect(one[3 * 7 + 3] == 255 && one[3 * 7 + 2] == 159 && one[2 * 7 + 2] == 146 && one[3 * 7] == 96 && one[0] == 56)
        // A quarter-covered pixel (64/255) is 0.5 - 0.251 = 0.249 px outside its edge: 183 there,
        // √(1 + 0.249²) = 1.0305 beside it: 158.
        let quarter = field([64], 1, 1)
        #expect(quarter[3 * 7 + 3] == 183 && quarter[3 * 7 + 4] == 158 && quarter[0] == 56)
        // 2x2 with rows (255, 128) and (0, 255): the full pixel at (0, 0) is 1 px from the empty
        // one below it, inside: round(255 - 255 * (-1/8 + 0.25)) = 223; the 128 pixel sits on
        // the edge (0.5 - 128/255 ≈ 0): 191.
        let two = field([255, 128, 0, 255], 2, 2)
        #expect(two.count == 64 && two[3 * 8 + 3] == 223 && two[3 * 8 + 4] == 191 && two[4 * 8 + 4] == 223 && two[4 * 8 + 3] == 159)
    }

    private func field(_ coverage: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        coverage.withUnsafeBufferPointer { TinySDF.field($0, width: width, height: height, pitch: width) }
    }

    @Test func dejaVuAIsAServerStyleField() throws {
        let glyphs = LocalGlyphs(appFontDirectory: Self.fonts.path) { _ in }
        let a = try #require(glyphs.glyph(65, stack: "DejaVu Sans Book"))
        let w = a.width + 6, h = a.height + 6
        try #require(a.bitmap.count == w * h)
        // Corners of the border are far outside the ink; the left leg's foot (the bottom ink
        // row, its first columns) is inside.
        for corner in [0, w - 1, (h - 1) * w, h * w - 1] { #expect(a.bitmap[corner] < 100, "corner \(corner): \(a.bitmap[corner])") }
        let foot = (h - 4) * w + 4
        #expect(a.bitmap[foot] > 191, "foot \(a.bitmap[foot])")
        // The edge is at 192: going down the foot's column, the field falls through 192 between
        // the last ink row and the border row under it.
        #expect(a.bitmap[foot + w] < 192 && a.bitmap[foot + w] > 128, "under the foot \(a.bitmap[foot + w])")
        // The crossbar's middle (row 15 of 24) is ink; the counter above it, at the bitmap's
        // centre, is not. Strokes 1.5 px wide are at most ~1 px deep: no pixel reaches 255.
        #expect(a.bitmap[15 * w + w / 2] > 191 && a.bitmap[(h / 2) * w + w / 2] < 192)
        #expect(a.bitmap.max().map { $0 > 191 && $0 < 255 } == true)
    }

    @Test func localMetricsFollowTheServersConvention() throws {
        let glyphs = LocalGlyphs(appFontDirectory: Self.fonts.path) { _ in }
        // fontnik's arithmetic on DejaVu Sans at 24 px: the ascender line is 23 px above the
        // baseline (1901/2048 em, rounded up by FreeType), 'A' is 17.5 px tall so its bitmap
        // is 18 rows with its top 18 px up: top = 18 - 23 = -5 (Open Sans' taller ascender, 26 px,
        // gives the fixture PBF's 'A' 18 - 26 = -8); its advance 16.42 px truncates to 16.
        let a = try #require(glyphs.glyph(65, stack: "DejaVu Sans Book"))
        #expect(a.width == 17 && a.height == 18 && a.left == 0 && a.top == -5 && a.advance == 16, "\(a.width) \(a.height) \(a.left) \(a.top) \(a.advance)")
        // As in the PBF, a space has no field and its top is the ascender's.
        let space = try #require(glyphs.glyph(32, stack: "DejaVu Sans Book"))
        #expect(space.width == 0 && space.height == 0 && space.bitmap.isEmpty && space.top == -23 && space.advance == 7)
        // The same baseline for the server's 'A' and the local one: top + height is where the
        // bitmap ends, the baseline, measured from the ascender line; so the local 'A' stands
        // on the line 3 px higher up than the PBF's, by the two fonts' ascenders.
        let pbf = try GlyphRange(pbf: [UInt8](Data(contentsOf: GlyphRangeTests.file)))
        let served = try #require(pbf.glyphs[65])
        #expect(served.top + Double(served.height) == 10 && a.top + Double(a.height) == 13)
        // Bold comes from the bold file: wider, same height.
        let bold = try #require(glyphs.glyph(65, stack: "DejaVu Sans Bold"))
        #expect(bold.width == 19 && bold.height == 18 && bold.advance == 18)
    }

    @Test func missingCodePointsAreNilAndOthersFallBack() throws {
        let lines = Lines()
        let glyphs = LocalGlyphs(appFontDirectory: Self.fonts.path) { lines.add($0) }
        // No installed font has a glyph for a private-use code point of plane 16 (nor an unassigned one).
        #expect(glyphs.glyph(0x10FFFD, stack: "DejaVu Sans Book") == nil)
        #expect(glyphs.glyph(0x0378, stack: "DejaVu Sans Book") == nil)
        // DejaVu Sans lacks MATHEMATICAL BOLD CAPITAL A; DejaVu Serif (fonts-dejavu-core, which
        // fontconfig's Debian package depends on) has it: it falls back.
        let sans = try SDFFontFace(path: Self.fonts.appendingPathComponent("DejaVuSans.ttf").path)
        #expect(!sans.hasGlyph(0x1D400))
        #expect(glyphs.glyph(0x1D400, stack: "DejaVu Sans Book") != nil)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func aStackOfNothingInstalledIsReportedOnce() throws {
        let lines = Lines()
        let glyphs = LocalGlyphs(appFontDirectory: Self.fonts.path) { lines.add($0) }
        let stack = "Nowhere Sans Semibold,Nowhere Unicode MS Bold"
        let a = try #require(glyphs.glyph(65, stack: stack))
        #expect(glyphs.glyph(66, stack: stack) != nil && glyphs.glyph(65, stack: stack) == a)
        #expect(lines.all.count == 1)
        // One line naming the stack and the font drawn instead (semibold: DejaVu's bold).
        let line = try #require(lines.all.first)
        #expect(line.contains(stack) && line.contains("DejaVu Sans Bold") && line.contains("DejaVuSans-Bold.ttf"), "\(line)")
        // The second name of a stack is used when the first is not installed, silently.
        #expect(glyphs.glyph(65, stack: "Nowhere Sans,DejaVu Sans Bold") == glyphs.glyph(65, stack: "DejaVu Sans Bold"))
        #expect(lines.all.count == 1)
    }

    @Test func badFontFilesAreNamedOnceAndOthersStillWork() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Self.fonts.appendingPathComponent("DejaVuSans.ttf"), to: dir.appendingPathComponent("DejaVuSans.ttf"))
        try Data("not a font at all".utf8).write(to: dir.appendingPathComponent("junk.ttf"))
        let bold = try Data(contentsOf: Self.fonts.appendingPathComponent("DejaVuSans-Bold.ttf"))
        try bold.prefix(4_000).write(to: dir.appendingPathComponent("truncated.ttf"))
        try Data().write(to: dir.appendingPathComponent("empty.otf"))

        let lines = Lines()
        let glyphs = LocalGlyphs(appFontDirectory: dir.path) { lines.add($0) }
        for cp in [65, 66, 0x1D400] as [UInt32] {
            #expect(glyphs.glyph(cp, stack: "DejaVu Sans Book") != nil)
            _ = glyphs.glyph(cp, stack: "DejaVu Sans Bold")
        }
        for name in ["junk.ttf", "truncated.ttf", "empty.otf"] {
            let named = lines.all.filter { $0.contains(name) }
            #expect(named.count == 1, "\(name): \(lines.all)")
            #expect(named.allSatisfy { $0.hasPrefix(dir.path) && !$0.contains("\n") })
        }
        #expect(lines.all.count == 3, "\(lines.all)")
    }

    @Test func aBadFontFromBytesIsAnError() throws {
        #expect(throws: SDFFontFace.Failure.self) { try SDFFontFace(bytes: Array("not a font".utf8), subject: "bytes") }
        #expect(throws: SDFFontFace.Failure.self) { try SDFFontFace(bytes: [], subject: "bytes") }
        // The fuzz target's find: a mutated DejaVu subset whose 'g' renders 256 px wide (its
        // box was under 255 px, the bitmap rounds out by a pixel). An error, not a field.
        let found = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/regressions/fonts/glyph-256-px-wide.ttf").standardizedFileURL
        let face = try SDFFontFace(bytes: [UInt8](Data(contentsOf: found)), subject: "found")
        guard case .failure(let f)? = face.glyph(0x67) else { Issue.record("'g' of \(found.lastPathComponent) is not an error"); return }
        #expect(f.description == "glyph 103 is larger than 255 px at 24 px")
    }
}
