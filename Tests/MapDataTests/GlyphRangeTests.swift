import Foundation
import MapData
import Testing

/// Glyph PBFs as MapLibre's render-test assets hold them (`Tests/Fixtures/glyphs`), and bad ones.
@Suite struct GlyphRangeTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/glyphs/Open Sans Semibold,Arial Unicode MS Bold-0-255.pbf").standardizedFileURL

    static func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: file)) }

    @Test func metricsAndFieldsAreTheServedOnes() throws {
        let range = try GlyphRange(pbf: Self.bytes())
        // 'A' and the space as MapLibre GL JS reads them from this file (w16 h18 left0 top-8
        // adv15 and a 22x24 field; the space w0 h0 top-26 adv6 without one).
        let a = try #require(range.glyphs[65])
        #expect(a.width == 16 && a.height == 18 && a.left == 0 && a.top == -8 && a.advance == 15)
        #expect(a.bitmap.count == 22 * 24)
        // The border is outside the ink (far from the edge: low distances); the ink's middle is inside.
        #expect(a.bitmap[0] < 64 && a.bitmap.max()! > 192)
        let space = try #require(range.glyphs[32])
        #expect(space.width == 0 && space.height == 0 && space.top == -26 && space.advance == 6 && space.bitmap.isEmpty)
        // A code point the range lacks has no glyph (control characters are not served).
        #expect(range.glyphs[1] == nil)
        #expect(range.glyphs.keys.allSatisfy { $0 < 256 })
    }

    @Test func everyTruncationIsOneNamedErrorOrFewerGlyphs() throws {
        let bytes = try Self.bytes()
        let whole = try GlyphRange(pbf: bytes).glyphs.count
        for cut in stride(from: 1, to: bytes.count, by: 97) {
            do {
                let part = try GlyphRange(pbf: Array(bytes[..<cut]))
                #expect(part.glyphs.count < whole)
            } catch let f as GlyphRange.Failure {
                #expect(f.description.contains("glyph") && !f.description.contains("\n"), "\(f.description)")
            }
        }
    }

    @Test func badGlyphsAreNamed() {
        // A font stack (field 1) holding one glyph (field 3) with the given fields.
        func file(_ glyph: [UInt8]) -> [UInt8] {
            let g: [UInt8] = [0x1a, UInt8(glyph.count)] + glyph
            return [0x0a, UInt8(g.count)] + g
        }
        func error(_ glyph: [UInt8]) -> String? {
            do { _ = try GlyphRange(pbf: file(glyph)); return nil } catch { return "\(error)" }
        }
        // id 65, width 2, height 2, a bitmap of 3 bytes (64 expected).
        #expect(error([0x08, 65, 0x18, 2, 0x20, 2, 0x12, 3, 1, 2, 3]) == "glyph 65: a bitmap of 3 bytes for 2x2 (expected 64)")
        // No id.
        #expect(error([0x18, 0, 0x20, 0, 0x38, 6]) == "a glyph without a code point")
        // A width of 1000.
        #expect(error([0x08, 65, 0x18, 0xe8, 0x07, 0x20, 2])?.hasPrefix("glyph 65: metrics out of range") == true)
        // Not a PBF at all.
        #expect(error([0xff, 0xff]) != nil)
        // A blank with no bitmap is fine, and unknown fields are skipped.
        #expect(error([0x08, 32, 0x38, 6, 0x40, 1]) == nil)
    }
}
