import Foundation
import MapCore
import MapData
import Testing

/// TextShaper over the glyphs MapLibre's render tests serve (`Tests/Fixtures/glyphs`).
@Suite struct ShapingWithServedGlyphsTests {
    /// "Hello World" in Open Sans Semibold: the advances as the file gives them (H 18, e 13,
    /// l 6, o 14, space 6, W 22, r 10, d 14) add up to 129 units, centred on the anchor.
    @Test func helloWorldAdvancesAsTheFileSays() throws {
        let range = try GlyphRange(pbf: [UInt8](Data(contentsOf: GlyphRangeTests.file)))
        let section = TextSection(text: "Hello World", fontStack: "Open Sans Semibold,Arial Unicode MS Bold")
        let shaped = try #require(TextShaper.shape([section], options: ShapingOptions(), glyphs: { codePoint, _ in range.glyphs[codePoint] }))
        #expect(shaped.left == -64.5 && shaped.right == 64.5 && shaped.lineCount == 1)
        let pens = [0.0, 18, 31, 37, 43, 57, 63, 85, 99, 109, 115].map { $0 - 64.5 }
        #expect(shaped.glyphs.map(\.x) == pens)
        #expect(shaped.glyphs.allSatisfy { $0.y == -17 })
    }
}
