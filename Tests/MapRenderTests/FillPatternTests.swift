import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// `fill-pattern`: a sprite image repeated on the world's grid at the integer zoom's scale.
extension StyleDocumentRenderTests {
    static let red = RGBA8(255, 0, 0), blue = RGBA8(0, 0, 255)

    /// A `width` x `height` image whose left half is red and right half blue.
    static func halves(width: Int, height: Int, pixelRatio: Double = 1) -> SpriteSheet {
        let pm = Pixmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { pm[x, y] = (x < width / 2 ? red : blue).premultiplied.packed } }
        return SpriteSheet(icons: ["halves": SpriteIcon(name: "halves", image: pm, pixelRatio: pixelRatio, sdf: false)])
    }

    func patterned(zoom: Double, pattern: String = "halves", opacity: Double = 1, sprite: SpriteSheet) throws -> Pixmap {
        try render(#"""
        {"version": 8, "zoom": \#(zoom), "center": [0, 0],
         "sources": {"p": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-170, -80], [170, -80], [170, 80], [-170, 80], [-170, -80]]]}}},
         "layers": [{"id": "f", "type": "fill", "source": "p", "paint": {"fill-pattern": "\#(pattern)", "fill-opacity": \#(opacity)}}]}
        """#, sprite: sprite)
    }

    /// The colour of the halves pattern (`period` pixels of the integer zoom) at screen column
    /// `x` of a 64-px view centred on the world at `zoom`, or nil within a screen pixel of a
    /// change of colour (where the bilinear samples mix the halves).
    static func expected(x: Int, zoom: Double, period: Double) -> RGBA8? {
        let growth = exp2(zoom - zoom.rounded(.down))
        let left = 512 * exp2(zoom) / 2 - 32                 // the view's left edge in world pixels
        let u = (Double(x) + 0.5 + left) / growth            // in pixels of the integer zoom
        let pos = u.truncatingRemainder(dividingBy: period)
        guard min(pos, abs(pos - period / 2), period - pos) * growth >= 1 else { return nil }
        return pos < period / 2 ? red : blue
    }

    @Test func fillPatternRepeatsOnTheWorldGrid() throws {
        // Zoom 0: the view's left edge is world pixel 224; a 6-px image (224 = 37 x 6 + 2).
        let pm = try patterned(zoom: 0, sprite: Self.halves(width: 6, height: 2))
        for x in 0..<64 {
            let expected = (x + 224) % 6 < 3 ? Self.red : Self.blue
            #expect(pm.color(atX: x, y: 20) == expected, "x \(x)")
            #expect(pm.color(atX: x, y: 41) == expected, "x \(x)")
        }
    }

    @Test func fillPatternGrowsWithTheMapBetweenIntegerZooms() throws {
        // At zoom log2(1.5) the 16-px pattern is 24 px on screen; at zoom 1 it is 16 px again.
        for zoom in [log2(1.5), 1.0, 2 + log2(1.25)] {
            let pm = try patterned(zoom: zoom, sprite: Self.halves(width: 16, height: 16))
            var checked = 0
            for x in 0..<64 {
                guard let want = Self.expected(x: x, zoom: zoom, period: 16) else { continue }
                #expect(pm.color(atX: x, y: 30) == want, "zoom \(zoom) x \(x)")
                checked += 1
            }
            #expect(checked > 40)
        }
    }

    @Test func fillPatternImagePixelRatioShrinksIt() throws {
        // A 12-px image drawn for pixel ratio 2 is 6 CSS pixels wide: the 6-px grid of the first test.
        let pm = try patterned(zoom: 0, sprite: Self.halves(width: 12, height: 4, pixelRatio: 2))
        for x in 0..<64 where (x + 224) % 3 != 0 {              // (not where bilinear samples mix halves)
            #expect(pm.color(atX: x, y: 20) == ((x + 224) % 6 < 3 ? Self.red : Self.blue), "x \(x)")
        }
    }

    @Test func fillPatternOpacityAndMissingImages() throws {
        let half = try patterned(zoom: 0, opacity: 0.5, sprite: Self.halves(width: 6, height: 2))
        let c = half.color(atX: 0, y: 20)                       // world pixel 224: red
        #expect(c.r == 255 && c.g == 0 && abs(Int(c.a) - 128) <= 1, "\(c)")
        // A pattern the sprite lacks draws nothing (not the fill colour).
        let none = try patterned(zoom: 0, pattern: "absent", sprite: Self.halves(width: 6, height: 2))
        #expect((0..<64).allSatisfy { none.color(atX: $0, y: 20).a == 0 })
    }
}
