import Foundation

/// A feature's geometry in normalised Web Mercator (x, y in 0...1, y down), flattened: parts of
/// points, each part one point (points), one polyline (lines) or one ring (polygons; a polygon is
/// its exterior ring followed by its holes, as `polygonStarts` marks).
public final class FeatureGeometry: Sendable {
    public enum Kind: Sendable, Equatable { case points, lines, polygons }
    public let kind: Kind
    /// x, y pairs.
    public let coordinates: [Double]
    /// The first point of each part (an index into `coordinates` pairs), plus the total at the end.
    public let partStarts: [Int]
    /// For polygons: the index of the first part (ring) of each polygon, plus the part count at the end.
    public let polygonStarts: [Int]
    public let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// For polygons cut out of tiles: the rings' edges as lines, without the edges that run
    /// along the tiles' sides (a line layer or an outline strokes these, not the cuts). Nil: the
    /// rings themselves.
    public let outline: FeatureGeometry?
    /// For lines of a GeoJSON source with `lineMetrics`: each point's distance along its whole
    /// line over the line's length (0...1), which `line-progress` reads; nil: not measured.
    public let lineProgress: [Double]?

    public init(kind: Kind, parts: [[MercatorPoint]], polygonStarts: [Int] = [], outline: FeatureGeometry? = nil,
                lineProgress: [Double]? = nil) {
        self.kind = kind
        self.outline = outline
        self.lineProgress = lineProgress
        var c: [Double] = [], starts: [Int] = []
        c.reserveCapacity(parts.reduce(0) { $0 + $1.count } * 2)
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for part in parts {
            starts.append(c.count / 2)
            for p in part {
                c.append(p.x); c.append(p.y)
                x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
            }
        }
        starts.append(c.count / 2)
        coordinates = c; partStarts = starts
        self.polygonStarts = kind == .polygons ? polygonStarts + [parts.count] : []
        minX = x0; minY = y0; maxX = x1; maxY = y1
    }

    /// One point (a Point feature): made without the parts' arrays, as a data set of tens of
    /// thousands of places is read at every start.
    public init(point p: MercatorPoint) {
        kind = .points
        outline = nil
        lineProgress = nil
        coordinates = [p.x, p.y]
        partStarts = Self.onePart
        polygonStarts = []
        minX = p.x; minY = p.y; maxX = p.x; maxY = p.y
    }
    private static let onePart = [0, 1]

    /// A copy of `g` in storage of its own, made now: a frame's features copied one after the
    /// other lie together in memory, where drawing them walks memory in order (features read
    /// from a large file sit among their properties and the document's other allocations, and
    /// drawing tens of thousands of them waits on memory more than it draws).
    public init(compacting g: FeatureGeometry) {
        kind = g.kind
        coordinates = g.coordinates.withUnsafeBufferPointer { Array($0) }
        partStarts = g.partStarts.count == 2 && g.partStarts[0] == 0 && g.partStarts[1] == 1 ? Self.onePart
            : g.partStarts.withUnsafeBufferPointer { Array($0) }
        polygonStarts = g.polygonStarts.isEmpty ? [] : g.polygonStarts.withUnsafeBufferPointer { Array($0) }
        minX = g.minX; minY = g.minY; maxX = g.maxX; maxY = g.maxY
        outline = g.outline.map(FeatureGeometry.init(compacting:))
        lineProgress = g.lineProgress
    }

    public var partCount: Int { partStarts.count - 1 }
    /// The point range of part `i`.
    public func part(_ i: Int) -> Range<Int> { partStarts[i]..<partStarts[i + 1] }
    public var isEmpty: Bool { coordinates.isEmpty }
}

/// One GeoJSON feature: its geometry (projected) and what expressions can read of it.
public struct GeoFeature: Sendable {
    public let geometry: FeatureGeometry
    public let evaluation: EvaluationFeature
    public init(geometry: FeatureGeometry, evaluation: EvaluationFeature) {
        self.geometry = geometry
        var e = evaluation
        e.geometry = geometry
        self.evaluation = e
    }
}

/// The features of a GeoJSON document (RFC 7946: a FeatureCollection, a Feature or a bare geometry).
public final class GeoJSONData: Sendable {
    public let features: [GeoFeature]
    /// Where the features are (nil for a source too small to need it).
    public let index: FeatureIndex?
    /// The source's tiles per zoom (what frames draw of it) and its options.
    public let tiles: GeoJSONTiles
    public var options: GeoJSONSourceOptions { tiles.options }
    public init(features: [GeoFeature], options: GeoJSONSourceOptions = GeoJSONSourceOptions()) {
        let features = options.filter.map { f in features.filter { f.matches($0.evaluation, zoom: 0) } } ?? features
        self.features = features
        let index = FeatureIndex(features)
        self.index = index
        tiles = GeoJSONTiles(features: features, index: index, options: options)
    }

    /// The same features with `options` (the document's, for a source loaded from a URL).
    public func with(_ options: GeoJSONSourceOptions) -> GeoJSONData {
        if options.isDefault && self.options.isDefault { return self }
        // (`lineMetrics` measures the lines however the data came: inline, a file, the web.)
        let measured = options.lineMetrics ? withLineMetrics(.bool(true)) : self
        return GeoJSONData(features: measured.features, options: options)
    }

    /// One Point feature with `properties` (what an app hands `updateGeoJSONSource` for a
    /// moving object).
    public static func point(_ p: LngLat, properties: [String: StyleValue] = [:]) -> GeoJSONData {
        GeoJSONData(features: [GeoFeature(geometry: FeatureGeometry(kind: .points, parts: [[WebMercator.project(p)]]),
                                          evaluation: EvaluationFeature(properties: properties, geometryType: "Point"))])
    }

    /// One MultiLineString feature of `lines` (polylines of fewer than two positions left out);
    /// no feature when none is left.
    public static func lines(_ lines: [[LngLat]], properties: [String: StyleValue] = [:]) -> GeoJSONData {
        let parts = lines.filter { $0.count >= 2 }.map { $0.map(WebMercator.project) }
        guard !parts.isEmpty else { return GeoJSONData(features: []) }
        return GeoJSONData(features: [GeoFeature(geometry: FeatureGeometry(kind: .lines, parts: parts),
                                                 evaluation: EvaluationFeature(properties: properties, geometryType: "MultiLineString"))])
    }

    /// One MultiPolygon feature of `polygons` (each its exterior ring, then its holes; rings
    /// closed), with `properties`; no feature when there are none.
    public static func polygons(_ polygons: [[[LngLat]]], properties: [String: StyleValue] = [:]) -> GeoJSONData {
        GeoJSONData(features: polygonFeature(polygons, properties: properties).map { [$0] } ?? [])
    }

    /// The feature `polygons` makes (nil for none), for sources of several.
    public static func polygonFeature(_ polygons: [[[LngLat]]], properties: [String: StyleValue] = [:]) -> GeoFeature? {
        var parts: [[MercatorPoint]] = [], starts: [Int] = []
        for polygon in polygons where !polygon.isEmpty {
            starts.append(parts.count)
            for ring in polygon { parts.append(ring.map(WebMercator.project)) }
        }
        guard !parts.isEmpty else { return nil }
        return GeoFeature(geometry: FeatureGeometry(kind: .polygons, parts: parts, polygonStarts: starts),
                          evaluation: EvaluationFeature(properties: properties, geometryType: "MultiPolygon"))
    }

    /// Reads GeoJSON from parsed JSON; `path` names the place in messages (`sources.points.data`).
    public convenience init(json: JSON, path: String) throws {
        var out: [GeoFeature] = []
        try GeoJSONReader.read(json, path: path, properties: [:], id: nil, depth: 0, into: &out)
        self.init(features: out)
    }
}

enum GeoJSONReader {
    /// Collections nest at most this deep (parsed text cannot nest deeper anyway; a JSON value
    /// built in code could, and reading is recursive).
    static let maximumDepth = JSON.maximumDepth

    static func read(_ json: JSON, path: String, properties: [String: StyleValue], id: StyleValue?, depth: Int,
                     into out: inout [GeoFeature]) throws {
        guard depth <= maximumDepth else { throw StyleError("\(path): GeoJSON nested deeper than \(maximumDepth) levels") }
        guard case let .object(o) = json else { throw StyleError("\(path): expected a GeoJSON object, found \(json.typeName)") }
        guard case let .string(type)? = o["type"] else { throw StyleError("\(path).type: missing GeoJSON type") }
        switch type {
        case "FeatureCollection":
            guard case let .array(fs)? = o["features"] else { throw StyleError("\(path).features: expected array") }
            for (i, f) in fs.enumerated() { try read(f, path: "\(path).features[\(i)]", properties: [:], id: nil, depth: depth + 1, into: &out) }
        case "Feature":
            var props: [String: StyleValue] = [:]
            if case let .object(p)? = o["properties"] {
                for (k, v) in p.entries { props[k] = StyleValue(json: v) }
            }
            var fid: StyleValue? = nil
            if let i = o["id"], i != .null { fid = StyleValue(json: i) }
            guard let g = o["geometry"], g != .null else { return }     // a feature without geometry draws nothing
            try read(g, path: "\(path).geometry", properties: props, id: fid, depth: depth + 1, into: &out)
        case "GeometryCollection":
            guard case let .array(gs)? = o["geometries"] else { throw StyleError("\(path).geometries: expected array") }
            for (i, g) in gs.enumerated() {
                try read(g, path: "\(path).geometries[\(i)]", properties: properties, id: id, depth: depth + 1, into: &out)
            }
        case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon":
            guard let coords = o["coordinates"] else { throw StyleError("\(path).coordinates: missing") }
            let cpath = "\(path).coordinates"
            let geometry: FeatureGeometry
            let name: String
            switch type {
            case "Point":
                geometry = FeatureGeometry(kind: .points, parts: [[try position(coords, cpath)]]); name = "Point"
            case "MultiPoint":
                geometry = FeatureGeometry(kind: .points, parts: try list(coords, cpath).enumerated().map { [try position($1, "\(cpath)[\($0)]")] })
                name = "Point"
            case "LineString":
                geometry = FeatureGeometry(kind: .lines, parts: [try line(coords, cpath)]); name = "LineString"
            case "MultiLineString":
                geometry = FeatureGeometry(kind: .lines, parts: try list(coords, cpath).enumerated().map { try line($1, "\(cpath)[\($0)]") })
                name = "LineString"
            case "Polygon":
                let rings = try list(coords, cpath).enumerated().map { try line($1, "\(cpath)[\($0)]") }
                geometry = FeatureGeometry(kind: .polygons, parts: oriented(rings), polygonStarts: [0]); name = "Polygon"
            default:
                var rings: [[MercatorPoint]] = [], starts: [Int] = []
                for (i, poly) in try list(coords, cpath).enumerated() {
                    starts.append(rings.count)
                    rings += oriented(try list(poly, "\(cpath)[\(i)]").enumerated().map { try line($1, "\(cpath)[\(i)][\($0)]") })
                }
                geometry = FeatureGeometry(kind: .polygons, parts: rings, polygonStarts: starts); name = "Polygon"
            }
            out.append(GeoFeature(geometry: geometry,
                                  evaluation: EvaluationFeature(properties: properties, id: id, geometryType: name)))
        default:
            throw StyleError("\(path).type: unknown GeoJSON type \"\(type)\"")
        }
    }

    /// A polygon's rings wound as the reference engines' tiler winds them: the exterior clockwise
    /// on screen (y down), holes the other way; a reversed ring keeps its first vertex. Fills
    /// then see holes as holes whatever the file's winding, and lines along rings start and
    /// run the same way as theirs.
    static func oriented(_ rings: [[MercatorPoint]]) -> [[MercatorPoint]] {
        rings.enumerated().map { index, ring in
            guard ring.count >= 3 else { return ring }
            var area = 0.0
            var j = ring.count - 1
            for i in 0..<ring.count {
                area += (ring[i].x - ring[j].x) * (ring[i].y + ring[j].y)
                j = i
            }
            return (area > 0) == (index == 0) ? Array(ring.reversed()) : ring
        }
    }

    static func list(_ json: JSON, _ path: String) throws -> [JSON] {
        guard case let .array(a) = json else { throw StyleError("\(path): expected array, found \(json.typeName)") }
        return a
    }

    static func line(_ json: JSON, _ path: String) throws -> [MercatorPoint] {
        try list(json, path).enumerated().map { try position($1, "\(path)[\($0)]") }
    }

    /// (The path is made only for an error: a large file has millions of positions.)
    static func position(_ json: JSON, _ path: @autoclosure () -> String) throws -> MercatorPoint {
        guard case let .array(a) = json, a.count >= 2, case let .number(lng) = a[0], case let .number(lat) = a[1],
              lng.isFinite, lat.isFinite else {
            throw StyleError("\(path()): expected a [longitude, latitude] position, found \(json.compactText)")
        }
        let clamped = min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        return MercatorPoint(x: WebMercator.x(lng: lng), y: WebMercator.y(lat: clamped))
    }
}
