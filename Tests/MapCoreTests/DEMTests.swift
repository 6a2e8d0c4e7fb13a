import Foundation
import Raster
import Testing
@testable import MapCore

/// Raster-dem sources: decoding elevations, the border filled from neighbours, the prepared
/// slopes, and the style document's raster-dem sources, hillshade and color-relief layers.
@Suite struct DEMTests {
    /// An opaque image of `dim` × `dim` pixels from a function of (x, y) to channels.
    static func image(_ dim: Int, _ rgb: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Pixmap {
        let pm = Pixmap(width: dim, height: dim)
        for y in 0..<dim {
            for x in 0..<dim {
                let (r, g, b) = rgb(x, y)
                pm.pixels[y * dim + x] = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
        }
        return pm
    }

    @Test func mapboxEncoding() throws {
        // −10000 + (R·65536 + G·256 + B)·0.1: (1, 134, 160) is 100000 tenths, 0 m; (1, 134, 170) is 1 m;
        // (0, 0, 0) is −10000 m; (2, 0, 0) is 3107.2 m.
        let pixels: [(UInt8, UInt8, UInt8)] = [(1, 134, 160), (1, 134, 170), (0, 0, 0), (2, 0, 0)]
        let d = try #require(DEMData(image: Self.image(2) { x, y in pixels[y * 2 + x] }, encoding: .mapbox))
        #expect(d.dim == 2 && d.stride == 4)
        #expect(d.get(0, 0) == 0)
        #expect(abs(d.get(1, 0) - 1) < 1e-3)
        #expect(d.get(0, 1) == -10000)
        #expect(abs(d.get(1, 1) - 3107.2) < 1e-3)
    }

    @Test func terrariumAndCustomEncodings() throws {
        // R·256 + G + B/256 − 32768: (128, 0, 0) is 0 m, (128, 100, 128) is 100.5 m, (127, 255, 0) is −1 m.
        let pixels: [(UInt8, UInt8, UInt8)] = [(128, 0, 0), (128, 100, 128), (127, 255, 0), (0, 0, 0)]
        let d = try #require(DEMData(image: Self.image(2) { x, y in pixels[y * 2 + x] }, encoding: .terrarium))
        #expect(d.get(0, 0) == 0)
        #expect(d.get(1, 0) == 100.5)
        #expect(d.get(0, 1) == -1)
        #expect(d.get(1, 1) == -32768)
        let custom = DEMEncoding(redFactor: 2, greenFactor: 3, blueFactor: 5, baseShift: 7)
        #expect(custom.elevation(r: 1, g: 1, b: 1) == 3)
        #expect(abs(DEMEncoding.mapbox.quantized(1234.56) - 1234.6) < 1e-9)
    }

    @Test func notSquareIsRefused() {
        #expect(DEMData(image: Pixmap(width: 4, height: 2), encoding: .mapbox) == nil)
        #expect(DEMData(dim: 3, values: [1, 2]) == nil)
    }

    @Test func borderCopiesEdgesThenNeighbours() throws {
        // a: 1 2 / 3 4; b (east of a): 10 20 / 30 40; c (south-east of a): 100 ...
        let a = try #require(DEMData(dim: 2, values: [1, 2, 3, 4]))
        #expect(a.get(-1, -1) == 1 && a.get(2, 0) == 2 && a.get(0, 2) == 3 && a.get(2, 2) == 4 && a.get(-1, 1) == 3)
        let b = try #require(DEMData(dim: 2, values: [10, 20, 30, 40]))
        let c = try #require(DEMData(dim: 2, values: [100, 200, 300, 400]))
        var filled = a.backfilled(from: b, dx: 1, dy: 0)
        #expect(filled.get(2, 0) == 10 && filled.get(2, 1) == 30)
        #expect(filled.get(2, -1) == 2 && filled.get(2, 2) == 4)        // corners: not from the side
        filled.backfill(from: c, dx: 1, dy: 1)
        #expect(filled.get(2, 2) == 100)
        let west = a.backfilled(from: b, dx: -1, dy: 0)
        #expect(west.get(-1, 0) == 20 && west.get(-1, 1) == 40)
        let north = a.backfilled(from: c, dx: 0, dy: -1)
        #expect(north.get(0, -1) == 300 && north.get(1, -1) == 400)
        #expect(a.backfilled(from: DEMData(dim: 1, values: [9]) ?? a, dx: 1, dy: 0).get(2, 0) == 2)   // another size: kept
    }

    @Test func slopesOfAPlane() throws {
        // At zoom 15 (no exaggeration) a 256-pixel tile's pixel is 40075016.69 / 256 / 2^15 =
        // 4.7773 m: rising that much per pixel toward the east is a slope of 1, stored as
        // (1 / 8 + 0.5)·255 = 159.4 → 159; flat toward the south: 127.5 → 128.
        let pixel = 40075016.6855785 / 256 / 32768
        let values = (0..<(256 * 256)).map { Float(Double($0 % 256) * pixel) }
        let data = try #require(DEMData(dim: 256, values: values))
        let tile = DEMTile(tile: try #require(TileID(z: 15, x: 16384, y: 16384)), data: data, encoding: .mapbox)
        #expect(tile.slope(100, 100) == (159, 128))
        // At the east edge the border repeats the edge: half the slope, (0.5 / 8 + 0.5)·255 = 143.4;
        // the slopes' own border repeats that.
        #expect(tile.slope(255, 100).east == 143 && tile.slope(256, 100).east == 143)
        #expect(tile.slope(-1, -1) == tile.slope(0, 0) && tile.slope(256, 256) == tile.slope(255, 255))
        // Below zoom 15 slopes are exaggerated: pixels 32 times as wide at zoom 10, and 2^(−(z − 15)·0.3)
        // = 2^1.5 steeper.
        let ratio = DEMTile.slopeScale(dim: 256, zoom: 10) / DEMTile.slopeScale(dim: 256, zoom: 15) * 32
        #expect(abs(ratio - pow(2, 1.5)) < 1e-9)
    }

    // MARK: The style document

    func document(_ source: String, _ layers: String = "[]") throws -> StyleDocument {
        try StyleDocument(data: Data(#"{"version": 8, "sources": {"s": \#(source)}, "layers": \#(layers)}"#.utf8), name: "t.json")
    }

    /// What is wrong with a document: the problems that refuse it, or the warnings it is read with.
    func problems(_ source: String, _ layers: String = "[]") -> [String] {
        do { return try document(source, layers).warnings } catch let e as StyleDocumentError { return e.problems } catch { return ["\(error)"] }
    }

    /// Whether `found` is one problem starting with `expected` (what becomes of the part may follow).
    func one(_ found: [String], _ expected: String) -> Bool { found.count == 1 && found[0].hasPrefix(expected) }

    @Test func rasterDEMSources() throws {
        let doc = try document(#"{"type": "raster-dem", "tiles": ["t/{z}/{x}/{y}.png"], "tileSize": 256, "encoding": "terrarium", "maxzoom": 15}"#)
        guard case let .raster(d)? = doc.sources["s"] else { Issue.record("not a tiled source"); return }
        #expect(d.dem == .terrarium && d.tileSize == 256 && d.maxZoom == 15)
        #expect(doc.sources["s"]?.typeName == "raster-dem")
        let plain = try document(#"{"type": "raster-dem", "url": "dem.json"}"#)
        guard case let .raster(p)? = plain.sources["s"] else { Issue.record("not a tiled source"); return }
        #expect(p.dem == .mapbox && p.tileSize == 512 && p.url == "dem.json")
        let custom = try document(#"{"type": "raster-dem", "tiles": ["t"], "encoding": "custom", "redFactor": 2, "greenFactor": 3, "blueFactor": 4, "baseShift": 5}"#)
        guard case let .raster(c)? = custom.sources["s"] else { Issue.record("not a tiled source"); return }
        #expect(c.dem == DEMEncoding(redFactor: 2, greenFactor: 3, blueFactor: 4, baseShift: 5))
    }

    @Test func rasterDEMProblems() {
        #expect(one(problems(#"{"type": "raster-dem", "tiles": ["t"], "encoding": "png"}"#), #"sources.s.encoding: expected one of [mapbox, terrarium, custom], found "png""#))
        #expect(one(problems(#"{"type": "raster-dem"}"#), "sources.s: a raster-dem source needs tiles or a url"))
        #expect(one(problems(#"{"type": "raster-dem", "tiles": ["t"], "tileSize": 0}"#), "sources.s.tileSize: expected a whole number of pixels within 1...4096, found 0"))
        #expect(one(problems(#"{"type": "raster-dem", "tiles": ["t"], "encoding": "custom", "redFactor": "x"}"#), #"sources.s.redFactor: expected number, found "x""#))
    }

    @Test func layersDrawOnlyTheirSources() {
        let dem = #"{"type": "raster-dem", "tiles": ["t"]}"#
        #expect(problems(dem, #"[{"id": "h", "type": "hillshade", "source": "s"}, {"id": "c", "type": "color-relief", "source": "s"}]"#).isEmpty)
        #expect(one(problems(dem, #"[{"id": "r", "type": "raster", "source": "s"}]"#), #"layers[0].source: a raster layer cannot draw the raster-dem source "s""#))
        #expect(one(problems(#"{"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}"#,
                         #"[{"id": "h", "type": "hillshade", "source": "s"}]"#), #"layers[0].source: a hillshade layer cannot draw the geojson source "s""#))
        #expect(problems(dem, #"[{"id": "h", "type": "hillshade", "source": "s", "paint": {"hillshade-method": "flat"}}]"#).count == 1)
    }

    @Test func elevationOnlyInColorRelief() throws {
        let dem = #"{"type": "raster-dem", "tiles": ["t"]}"#
        let doc = try document(dem, #"""
            [{"id": "c", "type": "color-relief", "source": "s", "paint": {"color-relief-color":
              ["interpolate", ["linear"], ["elevation"], 0, "black", 1000, "rgba(255, 0, 0, 0.5)"]}}]
            """#)
        let stops = try #require(doc.layers[0].paint["color-relief-color"]?.expression?.elevationStops())
        #expect(stops.map(\.elevation) == [0, 1000])
        #expect(stops.map(\.color) == [Color(r: 0, g: 0, b: 0), Color(r: 1, g: 0, b: 0, a: 0.5)])
        let geojson = #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}"#
        #expect(one(problems(geojson, #"[{"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": ["interpolate", ["linear"], ["elevation"], 0, "red", 1, "blue"]}}]"#), #"layers[0].paint.fill-color: "elevation" expression may only be used with color-relief-color"#))
        // A ramp over anything else draws nothing (no stops).
        let step = try document(dem, #"[{"id": "c", "type": "color-relief", "source": "s", "paint": {"color-relief-color": ["step", ["elevation"], "red", 10, "blue"]}}]"#)
        #expect(step.layers[0].paint["color-relief-color"]?.expression?.elevationStops() == nil)
    }

    @Test func perLightArrays() throws {
        let dem = #"{"type": "raster-dem", "tiles": ["t"]}"#
        let doc = try document(dem, #"""
            [{"id": "h", "type": "hillshade", "source": "s", "paint": {"hillshade-method": "multidirectional",
              "hillshade-illumination-direction": [315, 45], "hillshade-highlight-color": ["#fff", "red"], "hillshade-shadow-color": "blue"}}]
            """#)
        #expect(doc.layers[0].paint["hillshade-illumination-direction"]?.constant == .array([.number(315), .number(45)]))
        #expect(doc.layers[0].paint["hillshade-highlight-color"]?.constant == .array([.color(.white), .color(Color(r: 1, g: 0, b: 0))]))
        #expect(one(problems(dem, #"[{"id": "h", "type": "hillshade", "source": "s", "paint": {"hillshade-illumination-direction": [315, 400]}}]"#), "layers[0].paint.hillshade-illumination-direction[1]: 400 is greater than the maximum value 359"))
        #expect(one(problems(dem, #"[{"id": "h", "type": "hillshade", "source": "s", "paint": {"hillshade-highlight-color": []}}]"#), "layers[0].paint.hillshade-highlight-color: expected a value or a non-empty array of values, found []"))
        #expect(problems(dem, #"[{"id": "h", "type": "hillshade", "source": "s", "paint": {"hillshade-exaggeration": [1]}}]"#).count == 1)
    }
}
