import Foundation
import MapCore
import NightmapApp

extension Headless {
    /// The `geojson` scenario's data: the file `NIGHTMAP_BENCH_GEOJSON` names (`make bench` writes
    /// it with tools/bench-geojson.py), nil when there is none.
    static var benchGeoJSONPath: String? {
        guard let p = ProcessInfo.processInfo.environment["NIGHTMAP_BENCH_GEOJSON"], FileManager.default.fileExists(atPath: p) else { return nil }
        return p
    }

    static let benchGeoJSONSource = "bench-geojson"
    static let benchGeoJSONLayers = ["bench-geojson-fill", "bench-geojson-line", "bench-geojson-circle"]

    /// Adds the file at `path` as a GeoJSON source drawn by a fill, a line and a circle layer on
    /// top of the map; the line that reports its load time.
    static func addBenchGeoJSON(_ app: inout MapApp, path: String) throws -> String {
        let t0 = Clock.now()
        let data = try GeoJSONData(json: try JSON.parse(try Data(contentsOf: URL(fileURLWithPath: path)), name: path), path: path)
        let t1 = Clock.now()
        let id = benchGeoJSONSource
        try app.model.addSource(id, geojson: data)
        let layers: [JSON] = [
            .object(JSONObject([("id", .string(benchGeoJSONLayers[0])), ("type", .string("fill")), ("source", .string(id)),
                                ("paint", .object(JSONObject([("fill-color", .string("#d08040")), ("fill-opacity", .number(0.8))])))])),
            .object(JSONObject([("id", .string(benchGeoJSONLayers[1])), ("type", .string("line")), ("source", .string(id)),
                                ("filter", .array([.string("=="), .string("$type"), .string("LineString")])),
                                ("paint", .object(JSONObject([("line-color", .string("#404080")), ("line-width", .number(1.5))])))])),
            .object(JSONObject([("id", .string(benchGeoJSONLayers[2])), ("type", .string("circle")), ("source", .string(id)),
                                ("filter", .array([.string("=="), .string("$type"), .string("Point")])),
                                ("paint", .object(JSONObject([("circle-color", .string("#208020")), ("circle-radius", .number(2.5))])))])),
        ]
        for layer in layers { try app.model.addLayer(try LayerDefinition(json: layer, sources: [id: .geojson(.inline(data))])) }
        return String(format: "geojson: %@ (%d features) read in %.0f ms", (path as NSString).lastPathComponent, data.features.count, (t1 - t0) * 1000)
    }

    static func removeBenchGeoJSON(_ app: inout MapApp) {
        for id in benchGeoJSONLayers { try? app.model.removeLayer(id) }
        try? app.model.removeSource(benchGeoJSONSource)
    }
}
