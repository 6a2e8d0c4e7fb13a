import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// Hillshade and color-relief layers drawn through the model and the renderer, over DEM tiles
/// made here: a plane of known slope, a flat plateau.
@Suite struct DEMLayerTests {
    /// Metres per pixel of a 256-pixel tile at zoom 15: a plane rising this much per pixel has a slope of 1.
    static let pixel = 40075016.6855785 / 256 / 32768

    /// A 256-pixel Terrain-RGB tile of elevations `metres(x, y)`.
    static func tile(_ metres: (Int, Int) -> Double) -> Pixmap {
        let pm = Pixmap(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let v = UInt32(((metres(x, y) + 10000) * 10).rounded())
                pm.pixels[y * 256 + x] = 0xFF00_0000 | v
            }
        }
        return pm
    }

    /// Renders `layers` over the source "dem" (256-pixel tiles, `tiles` delivered at zoom 15),
    /// the camera at zoom 14 on Mercator (x, y) in zoom-15 tiles.
    func render(_ layers: String, _ tiles: [(x: Int, image: Pixmap)], at x: Double, _ y: Double, size: Int = 64, bearing: Double = 0) throws -> Pixmap {
        let text = #"{"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["x/{z}/{x}/{y}"], "tileSize": 256, "maxzoom": 15}}, "layers": \#(layers)}"#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        guard case let .raster(d)? = doc.sources["dem"] else { throw StyleError("no dem source") }
        let set = TileSet(definition: d, kind: .raster)
        for t in tiles {
            if let id = TileID(z: 15, x: t.x, y: 16384) { set.deliver(id, .raster(t.image)) }
        }
        let style = Style(document: doc, features: [:], images: [:], tiles: ["dem": set])
        let center = LngLat(lng: WebMercator.lng(x: x / 32768), lat: WebMercator.lat(y: y / 32768))
        var model = MapModel(style: style, size: ViewportSize(width: size, height: size),
                             camera: CameraState(center: center, zoom: 14, bearing: bearing), bounds: CameraBounds())
        model.lighting = false
        let pm = Pixmap(width: size, height: size)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(model.frame(), into: pm)
        return pm
    }

    static func channels(_ p: UInt32) -> [Int] { [Int(p >> 24), Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)] }

    @Test func standardHillshadeOfAnEastwardSlope() throws {
        // Rising 5 m per 4.777 m pixel toward the east (5 m: exact in the encoding), a slope of
        // 1.0466, stored as 161 (1.051); flat toward the south, stored as 128 (0.0157). The
        // standard method with the defaults (light from 335°, exaggeration 0.5): slope
        // atan(0.625·1.051) = 0.5813, aspect atan2(0.0157, −1.051) = 3.1267, shade
        // |((3.1267 + 515°)/π + 0.5) mod 2 − 1| = 0.6436; sin 0.5813 = 0.5492 of white·0.6436
        // over (1 − cos 0.5813) = 0.1643 of black: alpha 0.1643·0.4508 + 0.5492 = 0.6233 (159),
        // each colour channel 0.6436·0.5492 = 0.3535 (90), premultiplied.
        let plane = Self.tile { x, _ in Double(x) * 5 }
        let pm = try render(#"[{"id": "h", "type": "hillshade", "source": "dem"}]"#, [(16384, plane)], at: 16384.5, 16384.5)
        let c = Self.channels(pm.pixels[32 * 64 + 32])
        #expect(abs(c[0] - 159) <= 1 && abs(c[1] - 90) <= 1 && c[1] == c[2] && c[2] == c[3], "\(c)")
    }

    @Test func noSeamBetweenTiles() throws {
        // One plane over two tiles side by side: the pixels either side of their edge shade as
        // the middle of a tile does (the borders come from the neighbour, not the edge).
        let west = Self.tile { x, _ in Double(x) * Self.pixel }, east = Self.tile { x, _ in Double(x + 256) * Self.pixel }
        let pm = try render(#"[{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-method": "basic"}}]"#,
                            [(16384, west), (16385, east)], at: 16385, 16384.5)
        let middle = pm.pixels[32 * 64 + 10]
        #expect(middle >> 24 > 0)
        #expect(pm.pixels[32 * 64 + 31] == middle && pm.pixels[32 * 64 + 32] == middle)
    }

    @Test func colorReliefRamp() throws {
        // 500 m is halfway from black at 0 m to white at 1000 m: grey 128, at opacity 0.5: 64 of alpha 128.
        let flat = Self.tile { _, _ in 500 }
        let layer = #"[{"id": "c", "type": "color-relief", "source": "dem", "paint": {"color-relief-opacity": 0.5, "color-relief-color": ["interpolate", ["linear"], ["elevation"], 0, "black", 1000, "white"]}}]"#
        let pm = try render(layer, [(16384, flat)], at: 16384.5, 16384.5)
        #expect(Self.channels(pm.pixels[20 * 64 + 40]) == [128, 64, 64, 64])
        // Past the last stop: its colour.
        let high = try render(layer, [(16384, Self.tile { _, _ in 4000 })], at: 16384.5, 16384.5)
        #expect(Self.channels(high.pixels[20 * 64 + 40]) == [128, 128, 128, 128])
    }

    @Test func multidirectionalLights() throws {
        // One light: the basic method. Two lights: each light's share, averaged; a second light
        // from the opposite side with transparent colours halves the first one's.
        let plane = Self.tile { x, _ in Double(x) * 5 }
        func pixel(_ paint: String) throws -> UInt32 {
            try render(#"[{"id": "h", "type": "hillshade", "source": "dem", "paint": \#(paint)}]"#, [(16384, plane)], at: 16384.5, 16384.5).pixels[32 * 64 + 32]
        }
        let basic = try pixel(#"{"hillshade-method": "basic", "hillshade-illumination-direction": 90}"#)
        #expect(basic >> 24 > 20)
        #expect(try pixel(#"{"hillshade-method": "multidirectional", "hillshade-illumination-direction": 90}"#) == basic)
        let two = try pixel(##"{"hillshade-method": "multidirectional", "hillshade-illumination-direction": [90, 270], "hillshade-highlight-color": ["#fff", "transparent"], "hillshade-shadow-color": ["#000", "transparent"]}"##)
        let a = Int(basic >> 24), b = Int(two >> 24)
        #expect(abs(b * 2 - a) <= 2, "\(a) \(b)")
    }

    @Test func illuminationAnchor() throws {
        // A plane rising toward the east (stored slope 161: 1.051) in the basic method at
        // exaggeration 0.2. Lit from the east (direction 90, anchored to the map), it faces
        // away: cos of the incidence (sin 45° − 0.4204·cos 45°)/√(1 + 0.4204² + 0.0063²) = 0.3778,
        // shadow (black) at 1 − 2·0.3778 = 0.2444: alpha 62. Anchored to the viewport (the
        // default) the light turns with the map: at bearing 90 (east up) a light from the top of
        // the screen comes from the east.
        let plane = Self.tile { x, _ in Double(x) * 5 }
        func pixel(_ paint: String, bearing: Double) throws -> UInt32 {
            let layers = #"[{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-method": "basic", "hillshade-exaggeration": 0.2, \#(paint)}}]"#
            return try render(layers, [(16384, plane)], at: 16384.5, 16384.5, size: 65, bearing: bearing).pixels[32 * 65 + 32]
        }
        let east = try pixel(#""hillshade-illumination-direction": 90, "hillshade-illumination-anchor": "map""#, bearing: 0)
        #expect(east == 62 << 24, "\(String(east, radix: 16))")
        #expect(try pixel(#""hillshade-illumination-direction": 0"#, bearing: 90) == east)
        #expect(try pixel(#""hillshade-illumination-direction": 90, "hillshade-illumination-anchor": "map""#, bearing: 90) == east)
        // From the north at bearing 0: cos 0.6559, highlight (white) at 0.3119: 80.
        #expect(try pixel(#""hillshade-illumination-direction": 0"#, bearing: 0) == 0x5050_5050)
    }

    /// Renders `layers` over the source "dem" on the globe (or `projection`): the four zoom-1
    /// tiles of a plane rising eastward, the camera at zoom 0 over (45° E, 30° N), 256 px.
    func renderWorld(_ layers: String, projection: String) throws -> Pixmap {
        let text = #"{"version": 8, "projection": {"type": "\#(projection)"}, "sources": {"dem": {"type": "raster-dem", "tiles": ["x/{z}/{x}/{y}"], "tileSize": 256, "maxzoom": 1}}, "layers": \#(layers)}"#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        guard case let .raster(d)? = doc.sources["dem"] else { throw StyleError("no dem source") }
        let set = TileSet(definition: d, kind: .raster)
        for tx in 0..<2 {
            for ty in 0..<2 {
                if let id = TileID(z: 1, x: tx, y: ty) { set.deliver(id, .raster(Self.tile { x, _ in Double(x + 256 * tx) * 20 })) }
            }
        }
        let style = Style(document: doc, features: [:], images: [:], tiles: ["dem": set])
        var model = MapModel(style: style, size: ViewportSize(width: 256, height: 256),
                             camera: CameraState(center: LngLat(lng: 45, lat: 30), zoom: 0), bounds: CameraBounds())
        model.lighting = false
        let pm = Pixmap(width: 256, height: 256)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(model.frame(), into: pm)
        return pm
    }

    @Test func hillshadeOnTheGlobe() throws {
        // On the globe the hillshade covers exactly the pixels the globe's disc covers (those a
        // background covers, the polar caps with the tiles' edge rows), nothing beyond; at the centre, where the globe and the flat map
        // show the same place at the same scale, it shades as on the flat map.
        let hillshade = #"[{"id": "h", "type": "hillshade", "source": "dem"}]"#
        let globe = try renderWorld(hillshade, projection: "globe")
        let disc = try renderWorld(#"[{"id": "b", "type": "background", "paint": {"background-color": "red"}}]"#, projection: "globe")
        var covered = 0, mismatched = 0
        for i in 0..<(256 * 256) {
            let a = globe.pixels[i] >> 24 > 0, b = disc.pixels[i] >> 24 > 0
            if a { covered += 1 }
            if a != b { mismatched += 1 }
        }
        #expect(covered > 10_000 && covered < 40_000, "\(covered)")
        #expect(mismatched == 0)
        #expect(globe.pixels[0] == 0 && globe.pixels[255 * 256 + 255] == 0)
        let flat = try renderWorld(hillshade, projection: "mercator")
        let c = Self.channels(globe.pixels[128 * 256 + 128]), f = Self.channels(flat.pixels[128 * 256 + 128])
        #expect(c[0] > 0 && zip(c, f).allSatisfy { abs($0 - $1) <= 2 }, "\(c) \(f)")
    }
}
