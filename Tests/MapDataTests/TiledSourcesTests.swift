import Foundation
import MapCore
import Testing
@testable import MapData

/// Tiled sources opened and loaded as a style would: archives (the fixtures of make_tiles.py),
/// file templates, URL templates, and what a loader does with bad tiles.
@Suite struct TiledSourcesTests {
    static let folder = TileReaderTests.folder
    static let resolver = ResourceResolver(styleDirectory: folder, assets: nil)

    static func tile(_ z: Int, _ x: Int, _ y: Int) -> TileID {
        guard let t = TileID(z: z, x: x, y: y) else { preconditionFailure("bad tile") }
        return t
    }

    /// The `tile` property of the one point the fixture tile holds, and where the point is.
    static func namedPoint(_ set: TileSet, _ t: TileID) -> (String?, MercatorPoint?) {
        guard case let .vector(v)? = set.cover([t]).first?.content, let f = v.layers["tiles"]?.features.first else { return (nil, nil) }
        return (f.evaluation.properties["tile"]?.asString, MercatorPoint(x: f.geometry.coordinates[0], y: f.geometry.coordinates[1]))
    }

    @Test(arguments: ["pmtiles://small.pmtiles", "mbtiles://small.mbtiles"])
    func archivesLoadTheirTilesAndZoomRange(_ location: String) throws {
        let definition = TiledSourceDefinition(url: location)
        let set = try TiledSources.open(definition, kind: .vector, id: "s", resolver: Self.resolver)
        #expect(set.definition.maxZoom == 2 && set.definition.minZoom == 0)
        let t = Self.tile(2, 1, 3)
        set.fetcher?.load([t, Self.tile(2, 3, 3)], into: set, now: 0)
        let (name, point) = Self.namedPoint(set, t)
        #expect(name == "2/1/3")
        // The point lies inside its tile's square, in normalised Web Mercator.
        let square = TileSquare(t)
        let p = try #require(point)
        let inside: Bool = p.x >= square.minX && p.x < square.maxX && p.y >= square.minY && p.y < square.maxY
        #expect(inside)
        // Past the archive's zooms there is no tile: absent, not failed.
        let deeper = Self.tile(3, 0, 0)
        set.fetcher?.load([deeper], into: set, now: 0)
        #expect(set.isSettled([deeper]) && set.lastError == nil)
    }

    @Test func archivesOfTheWrongKindOrMissingAreOneNamedError() {
        func failure(_ d: TiledSourceDefinition, _ kind: TileSet.Kind) -> String {
            do { _ = try TiledSources.open(d, kind: kind, id: "s", resolver: Self.resolver); return "" } catch { return "\(error)" }
        }
        #expect(failure(TiledSourceDefinition(url: "pmtiles://small.pmtiles"), .raster).contains("pmtiles://small.pmtiles: holds mvt tiles"))
        #expect(failure(TiledSourceDefinition(url: "mbtiles://small.mbtiles"), .raster).contains("holds pbf tiles"))
        #expect(failure(TiledSourceDefinition(url: "pmtiles://none.pmtiles"), .vector).contains("none.pmtiles"))
        #expect(failure(TiledSourceDefinition(url: "mbtiles://notiles.mbtiles"), .vector).contains("notiles.mbtiles"))
        #expect(failure(TiledSourceDefinition(tiles: ["https://example.org/{z}/{x}/{y}.mvt"]), .vector)
            .contains("https://example.org/{z}/{x}/{y}.mvt: tiles over HTTP are not read here"))
        #expect(failure(TiledSourceDefinition(url: "missing.json"), .vector).contains("missing.json"))
    }

    @Test func tileJSONDocumentsFillTheDefinitionOrAreOneNamedError() throws {
        var d = TiledSourceDefinition()
        let doc = #"{"tiles": ["https://t.example.org/{z}/{x}/{y}.png"], "minzoom": 2, "maxzoom": 9, "scheme": "tms", "tileSize": 256, "attribution": "© Example"}"#
        try TiledSources.readTileJSON(Data(doc.utf8), url: "https://t.example.org/tiles.json", kind: .raster, into: &d)
        #expect(d.tiles == ["https://t.example.org/{z}/{x}/{y}.png"] && d.minZoom == 2 && d.maxZoom == 9)
        #expect(d.scheme == .tms && d.tileSize == 256 && d.attribution == "© Example")
        func failure(_ text: String) -> String {
            var d = TiledSourceDefinition()
            do { try TiledSources.readTileJSON(Data(text.utf8), url: "t.json", kind: .vector, into: &d); return "" } catch { return "\(error)" }
        }
        for bad in ["[1, 2]", #"{"minzoom": 0}"#, #"{"tiles": "x"}"#, "<html><body>502</body></html>", #"{"tiles": ["a"], "#] {
            let message = failure(bad)
            #expect(message.hasPrefix("t.json") && !message.contains("\n"), "\(bad): \(message)")
        }
    }

    @Test func templatesNameEachTile() {
        let xyz = TileTemplates(["t/{z}/{x}/{y}{ratio}.png"], scheme: .xyz, pixelRatio: 2)
        #expect(xyz.url(Self.tile(3, 3, 5)) == "t/3/3/5@2x.png")
        let tms = TileTemplates(["t/{z}/{x}/{y}.png"], scheme: .tms)
        #expect(tms.url(Self.tile(3, 3, 5)) == "t/3/3/2.png")
        let quad = TileTemplates(["q/{quadkey}/{prefix}"], scheme: .xyz)
        #expect(quad.url(Self.tile(3, 3, 5)) == "q/213/35")
        let box = TileTemplates(["w?bbox={bbox-epsg-3857}"], scheme: .xyz)
        #expect(box.url(Self.tile(1, 1, 0)) == "w?bbox=0.0,0.0,20037508.342789244,20037508.342789244")
        // Several servers share the tiles out by x + y.
        let two = TileTemplates(["a/{z}/{x}/{y}", "b/{z}/{x}/{y}"], scheme: .xyz)
        #expect(two.url(Self.tile(1, 0, 0)).hasPrefix("a/") && two.url(Self.tile(1, 1, 0)).hasPrefix("b/"))
    }

    @Test func fileTemplatesGiveTilesAndTheirAbsence() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(contentsOf: Self.folder.appendingPathComponent("basic.mvt")).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        try Data("<html><body>502 Bad Gateway</body></html>".utf8).write(to: dir.appendingPathComponent("1-0-0.mvt"))
        let set = try TiledSources.open(TiledSourceDefinition(tiles: ["\(dir.path)/{z}-{x}-{y}.mvt"]), kind: .vector, id: "s",
                                        resolver: Self.resolver)
        let loader = try #require(set.fetcher)
        loader.load([Self.tile(0, 0, 0), Self.tile(1, 1, 1)], into: set, now: 0)
        #expect(set.isSettled([Self.tile(0, 0, 0), Self.tile(1, 1, 1)]))       // one loaded, one absent
        // An HTML error page in place of a tile: one error naming the tile and what came.
        loader.load([Self.tile(1, 0, 0)], into: set, now: 0)
        let error = try #require(set.lastError)
        #expect(error.message.contains("/1-0-0.mvt: not a vector tile (the answer is text: \"<html><body>502 Bad Gateway"))
        #expect(set.hasFailed(Self.tile(1, 0, 0)))
    }

    @Test func aTilesFeaturesAreProjectedAndItsPolygonsKeepTheirHoles() throws {
        let decoded = try VectorTile(data: Data(contentsOf: Self.folder.appendingPathComponent("basic.mvt")))
        let features = TileDecoder.features(decoded, tile: Self.tile(0, 0, 0))
        let place = try #require(features.layers["places"]?.features.first)
        let expected: [Double] = [0.5, 0.25]         // (2048, 1024) of 4096
        #expect(place.geometry.coordinates == expected)
        let lake = try #require(features.layers["water"]?.features.first)
        #expect(lake.geometry.partCount == 2 && lake.geometry.polygonStarts == [0, 2])     // a ring and its hole
        #expect(lake.evaluation.id == .number(7) && lake.evaluation.geometryType == "Polygon")
        let pond = try #require(features.layers["water"]?.features.last)
        #expect(pond.geometry.polygonStarts == [0, 1, 2])                                    // two polygons
        // The road from corner to corner: kept to the tile's square, marked as reaching its edge.
        let roads = try #require(features.layers["roads"])
        #expect(roads.touchesEdge.first == true)
    }

    @Test func badTilesAreNamedErrors() throws {
        let tile = Self.tile(4, 2, 2)
        func failure(_ data: Data, _ kind: TileSet.Kind) -> String {
            do { _ = try TileDecoder.content(data, tile: tile, kind: kind, name: "t"); return "" } catch { return "\(error)" }
        }
        #expect(failure(Data("{\"error\": \"no such tile\"}".utf8), .raster).contains("t: not an image (the answer is text"))
        #expect(failure(Data([1, 2, 3, 4, 5, 6, 7, 8]), .raster) == "t: not a PNG, JPEG or WebP image")
        #expect(!failure(Data([0x1A, 0x05, 0xFF]), .vector).isEmpty)
        let bomb = try Data(contentsOf: Self.folder.appendingPathComponent("bomb.gz"))
        #expect(!failure(bomb, .vector).isEmpty)
        // A good image: decoded to its size.
        let jpeg = try Data(contentsOf: Self.folder.appendingPathComponent("tile.jpg"))
        guard case let .raster(image) = try TileDecoder.content(jpeg, tile: tile, kind: .raster, name: "t") else {
            Issue.record("not a raster tile"); return
        }
        #expect(image.width > 0 && image.height > 0)
    }
}
