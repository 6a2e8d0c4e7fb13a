import Foundation
import MapCore
import MapData

/// Reads a route as GeoJSON: a LineString (one step), a MultiLineString (a step per part), a
/// Feature, or a FeatureCollection (a step per feature). Errors are one line naming the file.
public enum RouteFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The largest route file accepted.
    public static let maxBytes = 32 << 20

    /// Route steps, each a list of polylines.
    public typealias Steps = [[[LngLat]]]

    public static func read(path: String) throws -> Steps {
        let data: Data
        do { data = try DataFile.read(path, limit: maxBytes) } catch { throw Failure(description: error.description) }
        return try decode(data, origin: path)
    }

    public static func decode(_ data: Data, origin: String) throws -> Steps {
        let json: JSON
        do {
            json = try JSON.parse(data, name: origin)
        } catch {
            throw Failure(description: "\(origin): not valid JSON (\(JSON.parseFailure(error, name: origin)))")
        }
        guard let object = json.objectValue else { throw Failure(description: "\(origin): top level is not a GeoJSON object") }
        guard let type = object["type"]?.stringValue else { throw Failure(description: "\(origin): missing \"type\"") }
        let steps: Steps
        switch type {
        case "FeatureCollection":
            guard let features = object["features"]?.arrayValue else { throw Failure(description: "\(origin): \"features\" is not an array") }
            steps = try features.enumerated().compactMap { i, f in
                guard let feature = f.objectValue else { throw Failure(description: "\(origin): features[\(i)] is not an object") }
                return try featureLines(feature, path: "features[\(i)]", origin: origin)
            }
        case "Feature":
            steps = try featureLines(object, path: "feature", origin: origin).map { [$0] } ?? []
        case "LineString", "MultiLineString":
            let lines = try geometryLines(object, path: "geometry", origin: origin)
            steps = type == "LineString" ? [lines] : lines.map { [$0] }
        default:
            throw Failure(description: "\(origin): GeoJSON type \"\(type)\" has no lines (use LineString, MultiLineString, Feature or FeatureCollection)")
        }
        guard !steps.isEmpty else { throw Failure(description: "\(origin): no LineString or MultiLineString features") }
        return steps
    }

    /// A feature's polylines; nil for features without line geometry (points, polygons), which are skipped.
    static func featureLines(_ f: JSONObject, path: String, origin: String) throws -> [[LngLat]]? {
        guard f["type"]?.stringValue == "Feature" else { throw Failure(description: "\(origin): \(path).type is not \"Feature\"") }
        guard let g = f["geometry"]?.objectValue else { return nil }
        guard let t = g["type"]?.stringValue, t == "LineString" || t == "MultiLineString" else { return nil }
        return try geometryLines(g, path: "\(path).geometry", origin: origin)
    }

    static func geometryLines(_ g: JSONObject, path: String, origin: String) throws -> [[LngLat]] {
        let type = g["type"]?.stringValue ?? ""
        guard let coords = g["coordinates"]?.arrayValue else { throw Failure(description: "\(origin): \(path).coordinates is not an array") }
        if type == "LineString" { return [try line(coords, path: "\(path).coordinates", origin: origin)] }
        return try coords.enumerated().map { i, part in
            guard let p = part.arrayValue else { throw Failure(description: "\(origin): \(path).coordinates[\(i)] is not an array") }
            return try line(p, path: "\(path).coordinates[\(i)]", origin: origin)
        }
    }

    static func line(_ coords: [JSON], path: String, origin: String) throws -> [LngLat] {
        guard coords.count >= 2 else { throw Failure(description: "\(origin): \(path) has \(coords.count) position(s), a line needs 2") }
        return try coords.enumerated().map { i, c in
            guard let pos = c.arrayValue, pos.count >= 2, let lon = pos[0].numberValue, let lat = pos[1].numberValue else {
                throw Failure(description: "\(origin): \(path)[\(i)] is not a [longitude, latitude] position")
            }
            guard lon.isFinite, lat.isFinite, (-180...180).contains(lon), (-90...90).contains(lat) else {
                throw Failure(description: "\(origin): \(path)[\(i)] = [\(lon), \(lat)] is outside longitude -180...180, latitude -90...90")
            }
            return LngLat(lng: lon, lat: lat)
        }
    }

    /// The box around every step.
    public static func bounds(_ steps: Steps) -> LngLatBounds {
        var w = 180.0, s = 90.0, e = -180.0, n = -90.0
        for step in steps { for line in step { for p in line {
            w = min(w, p.lng); e = max(e, p.lng); s = min(s, p.lat); n = max(n, p.lat)
        } } }
        return LngLatBounds(west: w, south: s, east: e, north: n)
    }
}

/// The pulsing route's steps as the Mapbox snippet adds them: for each step a GeoJSON source and
/// a copy of the style's route line layer (transparent until pulsed, with its opacity transition).
public enum RouteLayers {
    public static func layerID(_ step: Int) -> String { "route-step-\(step)" }

    /// Adds every step through the style API: its source, and `template` (the style's route
    /// layer) as layer `route-step-i` on it, below the layer `below` (on top when nil). Returns
    /// the layer ids in step order.
    public static func add(_ steps: RouteFile.Steps, template: LayerDefinition, below: String?, to model: inout MapModel) throws -> [String] {
        var ids: [String] = []
        for (i, step) in steps.enumerated() {
            let id = layerID(i)
            try model.addSource(id, geojson: GeoJSONData.lines(step))
            var layer = template
            layer.id = id
            layer.source = id
            try model.addLayer(layer, below: below)
            ids.append(id)
        }
        return ids
    }
}
