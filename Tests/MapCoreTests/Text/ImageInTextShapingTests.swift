import MapCore
import Raster
import Testing

/// Images in text (`format` image sections) shaped as MapLibre GL JS 5.14's shaping.ts shapes
/// them, against cases worked out by hand: an image advances by its display width × 24 / text
/// size, pushes its line down by its height beyond the em, and a line may break after it.
/// Glyphs advance 10 units (`TextShaperTests.font`).
@Suite struct ImageInTextShapingTests {
    /// An image section of a `width` x `height`-pixel sprite image at `pixelRatio`.
    static func image(_ width: Int, _ height: Int, pixelRatio: Double = 1) -> TextSection {
        let icon = SpriteIcon(name: "i", image: Pixmap(width: width, height: height), pixelRatio: pixelRatio, sdf: false)
        return TextSection(text: "\u{E000}", fontStack: "Test", image: ImageInText(name: "i", icon: icon))
    }

    static func shape(_ sections: [TextSection], _ options: ShapingOptions) -> ShapedText? {
        TextShaper.shape(sections, options: options, glyphs: TextShaperTests.font())
    }

    @Test func anImageAdvancesByItsDisplayWidthAtTheTextSize() throws {
        // 20 x 20 pixels at ratio 2: 10 x 10 display; at text-size 48 the scale is 24 / 48.
        var options = ShapingOptions()
        options.textSize = 48
        let sections = [TextSection(text: "AB", fontStack: "Test"), Self.image(20, 20, pixelRatio: 2), TextSection(text: "C", fontStack: "Test")]
        let shaped = try #require(Self.shape(sections, options))
        #expect(TextShaperTests.near(shaped.glyphs.map(\.x), [-17.5, -7.5, 2.5, 7.5]))
        let image = shaped.glyphs[2]
        #expect(image.image?.name == "i" && TextShaperTests.near(image.scale, 0.5))
        #expect(image.glyph.advance == 10 && image.glyph.left == 1 && image.glyph.top == -3)
        #expect(TextShaperTests.near(shaped.right - shaped.left, 35))
        // The image asks the glyph source for nothing.
        #expect(TextShaper.codePoints(sections, options: options)["Test"] == Array("ABC".unicodeScalars.map(\.value)))
    }

    @Test func aTallImagePushesItsLineDown() throws {
        // 48 units tall at text-size 24: 24 beyond the em, so the line is 28.8 + 24 high; the
        // line's content is the image's height, "A" (bottom-aligned) sits 24 lower in it.
        let shaped = try #require(Self.shape([TextSection(text: "A", fontStack: "Test"), Self.image(48, 48)], ShapingOptions()))
        #expect(TextShaperTests.near(shaped.top, -26.4) && TextShaperTests.near(shaped.bottom, 26.4))
        #expect(TextShaperTests.near(shaped.glyphs.map(\.y), [-2.4, -26.4]))
    }

    @Test func aLineMayBreakAfterAnImage() throws {
        // 30 + 3 × 10 units at max width 40: two lines of about 30, broken after the image (the
        // only break opportunity).
        var options = ShapingOptions()
        options.maxWidth = 40
        let shaped = try #require(Self.shape([Self.image(30, 20), TextSection(text: "ABC", fontStack: "Test")], options))
        #expect(shaped.lineCount == 2)
        // Both lines 30 long, centred: each starts at −15; "A" one line (28.8) below the image's
        // line, the image 4 lower in its line than a glyph (20 tall in a 24 em, bottom-aligned).
        #expect(TextShaperTests.near(shaped.glyphs.map(\.x), [-15, -15, -5, 5]))
        #expect(TextShaperTests.near(shaped.glyphs[1].y - shaped.glyphs[0].y, 24.8))
    }
}
