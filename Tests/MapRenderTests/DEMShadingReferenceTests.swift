import Foundation
import MapCore
@testable import MapRender
import Raster
import Testing

/// The DEM layers' shading of runs of pixels over a small made-up tile, against colours worked
/// out independently (in float64, from MapLibre GL JS's hillshade_prepare.fragment.glsl,
/// hillshade.fragment.glsl, hillshade_program.ts and color_relief.fragment.glsl written out
/// anew): the Sobel slopes with the zoom's exaggeration stored as bytes, sampled bilinearly
/// (clamped at the edges), divided by the cosine of the latitude linear down the tile, shaded
/// by each method, premultiplied, over transparent pixels.
@Suite struct DEMShadingReferenceTests {
    /// 8 × 8 elevations 500x − 300y + 40xy − 30x² metres of tile 12/2200/1300 (about 51° N:
    /// slopes steepened 2^0.9 for zoom 12, and 1/cos(latitude) ≈ 1.6).
    static let tile: DEMTile? = {
        var values: [Float] = []
        for y in 0..<8 { for x in 0..<8 { values.append(Float(500 * x - 300 * y + 40 * x * y - 30 * x * x)) } }
        guard let data = DEMData(dim: 8, values: values), let id = TileID(z: 12, x: 2200, y: 1300) else { return nil }
        return DEMTile(tile: id, data: data, encoding: .mapbox)
    }()

    /// A run along a row without bearing, then one turned (both u and v change), through the edges.
    static let runs = [DEMRun(count: 8, u: 0.03, v: 0.41, du: 0.117, dv: 0), DEMRun(count: 9, u: 0.9, v: 0.05, du: -0.09, dv: 0.1)]

    static let black = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 1), white = PremultipliedRGBA(r: 1, g: 1, b: 1, a: 1)
    /// rgba(255, 0, 0, 0.5), rgba(0, 128, 204, 0.8) (as 0, 0.5, 0.8), blue, rgba(255, 255, 0, 0.6): premultiplied.
    static let red = PremultipliedRGBA(r: 0.5, g: 0, b: 0, a: 0.5), teal = PremultipliedRGBA(r: 0, g: 0.4, b: 0.64, a: 0.8)
    static let blue = PremultipliedRGBA(r: 0, g: 0, b: 1, a: 1), yellow = PremultipliedRGBA(r: 0.6, g: 0.6, b: 0, a: 0.6)

    static func light(_ direction: Float, _ altitude: Float, _ shadow: PremultipliedRGBA, _ highlight: PremultipliedRGBA) -> HillshadeLight {
        HillshadeLight(azimuth: direction * .pi / 180, altitude: altitude * .pi / 180, shadow: shadow, highlight: highlight)
    }

    /// The packed pixels (a, r, g, b bytes) the shader leaves in each run over transparent ones.
    static func shade<S: DEMRowShader>(_ shader: S) throws -> [[UInt32]] {
        let tile = try #require(Self.tile)
        return runs.map { run in
            var out = [UInt32](repeating: 0, count: run.count)
            tile.slopes.withUnsafeBufferPointer { s in
                tile.data.elevations.withUnsafeBufferPointer { e in
                    tile.inverseCosines.withUnsafeBufferPointer { c in
                        out.withUnsafeMutableBufferPointer { o in
                            guard let s = s.baseAddress, let e = e.baseAddress, let c = c.baseAddress, let o = o.baseAddress else { return }
                            let view = DEMTileView(dim: tile.data.dim, stride: tile.data.stride, slopes: s, elevations: e, inverseCosines: c)
                            shader.shade(view, run, o)
                        }
                    }
                }
            }
            return out
        }
    }

    static func hillshade(_ method: HillshadeMethod, _ exaggeration: Float, _ lights: [HillshadeLight], accent: PremultipliedRGBA = black) throws -> [[UInt32]] {
        let draw = HillshadeDraw(tiles: [], method: method, lights: lights, exaggeration: exaggeration, accent: accent)
        let tables = HillshadeShader.slopeTables(exaggeration: exaggeration), shaderLights = HillshadeShader.lights(lights)
        return try tables.withUnsafeBufferPointer { t in
            try shaderLights.withUnsafeBufferPointer { l in
                try shade(HillshadeShader(draw, tables: try #require(t.baseAddress), lights: l))
            }
        }
    }

    /// Each channel within 1 of the expected one (float64 against the shader's Float).
    static func close(_ found: [[UInt32]], _ expected: ([UInt32], [UInt32])) -> Bool {
        let wanted: [[UInt32]] = [expected.0, expected.1]
        guard found.count == wanted.count else { return false }
        for (f, e) in zip(found, wanted) {
            guard f.count == e.count else { return false }
            for (a, b) in zip(f, e) {
                for shift: UInt32 in [0, 8, 16, 24] {
                    let x = Int((a >> shift) & 255), y = Int((b >> shift) & 255)
                    if abs(x - y) > 1 { return false }
                }
            }
        }
        return true
    }

    static func hex(_ runs: [[UInt32]]) -> String {
        runs.map { $0.map { String(format: "%08X", $0) }.joined(separator: " ") }.joined(separator: " | ")
    }

    @Test func slopeBytes() throws {
        // The Sobel sums of row 3 scaled by 8 / 2^(−0.9 + 28.2562 − 12), as bytes (the west and
        // east pixels read the border, a copy of the edge).
        let tile = try #require(Self.tile)
        let row = (0..<8).map { tile.slope($0, 3) }
        let expected: [(UInt8, UInt8)] = [(142, 113), (155, 115), (152, 117), (149, 119), (146, 121), (143, 123), (140, 125), (133, 126)]
        #expect(zip(row, expected).allSatisfy { $0.east == $1.0 && $0.south == $1.1 }, "\(row)")
    }

    @Test func standard() throws {
        let found = try Self.hillshade(.standard, 0.5, [Self.light(335, 45, Self.black, Self.white)])
        #expect(Self.close(found, ([0xA5383838, 0xC0515151, 0xC4585858, 0xB8535353, 0xA84D4D4D, 0x95464646, 0x7F3F3F3F, 0x5E303030],
                                   [0x25141414, 0x4F282828, 0x6F353535, 0x8D424242, 0xA54D4D4D, 0xB8565656, 0xC75E5E5E, 0xD3646464, 0xD7686868])), "\(Self.hex(found))")
    }

    @Test func standardExaggeratedWithColours() throws {
        // Exaggeration 0.8 (the slope scaled exponentially), light from 365° (335° turned by a
        // bearing of 30), translucent shadow and highlight, a blue accent.
        let found = try Self.hillshade(.standard, 0.8, [Self.light(365, 45, Self.red, Self.teal)], accent: Self.blue)
        #expect(Self.close(found, ([0x9A49104A, 0xB3481A61, 0xB8461D66, 0xAE421C61, 0xA23D1B5A, 0x93371A52, 0x81301848, 0x63251436],
                                   [0x28110914, 0x5321112C, 0x722C153D, 0x8C35184D, 0xA03C1B59, 0xAF411D63, 0xBB441F6A, 0xC4472070, 0xC8472174])), "\(Self.hex(found))")
    }

    @Test func standardFaint() throws {
        // Exaggeration 0.25: everything at half strength too.
        let found = try Self.hillshade(.standard, 0.25, [Self.light(90, 45, Self.black, Self.white)], accent: Self.yellow)
        #expect(Self.close(found, ([0x4517170F, 0x5416160C, 0x5715150A, 0x4F121209, 0x460F0F07, 0x3D0C0C06, 0x32080804, 0x24050502],
                                   [0x0E010101, 0x1E040402, 0x2B070704, 0x380B0B06, 0x450E0E07, 0x50111108, 0x59141409, 0x61161609, 0x65161609])), "\(Self.hex(found))")
    }

    @Test func basic() throws {
        let found = try Self.hillshade(.basic, 0.3, [Self.light(100, 60, Self.red, Self.teal)])
        #expect(Self.close(found, ([0x1A000D15, 0x18180000, 0x22220000, 0x15150000, 0x07070000, 0x0C00060A, 0x2400121D, 0x47002339],
                                   [0x79003D61, 0x57002B45, 0x39001C2D, 0x18000C13, 0x05050000, 0x18180000, 0x29290000, 0x38380000, 0x41410000])), "\(Self.hex(found))")
    }

    @Test func combined() throws {
        let found = try Self.hillshade(.combined, 0.5, [Self.light(200, 60, Self.black, Self.yellow)])
        #expect(Self.close(found, ([0x5F3C3C00, 0x77383800, 0x7C363600, 0x73343400, 0x69333300, 0x5D2F2F00, 0x502B2B00, 0x3C232300],
                                   [0x190F0F00, 0x321F1F00, 0x45292900, 0x572E2E00, 0x67323200, 0x74333300, 0x80343400, 0x89333300, 0x8E323200])), "\(Self.hex(found))")
    }

    @Test func igor() throws {
        let found = try Self.hillshade(.igor, 0.7, [Self.light(45, 45, Self.blue, Self.white)])
        #expect(Self.close(found, ([0xA20000A2, 0xB40F0FB4, 0xB71515B7, 0xAF1616AF, 0xA41616A4, 0x97161697, 0x87161687, 0x6C14146C],
                                   [0x31090931, 0x5E10105E, 0x7B12127B, 0x91151591, 0xA21717A2, 0xAF1818AF, 0xB91A1AB9, 0xC11B1BC1, 0xC41D1DC4])), "\(Self.hex(found))")
    }

    @Test func multidirectional() throws {
        // Three lights, each with its own altitude and colours, averaged.
        let lights = [Self.light(0, 30, Self.black, Self.white), Self.light(120, 45, Self.red, Self.teal), Self.light(240, 60, Self.blue, Self.yellow)]
        let found = try Self.hillshade(.multidirectional, 0.5, lights)
        #expect(Self.close(found, ([0x8F3A2D00, 0x9F4A2900, 0xA44F2800, 0x9D4E2B00, 0x914C2D00, 0x834A2F00, 0x70463100, 0x583E3200],
                                   [0x402E3308, 0x50383200, 0x6A413200, 0x7E483000, 0x8D4D2D00, 0x99502A00, 0xA3512700, 0xA44F2400, 0xA24D2300])), "\(Self.hex(found))")
    }

    @Test func colorRelief() throws {
        // Stops −500 m blue, 1000 m teal, 2500 m yellow, 4000 m red.
        let elevations: [Float] = [-500, 1000, 2500, 4000], colors = [Self.blue, Self.teal, Self.yellow, Self.red]
        let found = try elevations.withUnsafeBufferPointer { e in
            try colors.withUnsafeBufferPointer { c in try Self.shade(ColorReliefShader(elevations: e, colors: c)) }
        }
        #expect(Self.close(found, ([0xFF0000FF, 0xFD0004FB, 0xEC0026DC, 0xDC0045C1, 0xCF0061A8, 0xC31C6F85, 0xB93A7965, 0xB053824A],
                                   [0xAA668837, 0xAE598444, 0xB6437C5B, 0xBF26737B, 0xCC0166A2, 0xDB0049BD, 0xEC0025DD, 0xFF0000FF, 0xFF0000FF])), "\(Self.hex(found))")
    }
}
