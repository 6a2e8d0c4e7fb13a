import Foundation

/// A GeoJSON source's options (style specification `sources.*` of type geojson): how its data
/// is tiled per zoom (`maxzoom`, `tolerance`, `buffer`, `lineMetrics`) and whether its points
/// are clustered (`cluster`, `clusterRadius`, `clusterMaxZoom`, `clusterMinPoints`,
/// `clusterProperties`).
public struct GeoJSONSourceOptions: Sendable {
    /// The deepest zoom tiles are made for (deeper views overzoom them); no simplification there.
    public var maxZoom = 18
    /// Douglas-Peucker tolerance in pixels of a 512-pixel tile.
    public var tolerance = 0.375
    /// Tile buffer in pixels of a 512-pixel tile.
    public var buffer = 128.0
    public var lineMetrics = false
    public var cluster = false
    /// Cluster radius in pixels of a 512-pixel tile.
    public var clusterRadius = 50.0
    /// The deepest zoom points are clustered at (nil: `maxZoom` - 1).
    public var clusterMaxZoom: Int?
    public var clusterMinPoints = 2
    /// Aggregates kept on clusters, in the order written.
    public var clusterProperties: [ClusterProperty] = []
    /// Only the features passing it are tiled or clustered (the source's `filter`).
    public var filter: Filter?

    /// One `clusterProperties` member: `map` evaluated on each point, `reduce` folding two
    /// values (the accumulated one is read as `["accumulated"]`, the other as `["get", name]`).
    public struct ClusterProperty: Sendable {
        public let name: String
        public let map: StyleExpression
        public let reduce: StyleExpression
    }

    public init() {}

    /// Tile coordinates per tile side (MapLibre's EXTENT).
    public static let extent = 8192.0
    /// The zoom clusters are made down to and including.
    public var effectiveClusterMaxZoom: Int { min(max(clusterMaxZoom ?? maxZoom - 1, 0), 24) }
    public var isDefault: Bool {
        maxZoom == 18 && tolerance == 0.375 && buffer == 128 && !lineMetrics && !cluster && filter == nil
    }

    /// The property name `["accumulated"]` reads in a reduce expression (not a name a file can
    /// produce from JSON text).
    static let accumulatedKey = "\u{0}accumulated"

    /// The options of source object `o` at `path`; problems (wrong types, values out of range)
    /// are appended to `problems` and leave that option at its default.
    public static func read(_ o: JSONObject, path: String, problems: inout [String]) -> GeoJSONSourceOptions {
        var options = GeoJSONSourceOptions()
        func number(_ key: String, _ range: ClosedRange<Double>) -> Double? {
            guard let v = o[key] else { return nil }
            guard case let .number(n) = v, range.contains(n) else {
                problems.append("\(path).\(key): expected a number within \(range.lowerBound)...\(range.upperBound), found \(v.compactText)")
                return nil
            }
            return n
        }
        func bool(_ key: String) -> Bool? {
            guard let v = o[key] else { return nil }
            guard case let .bool(b) = v else { problems.append("\(path).\(key): expected boolean, found \(v.compactText)"); return nil }
            return b
        }
        if let n = number("maxzoom", 0...24) { options.maxZoom = Int(n.rounded(.down)) }
        if let n = number("tolerance", 0...1e6) { options.tolerance = n }
        if let n = number("buffer", 0...512) { options.buffer = n }
        if let b = bool("lineMetrics") { options.lineMetrics = b }
        if let b = bool("cluster") { options.cluster = b }
        if let n = number("clusterRadius", 0...1e6) { options.clusterRadius = n }
        if let n = number("clusterMaxZoom", 0...24) { options.clusterMaxZoom = Int(n.rounded(.down)) }
        if let n = number("clusterMinPoints", 0...1e9) { options.clusterMinPoints = Int(n.rounded(.down)) }
        if let f = o["filter"] {
            do { options.filter = try Filter(json: f, path: "\(path).filter") } catch { problems.append("\(error)") }
        }
        if let p = o["clusterProperties"] {
            if case let .object(members) = p {
                for (name, value) in members.entries {
                    do { options.clusterProperties.append(try clusterProperty(name, value, path: "\(path).clusterProperties.\(name)")) } catch {
                        problems.append("\(error)")
                    }
                }
            } else {
                problems.append("\(path).clusterProperties: expected object, found \(p.typeName)")
            }
        }
        return options
    }

    /// The options of a source's JSON (the style API's `addSource`); its problems are an error.
    public init(json: JSON, path: String) throws {
        guard case let .object(o) = json else { self.init(); return }
        var problems: [String] = []
        self = Self.read(o, path: path, problems: &problems)
        if !problems.isEmpty { throw StyleDocumentError(problems) }
    }

    /// `[operator, map]` (reduce: `[operator, ["accumulated"], ["get", name]]`) or
    /// `[reduce, map]` with a reduce expression of its own.
    static func clusterProperty(_ name: String, _ value: JSON, path: String) throws -> ClusterProperty {
        guard case let .array(a) = value, a.count == 2 else {
            throw StyleError("\(path): expected [operator or reduce expression, map expression], found \(value.compactText)")
        }
        let map = try StyleExpression.parse(a[1], path: "\(path)[1]", expected: nil)
        let reduceJSON: JSON
        if case let .string(op) = a[0] {
            reduceJSON = .array([.string(op), .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
        } else {
            reduceJSON = a[0]
        }
        let reduce = try StyleExpression.parse(accumulatedRead(reduceJSON), path: "\(path)[0]", expected: nil)
        return ClusterProperty(name: name, map: map, reduce: reduce)
    }

    /// `json` with each `["accumulated"]` read as a property the reduction supplies.
    static func accumulatedRead(_ json: JSON) -> JSON {
        guard case let .array(a) = json else { return json }
        if a.count == 1, a[0] == .string("accumulated") { return .array([.string("get"), .string(accumulatedKey)]) }
        if let first = a.first, first == .string("literal") { return json }
        return .array(a.map(accumulatedRead))
    }
}
