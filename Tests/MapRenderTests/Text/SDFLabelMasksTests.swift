import Foundation
import MapCore
import MapData
@testable import MapRender
import Testing

/// Labels shaded from their glyphs' distance fields as MapLibre's SDF shader shades them.
@Suite struct SDFLabelMasksTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/glyphs/Open Sans Semibold,Arial Unicode MS Bold-0-255.pbf").standardizedFileURL

    static func glyph(_ c: Character) throws -> SDFGlyph {
        let range = try GlyphRange(pbf: [UInt8](try Data(contentsOf: file)))
        return try #require(range.glyphs[c.unicodeScalars.first!.value])
    }

    static func label(_ glyphs: [PositionedGlyph]) -> ShapedText {
        ShapedText(glyphs: glyphs, sections: [TextSection(text: "A", fontStack: "Open Sans Semibold,Arial Unicode MS Bold")],
                   top: -14.4, bottom: 14.4, left: -7.5, right: 7.5, lineCount: 1, writingMode: .horizontal)
    }

    /// At 24 px a texel is a pixel: each pixel's coverage is the shader's edge of the field's
    /// value there, and the field's first texel lies 3 px right of the glyph's left bearing and
    /// 3 px below its top (the quad's 1-px padding and the field's 3-px border).
    @Test func at24PixelsEachPixelIsItsTexelThroughTheEdge() throws {
        let a = try Self.glyph("A")
        let shaped = Self.label([PositionedGlyph(glyph: a, x: 0, y: -17, scale: 1, section: 0, vertical: false)])
        var drawn = 0
        let m = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 0, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        #expect(drawn == 1)
        let fill = m.fills[0]
        let bw = a.width + 6, bh = a.height + 6
        // The field's (0, 0) texel: x = left − 3, y = −17 − top − 3 relative to the anchor.
        let x0 = Int(a.left) - 3 - m.x, y0 = -17 - Int(a.top) - 3 - m.y
        let gamma = 0.105
        var checked = 0
        for j in 0..<bh {
            for i in 0..<bw {
                let d = Double(a.bitmap[j * bw + i]) / 255
                let t = min(max((d - (0.75 - gamma)) / (2 * gamma), 0), 1)
                let expected = UInt8((t * t * (3 - 2 * t) * 255).rounded())
                #expect(fill.alpha[(y0 + j) * fill.width + x0 + i] == expected)
                checked += 1
            }
        }
        #expect(checked == 22 * 24)
        // The stem of the A is solid, the space around it clear.
        #expect(fill.alpha.contains(255))
        #expect(m.halo.alpha.allSatisfy { $0 == 0 })
    }

    /// A halo reaches beyond the glyph's edge and is hollow where the field is deep inside the
    /// glyph (1 − smoothstep(0.75, 0.75 + 2γ), MapLibre's hollow halo); without a width, none.
    @Test func theHaloRingsTheGlyphAndIsHollow() throws {
        let a = try Self.glyph("A")
        let shaped = Self.label([PositionedGlyph(glyph: a, x: 0, y: -17, scale: 1, section: 0, vertical: false)])
        var drawn = 0
        let m = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 2, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        var ringOnly = 0
        for i in m.halo.alpha.indices where m.fills[0].alpha[i] == 0 && m.halo.alpha[i] == 255 { ringOnly += 1 }
        #expect(ringOnly > 10)
        // At 24 px texels are pixels: each is the shader's halo of its texel, the edge at
        // (6 − 2) / 8 and emptied towards the glyph's inside.
        func step(_ e0: Double, _ e1: Double, _ x: Double) -> Double { let t = min(max((x - e0) / (e1 - e0), 0), 1); return t * t * (3 - 2 * t) }
        let bw = a.width + 6, x0 = Int(a.left) - 3 - m.x, y0 = -17 - Int(a.top) - 3 - m.y
        var hollowed = 0
        for j in 0..<(a.height + 6) {
            for i in 0..<bw {
                let d = Double(a.bitmap[j * bw + i]) / 255
                let outer = step(0.5 - 0.105, 0.5 + 0.105, d), inner = 1 - step(0.75, 0.75 + 0.21, d)
                #expect(m.halo.alpha[(y0 + j) * m.halo.width + x0 + i] == UInt8((min(outer, inner) * 255).rounded()))
                if inner < outer { hollowed += 1 }
            }
        }
        #expect(hollowed > 0)
        let none = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 0, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        #expect(none.halo.alpha.allSatisfy { $0 == 0 })
    }

    /// Twice the size: twice the mask, texels two pixels apart.
    @Test func sizeScalesTheQuads() throws {
        let a = try Self.glyph("A")
        let shaped = Self.label([PositionedGlyph(glyph: a, x: 0, y: -17, scale: 1, section: 0, vertical: false)])
        var drawn = 0
        let small = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 0, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        let big = SDFLabelMasks(shaped, .init(size: 48, haloWidth: 0, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        #expect(big.fills[0].width == 2 * small.fills[0].width && big.fills[0].height == 2 * small.fills[0].height)
        #expect(big.x == 2 * small.x && big.y == 2 * small.y)
        let inkSmall = small.fills[0].alpha.filter { $0 > 127 }.count, inkBig = big.fills[0].alpha.filter { $0 > 127 }.count
        #expect(abs(Double(inkBig) / Double(inkSmall) - 4) < 0.4)
    }

    /// Turned a quarter clockwise, the mask's width and height swap.
    @Test func rotationTurnsTheQuads() throws {
        let a = try Self.glyph("A")
        let shaped = Self.label([PositionedGlyph(glyph: a, x: 0, y: -17, scale: 1, section: 0, vertical: false)])
        var drawn = 0
        let m = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 0, haloBlur: 0, rotation: 0), groups: 1, group: { _ in 0 }, glyphsDrawn: &drawn)
        let r = SDFLabelMasks(shaped, .init(size: 24, haloWidth: 0, haloBlur: 0, rotation: Double.pi / 2), groups: 1, group: { _ in 0 },
                              glyphsDrawn: &drawn)
        #expect(abs(r.fills[0].width - m.fills[0].height) <= 1 && abs(r.fills[0].height - m.fills[0].width) <= 1)
        #expect(abs(r.fills[0].alpha.filter { $0 > 127 }.count - m.fills[0].alpha.filter { $0 > 127 }.count) < 8)
    }
}
