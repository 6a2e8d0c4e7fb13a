import Foundation
import Raster
import Testing
@testable import MapCore

/// The tiled path's pure parts: which tiles a view needs, features cut to tile squares and
/// joined again, the tile store's stand-ins, eviction and back-off, and source definitions.
@Suite struct TiledSourceTests {
    static func tile(_ z: Int, _ x: Int, _ y: Int) -> TileID {
        guard let t = TileID(z: z, x: x, y: y) else { preconditionFailure("bad tile \(z)/\(x)/\(y)") }
        return t
    }

    static func points(_ g: FeatureGeometry, part i: Int) -> [MercatorPoint] {
        g.part(i).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) }
    }

    // MARK: Cover

    @Test func coverListsTheTilesInViewNearestFirst() {
        // A box around the centre of the world at zoom 2: the four middle tiles, then none else.
        let box = MercatorBox(minX: 0.4, minY: 0.4, maxX: 0.6, maxY: 0.6)
        let tiles = TileCover.tiles(z: 2, box: box)
        #expect(Set(tiles) == [Self.tile(2, 1, 1), Self.tile(2, 2, 1), Self.tile(2, 1, 2), Self.tile(2, 2, 2)])
        // Off-centre: the tile holding the centre comes first.
        let first = TileCover.tiles(z: 3, box: MercatorBox(minX: 0.30, minY: 0.30, maxX: 0.55, maxY: 0.55)).first
        #expect(first == Self.tile(3, 3, 3))
    }

    @Test func coverTakesEachTileOnceAcrossWorldCopiesAndKeepsToBounds() {
        // Two and a half worlds wide at zoom 1: each of the four tiles once.
        let wide = TileCover.tiles(z: 1, box: MercatorBox(minX: -0.8, minY: 0, maxX: 1.7, maxY: 1))
        #expect(wide.count == 4 && Set(wide).count == 4)
        // Across the antimeridian: columns from both ends of the world.
        let across = TileCover.tiles(z: 2, box: MercatorBox(minX: 0.9, minY: 0.3, maxX: 1.1, maxY: 0.4))
        #expect(Set(across.map(\.x)) == [0, 3])
        // Bounds of the western hemisphere's north: nothing east of Greenwich or south of it.
        let west = TileCover.tiles(z: 2, box: MercatorBox(minX: 0, minY: 0, maxX: 1, maxY: 1),
                                   bounds: LngLatBounds(west: -180, south: 1, east: -1, north: 85))
        #expect(Set(west) == [Self.tile(2, 0, 0), Self.tile(2, 1, 0), Self.tile(2, 0, 1), Self.tile(2, 1, 1)])
        #expect(TileCover.tiles(z: 2, box: MercatorBox(minX: .nan, minY: 0, maxX: 1, maxY: 1)).isEmpty)
    }

    @Test func coveringZoomRoundsRasterAndFloorsVector() throws {
        let raster = TiledSourceDefinition(tileSize: 256, minZoom: 2, maxZoom: 17)
        #expect(raster.coveringZoom(14.4, raster: true) == 15)      // 256-pixel tiles: one zoom deeper
        #expect(raster.coveringZoom(14.6, raster: true) == 16)
        #expect(raster.dataZoom(19, raster: true) == 17)             // overzoomed past maxzoom
        #expect(raster.coveringZoom(0.2, raster: true) == nil)       // below minzoom: nothing
        let vector = TiledSourceDefinition(tileSize: 512, maxZoom: 14)
        #expect(vector.coveringZoom(14.9, raster: false) == 14)
        #expect(vector.dataZoom(17.5, raster: false) == 14)
        // Below zoom 0 the zoom-0 tile is drawn smaller (MapLibre GL JS goes down to -2), but a
        // source with a higher minzoom still shows nothing.
        #expect(vector.coveringZoom(-1, raster: false) == 0)
        #expect(raster.coveringZoom(-1.5, raster: true) == nil)
        #expect(vector.coveringZoom(.nan, raster: false) == nil)
        // A layer's default minzoom (0) sets no lower bound; a minzoom above 0 does.
        #expect(LayerDefinition(id: "l", type: .fill, source: "s").isShown(atZoom: -1))
        #expect(!LayerDefinition(id: "l", type: .fill, source: "s", minZoom: 0.5).isShown(atZoom: 0))
    }

    // MARK: Cutting and joining

    /// A square polygon over the edge between tiles 1/0/0 and 1/1/0, cut by each.
    static let square = FeatureGeometry(kind: .polygons, parts: [[
        MercatorPoint(x: 0.25, y: 0.1), MercatorPoint(x: 0.75, y: 0.1), MercatorPoint(x: 0.75, y: 0.3),
        MercatorPoint(x: 0.25, y: 0.3), MercatorPoint(x: 0.25, y: 0.1)]], polygonStarts: [0])

    @Test func polygonsAreCutAtTheTileEdgeAndTheirOutlineLeavesTheCutOut() throws {
        let (g, touches) = try #require(Self.square.clipped(to: TileSquare(Self.tile(1, 0, 0))))
        #expect(touches)
        let ring = Self.points(g, part: 0)
        #expect(ring.allSatisfy { $0.x <= 0.5 } && ring.contains(MercatorPoint(x: 0.5, y: 0.1)) && ring.contains(MercatorPoint(x: 0.5, y: 0.3)))
        // The outline goes round three sides, not along x = 0.5.
        let outline = try #require(g.outline)
        #expect(outline.partCount == 1)
        let line = Self.points(outline, part: 0)
        #expect(line.count == 4 && line.first?.x == 0.5 && line.last?.x == 0.5)
        // Wholly outside: nothing; wholly inside, away from the edges: the geometry itself.
        #expect(Self.square.clipped(to: TileSquare(Self.tile(1, 0, 1))) == nil)
        let inner = FeatureGeometry(kind: .polygons, parts: [[MercatorPoint(x: 0.1, y: 0.1), MercatorPoint(x: 0.2, y: 0.1),
                                                              MercatorPoint(x: 0.2, y: 0.2), MercatorPoint(x: 0.1, y: 0.1)]],
                                    polygonStarts: [0])
        let kept = try #require(inner.clipped(to: TileSquare(Self.tile(1, 0, 0))))
        #expect(kept.geometry === inner && !kept.touchesEdge)
    }

    @Test func aPointOnTheEdgeBetweenTwoTilesBelongsToOne() throws {
        let p = FeatureGeometry(point: MercatorPoint(x: 0.5, y: 0.2))
        let west = p.clipped(to: TileSquare(Self.tile(1, 0, 0))), east = p.clipped(to: TileSquare(Self.tile(1, 1, 0)))
        #expect(west == nil)
        #expect(east?.touchesEdge == true)
    }

    @Test func linesAreCutWhereTheyLeaveAndJoinedAcrossTiles() throws {
        // A line from west to east and back west, crossing x = 0.5 twice.
        let line = FeatureGeometry(kind: .lines, parts: [[MercatorPoint(x: 0.3, y: 0.2), MercatorPoint(x: 0.7, y: 0.25),
                                                          MercatorPoint(x: 0.3, y: 0.35)]])
        let west = try #require(line.clipped(to: TileSquare(Self.tile(1, 0, 0))))
        let east = try #require(line.clipped(to: TileSquare(Self.tile(1, 1, 0))))
        #expect(west.geometry.partCount == 2 && east.geometry.partCount == 1)
        #expect(west.touchesEdge && east.touchesEdge)
        // The crossing is the same point from either side.
        let westEnd = try #require(Self.points(west.geometry, part: 0).last)
        let eastStart = try #require(Self.points(east.geometry, part: 0).first)
        #expect(westEnd == eastStart && westEnd.x == 0.5)
        // Joined: one line again, through both crossings, its points the original's and the cuts.
        let joined = CoverFeatures.joined([west.geometry, east.geometry], zoom: 1)
        #expect(joined.partCount == 1)
        let all = Self.points(joined, part: 0)
        #expect(all.count == 5 && all.first == MercatorPoint(x: 0.3, y: 0.2) && all.last == MercatorPoint(x: 0.3, y: 0.35))
        #expect(all.contains(MercatorPoint(x: 0.7, y: 0.25)))
    }

    static func vectorTile(_ t: TileID, _ features: [GeoFeature]) -> TileSet.CoverEntry {
        let content = TileContent.vector(VectorTileFeatures(tile: t, layers: ["l": features]))
        let set = TileSet(definition: TiledSourceDefinition(), kind: .vector)
        set.deliver(t, content)
        return set.cover([t])[0]
    }

    static func feature(_ g: FeatureGeometry, _ name: String) -> GeoFeature {
        GeoFeature(geometry: g, evaluation: EvaluationFeature(properties: ["name": .string(name)], geometryType: "Polygon"))
    }

    @Test func piecesOfOneFeatureBecomeOneAndKeepEveryTilesOrder() throws {
        // West tile: a, then the square's piece, then b; east tile: c, then the square's piece.
        func box(_ x0: Double, _ x1: Double) -> FeatureGeometry {
            FeatureGeometry(kind: .polygons, parts: [[MercatorPoint(x: x0, y: 0.1), MercatorPoint(x: x1, y: 0.1),
                                                      MercatorPoint(x: x1, y: 0.2), MercatorPoint(x: x0, y: 0.1)]], polygonStarts: [0])
        }
        let west = Self.vectorTile(Self.tile(1, 0, 0), [Self.feature(box(0.1, 0.2), "a"), Self.feature(Self.square, "sq"),
                                                        Self.feature(box(0.3, 0.4), "b")])
        let east = Self.vectorTile(Self.tile(1, 1, 0), [Self.feature(box(0.6, 0.7), "c"), Self.feature(Self.square, "sq")])
        let merged = CoverFeatures(entries: [west, east]).layer("l").features
        let names = merged.map { $0.evaluation.properties["name"]?.asString ?? "" }
        #expect(names.count == 4 && names.filter { $0 == "sq" }.count == 1)
        // Whatever precedes a piece in its tile precedes the joined feature; b follows it.
        let at = { (n: String) in names.firstIndex(of: n) ?? -1 }
        #expect(at("a") < at("sq") && at("c") < at("sq") && at("sq") < at("b"))
        // The joined square: both halves, filled together, and an outline without the cut.
        let sq = try #require(merged.first { $0.evaluation.properties["name"]?.asString == "sq" })
        #expect(sq.geometry.partCount == 2 && sq.geometry.polygonStarts == [0, 1, 2])
        let outline = try #require(sq.geometry.outline)
        #expect(outline.partCount == 1)
        #expect(Self.points(outline, part: 0).allSatisfy { $0.x != 0.5 || $0.y == 0.1 || $0.y == 0.3 })
    }

    @Test func featuresSharingAnIdAreNotMergedUnlessTheyAreAlike() throws {
        // Every feature id 0 (as in Mapbox Streets v7): two roads of different classes across
        // the tile edge, and two alike features in one tile.
        func road(_ y: Double, _ x0: Double, _ x1: Double, _ cls: String) -> GeoFeature {
            GeoFeature(geometry: FeatureGeometry(kind: .lines, parts: [[MercatorPoint(x: x0, y: y), MercatorPoint(x: x1, y: y)]]),
                       evaluation: EvaluationFeature(properties: ["class": .string(cls)], id: .number(0), geometryType: "LineString"))
        }
        let west = Self.vectorTile(Self.tile(1, 0, 0), [road(0.1, 0.3, 0.5, "motorway"), road(0.2, 0.3, 0.5, "street"),
                                                        road(0.3, 0.4, 0.5, "path"), road(0.35, 0.4, 0.5, "path")])
        let east = Self.vectorTile(Self.tile(1, 1, 0), [road(0.1, 0.5, 0.7, "motorway"), road(0.2, 0.5, 0.7, "street")])
        let merged = CoverFeatures(entries: [west, east]).layer("l").features
        let classes = merged.map { $0.evaluation.properties["class"]?.asString ?? "" }
        // The motorway's and the street's halves join each other only; both paths stay.
        #expect(classes.sorted() == ["motorway", "path", "path", "street"])
        for f in merged where f.evaluation.properties["class"]?.asString != "path" {
            #expect(f.geometry.partCount == 1)
            let p = Self.points(f.geometry, part: 0)
            #expect(p.first?.x == 0.3 && p.last?.x == 0.7 && p.allSatisfy { $0.y == p[0].y })
        }
    }

    // MARK: The tile store

    static func image(_ side: Int) -> TileContent { .raster(Pixmap(width: side, height: side)) }

    @Test func anAncestorStandsInInsideTheMissingTilesSquareAndChildrenWhenAllAreIn() {
        let set = TileSet(definition: TiledSourceDefinition(maxZoom: 10), kind: .raster)
        let parent = Self.tile(2, 1, 1), wanted = Self.tile(3, 2, 3)
        set.deliver(parent, Self.image(4))
        let cover = set.cover([wanted])
        #expect(cover.count == 1 && cover[0].tile == parent && cover[0].square == wanted)
        // Children: three of four are not enough; the fourth makes them stand in.
        let other = Self.tile(3, 6, 6)
        for k in other.children.dropLast() { set.deliver(k, Self.image(4)) }
        #expect(set.cover([other]).isEmpty)
        if let last = other.children.last { set.deliver(last, Self.image(4)) }
        #expect(set.cover([other]).map(\.tile) == other.children)
    }

    @Test func absentTilesAreNotAskedAgainButTheirAncestorIs() {
        let set = TileSet(definition: TiledSourceDefinition(minZoom: 1), kind: .vector)
        let t = Self.tile(3, 1, 1)
        #expect(set.missing([t], now: 0) == [t])
        set.deliverAbsent(t)
        #expect(set.missing([t], now: 0) == [Self.tile(2, 0, 0)])
        set.deliverAbsent(Self.tile(2, 0, 0))
        #expect(set.missing([t], now: 0) == [Self.tile(1, 0, 0)])
        set.deliverAbsent(Self.tile(1, 0, 0))
        #expect(set.missing([t], now: 0).isEmpty)           // (zoom 0 is below minzoom)
        #expect(set.isSettled([t]))
    }

    @Test func failuresBackOffAndAreCountedPerSource() {
        let set = TileSet(definition: TiledSourceDefinition(), kind: .vector)
        let t = Self.tile(4, 3, 3)
        set.deliverFailure(t, message: "x.pmtiles: bad", now: 10)
        #expect(set.missing([t], now: 10.9).filter { $0 == t }.isEmpty)
        #expect(set.missing([t], now: 11).contains(t))     // 1 s after the first failure
        set.deliverFailure(t, message: "x.pmtiles: bad", now: 11)
        #expect(!set.missing([t], now: 12.9).contains(t))  // then 2 s
        #expect(set.missing([t], now: 13).contains(t))
        #expect(set.lastError?.message == "x.pmtiles: bad" && set.lastError?.count == 2)
        #expect(!set.isSettled([t]))
    }

    @Test func theLeastRecentlyDrawnTilesGoFirstWhenTheBytesRunOut() {
        // Each 32 x 32 image is 4160 bytes; three fit in 12,500.
        let set = TileSet(definition: TiledSourceDefinition(), kind: .raster, byteLimit: 12_500)
        let a = Self.tile(5, 0, 0), b = Self.tile(5, 1, 0), c = Self.tile(5, 2, 0), d = Self.tile(5, 3, 0)
        for t in [a, b, c] { set.deliver(t, Self.image(32)) }
        _ = set.cover([a])                                   // a drawn: b is now the oldest
        set.deliver(d, Self.image(32))
        #expect(set.loadedCount == 3 && set.byteCount <= 12_500)
        #expect(set.cover([a, c, d]).count == 3)
        #expect(set.cover([b]).isEmpty && set.missing([b], now: 0) == [b])
        // A tile larger than the whole budget is kept while it is the newest.
        set.deliver(Self.tile(5, 4, 0), Self.image(64))
        #expect(set.loadedCount == 1)
    }

    // MARK: Definitions

    @Test func sourceDefinitionsAreCheckedWithTheirPaths() throws {
        let good = try StyleDocument(json: JSON.parse(Data("""
            {"version": 8, "sources": {"s": {"type": "raster", "tiles": ["a/{z}/{x}/{y}.png"], "tileSize": 256, "scheme": "tms",
             "minzoom": 2, "maxzoom": 9, "bounds": [-10, 40, 10, 60]}}, "layers": []}
            """.utf8), name: "t"))
        guard case let .raster(d)? = good.sources["s"] else { Issue.record("not a raster source"); return }
        #expect(d.tileSize == 256 && d.scheme == .tms && d.minZoom == 2 && d.maxZoom == 9 && d.bounds.west == -10 && d.bounds.north == 60)
        func problems(_ source: String) -> String {
            do {
                // (The style API's check; a document names the problem and leaves the source out.)
                _ = try SourceDefinition(json: JSON.parse(Data(source.utf8), name: "t"), id: "s")
                return ""
            } catch { return "\(error)" }
        }
        #expect(problems(#"{"type": "vector"}"#).contains("sources.s: a vector source needs tiles or a url"))
        #expect(problems(#"{"type": "vector", "tiles": ["x"], "scheme": "wms"}"#).contains("sources.s.scheme: expected one of [xyz, tms]"))
        #expect(problems(#"{"type": "vector", "tiles": ["x"], "minzoom": 9, "maxzoom": 3}"#).contains("minzoom 9 is above maxzoom 3"))
        #expect(problems(#"{"type": "raster", "tiles": ["x"], "tileSize": 0}"#).contains("sources.s.tileSize"))
        #expect(problems(#"{"type": "raster", "tiles": []}"#).contains("sources.s.tiles: expected a non-empty array"))
        #expect(problems(#"{"type": "vector", "tiles": ["x"], "bounds": [10, 0, -10, 5]}"#).contains("sources.s.bounds"))
    }
}
