import Foundation
@testable import MapCore
import Testing

/// GeoJSON sources tiled per zoom as geojson-vt tiles them, and clustered as supercluster
/// clusters them.
@Suite struct GeoJSONTilesTests {
    func line(_ points: [(Double, Double)], properties: [String: StyleValue] = [:]) -> GeoFeature {
        GeoFeature(geometry: FeatureGeometry(kind: .lines, parts: [points.map { MercatorPoint(x: $0.0, y: $0.1) }]),
                   evaluation: EvaluationFeature(properties: properties, geometryType: "LineString"))
    }

    func square(_ x: Double, _ y: Double, side: Double) -> GeoFeature {
        let ring = [(x, y), (x + side, y), (x + side, y + side), (x, y + side), (x, y)].map { MercatorPoint(x: $0.0, y: $0.1) }
        return GeoFeature(geometry: FeatureGeometry(kind: .polygons, parts: [ring], polygonStarts: [0]),
                          evaluation: EvaluationFeature(geometryType: "Polygon"))
    }

    func vertices(_ data: GeoJSONData, _ t: TileID) -> [Int] {
        data.tiles.tile(t).map { $0.geometry.coordinates.count / 2 }
    }

    /// Tolerance at zoom z: 0.375 px of a 512 tile = 6 / (2^z * 8192) of the world. The second
    /// vertex lies 0.0003 off the line through its neighbours: gone at zoom 0 (tolerance
    /// 0.00073), kept at zoom 2 (0.00018) and at maxzoom.
    @Test func simplifiesByZoom() {
        let data = GeoJSONData(features: [line([(0.1, 0.5), (0.2, 0.5053), (0.3, 0.51), (0.4, 0.5)])])
        #expect(vertices(data, TileID(z: 0, x: 0, y: 0)!) == [3])
        #expect(data.tiles.tile(TileID(z: 0, x: 0, y: 0)!).first?.geometry.coordinates == [0.1, 0.5, 0.3, 0.51, 0.4, 0.5])
        #expect(vertices(data, TileID(z: 2, x: 1, y: 2)!) == [4])
        #expect(vertices(data, TileID(z: 18, x: 1 << 16, y: 1 << 17)!) == [])        // (not in that tile)
    }

    /// With `lineMetrics`, a simplified line keeps its kept points' fractions of the whole
    /// line's length (what `line-progress` reads), not fractions of what is left.
    @Test func simplifiedLinesKeepTheirProgress() throws {
        let json = try JSON.parse(Data(#"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-90, 0], [-45, 0.001], [0, 0], [90, 10]]}}"#.utf8), name: "t")
        let measured = try GeoJSONData(json: json, path: "t").withLineMetrics(.bool(true))
        var options = GeoJSONSourceOptions()
        options.lineMetrics = true
        let data = measured.with(options)
        let drawn = try #require(data.tiles.drawn(zoom: 0, visible: MercatorBox(minX: 0, minY: 0, maxX: 1, maxY: 1))?.features.first?.geometry)
        #expect(drawn.coordinates.count == 6)                  // the nearly straight point is gone
        let progress = try #require(drawn.lineProgress)
        #expect(progress.count == 3 && progress[0] == 0 && progress[2] == 1)
        let original = try #require(measured.features.first?.geometry.lineProgress)
        #expect(progress[1] == original[2] && progress[1] > 0.45 && progress[1] < 0.55)
    }

    /// Data loaded from a file or the web gets its lines measured by the source's options.
    @Test func lineMetricsMeasureDataFromAnyOrigin() {
        var options = GeoJSONSourceOptions()
        options.lineMetrics = true
        let data = GeoJSONData(features: [line([(0.1, 0.5), (0.2, 0.5), (0.4, 0.5)])]).with(options)
        #expect(data.features.first?.geometry.lineProgress == [0, 1.0 / 3, 1])
    }

    /// A line shorter than the tolerance and a ring smaller than its square vanish.
    @Test func smallFeaturesVanish() {
        let data = GeoJSONData(features: [line([(0.3, 0.3), (0.3001, 0.3)]), square(0.6, 0.6, side: 0.0005)])
        #expect(data.tiles.tile(TileID(z: 0, x: 0, y: 0)!).isEmpty)
        // Zoom 1: the square (area 2.5e-7 > 1.34e-7) stays, the line (1e-4 < 3.7e-4) does not.
        #expect(data.tiles.tile(TileID(z: 1, x: 1, y: 1)!).map(\.geometry.kind) == [.polygons])
        // (Tile 1/0/0 holds the square too: it lies in its buffer.)
        #expect(data.tiles.tile(TileID(z: 1, x: 0, y: 0)!).map(\.geometry.kind) == [.polygons])
        // Zoom 4 (tolerance 4.6e-5): the line too.
        #expect(data.tiles.tile(TileID(z: 4, x: 4, y: 4)!).map(\.geometry.kind) == [.lines])
    }

    /// Tiles are clipped to their square grown by the buffer: 128 px of 512, a quarter tile.
    @Test func clipsWithBuffer() throws {
        let data = GeoJSONData(features: [line([(0.2, 0.3), (0.8, 0.3)])])
        let g = try #require(data.tiles.tile(TileID(z: 1, x: 0, y: 0)!).first?.geometry)
        #expect(g.minX == 0.2 && g.maxX == 0.625)
        let east = try #require(data.tiles.tile(TileID(z: 1, x: 1, y: 0)!).first?.geometry)
        #expect(east.minX == 0.375 && east.maxX == 0.8)
        #expect(data.tiles.tile(TileID(z: 1, x: 0, y: 1)!).isEmpty)
        // A frame joins the tiles' pieces again: one line, end to end.
        let drawn = try #require(data.tiles.drawn(zoom: 1.5, visible: MercatorBox(minX: 0.1, minY: 0.1, maxX: 0.9, maxY: 0.6)))
        #expect(drawn.features.count == 1)
        #expect(drawn.features.first?.geometry.partCount == 1)
        #expect(drawn.features.first?.geometry.minX == 0.2 && drawn.features.first?.geometry.maxX == 0.8)
    }

    /// Simplified geometry is kept for the last `zoomLimit` zooms only.
    @Test func zoomCacheIsBounded() {
        let data = GeoJSONData(features: [line([(0.2, 0.3), (0.8, 0.3)])])
        for z in 0..<8 { _ = data.tiles.tile(TileID(z: z, x: 0, y: 0)!) }
        #expect(data.tiles.zoomCount == data.tiles.zoomLimit && data.tiles.zoomLimit == 3)
        // A frame at a zoom: the same object while the view stays in its cover.
        let view = MercatorBox(minX: 0.4, minY: 0.25, maxX: 0.45, maxY: 0.3)
        let a = data.tiles.drawn(zoom: 6.2, visible: view), b = data.tiles.drawn(zoom: 6.7, visible: view)
        #expect(a != nil && a === b)
    }

    func points(_ options: GeoJSONSourceOptions) -> GeoJSONData {
        let features = [(0.0, 1.0), (1, 2), (2, 3), (100, 4)].map { lng, v in
            GeoFeature(geometry: FeatureGeometry(point: WebMercator.project(LngLat(lng: lng, lat: 0))),
                       evaluation: EvaluationFeature(properties: ["v": .number(v)], geometryType: "Point"))
        }
        return GeoJSONData(features: features, options: options)
    }

    /// Points 1 degree apart at the equator and one far away, radius 50 px: supercluster joins the
    /// first two at zoom 5 (id 0 << 5 + 6 + 4 = 10), the third with them at zoom 4 (id 9), and
    /// leaves them apart from zoom 6.
    @Test func clustersAsSupercluster() throws {
        var o = GeoJSONSourceOptions()
        o.cluster = true
        o.clusterProperties = [try GeoJSONSourceOptions.clusterProperty("sum", .array([.string("+"), .array([.string("get"), .string("v")])]),
                                                                         path: "sum")]
        let data = points(o)
        func clusters(_ z: Double) -> [(id: Double, count: Double, sum: Double)] {
            data.tiles.drawn(zoom: z, visible: nil)?.features.compactMap { f in
                guard case .number(let id)? = f.evaluation.properties["cluster_id"], case .number(let n)? = f.evaluation.properties["point_count"],
                      case .number(let s)? = f.evaluation.properties["sum"] else { return nil }
                return (id, n, s)
            } ?? []
        }
        #expect(clusters(7).isEmpty && data.tiles.drawn(zoom: 7, visible: nil)?.features.count == 4)
        #expect(clusters(5).map(\.id) == [10] && clusters(5).map(\.count) == [2] && clusters(5).map(\.sum) == [3])
        #expect(data.tiles.drawn(zoom: 5, visible: nil)?.features.count == 3)
        #expect(clusters(4).map(\.id) == [9] && clusters(4).map(\.count) == [3] && clusters(4).map(\.sum) == [6])
        #expect(clusters(0).map(\.id) == [9] && data.tiles.drawn(zoom: 0, visible: nil)?.features.count == 2)
        let c = try #require(data.tiles.drawn(zoom: 4.5, visible: nil)?.features.first)
        #expect(c.evaluation.id == .number(9) && c.evaluation.properties["cluster"] == .bool(true)
                && c.evaluation.properties["point_count_abbreviated"] == .number(3))
        // clusterMinPoints 3: no pair at zoom 5.
        o.clusterMinPoints = 3
        #expect(points(o).tiles.drawn(zoom: 5, visible: nil)?.features.count == 4)
    }

    @Test func abbreviatesCounts() {
        #expect(GeoJSONClusters.abbreviated(999) == .number(999))
        #expect(GeoJSONClusters.abbreviated(1250) == .string("1.3k"))
        #expect(GeoJSONClusters.abbreviated(12_600) == .string("13k"))
    }

    @Test func readsSourceOptions() throws {
        let text = #"""
        { "version": 8, "sources": { "s": { "type": "geojson", "data": { "type": "Point", "coordinates": [0, 0] },
          "cluster": true, "clusterRadius": 30, "clusterMaxZoom": 9, "maxzoom": 12, "tolerance": 1,
          "clusterProperties": { "max": [["max", ["accumulated"], ["get", "max"]], ["get", "v"]] } } },
          "layers": [] }
        """#
        let document = try StyleDocument(data: Data(text.utf8), name: "options.json")
        let o = try #require(document.geojsonOptions["s"])
        #expect(o.cluster && o.clusterRadius == 30 && o.clusterMaxZoom == 9 && o.maxZoom == 12 && o.tolerance == 1)
        #expect(o.clusterProperties.map(\.name) == ["max"])
    }
}
