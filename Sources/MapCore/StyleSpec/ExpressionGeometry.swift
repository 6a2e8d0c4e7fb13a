import Foundation

/// A position in the plane `within` and `distance` work in (longitude and latitude, or tile
/// coordinates).
struct PlanePoint: Equatable, Sendable {
    var x: Double
    var y: Double
    init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// The GeoJSON argument of `within` and `distance`, split into simple geometries (a Multi*
/// becomes one geometry per member), positions in longitude and latitude.
enum SimpleGeometry: Sendable {
    case point(PlanePoint)
    case line([PlanePoint])
    /// Rings, the first the exterior.
    case polygon([[PlanePoint]])

    /// The simple geometries of a GeoJSON object (a geometry, a Feature or a
    /// FeatureCollection), as MapLibre's `distance` reads it; nil when it is none of those.
    static func read(_ json: JSON) -> [SimpleGeometry]? {
        guard case .object(let o) = json, case .string(let type)? = o["type"] else { return nil }
        switch type {
        case "FeatureCollection":
            guard case .array(let features)? = o["features"] else { return nil }
            var out: [SimpleGeometry] = []
            for feature in features {
                guard case .object(let f) = feature, let g = f["geometry"], let parts = geometry(g) else { return nil }
                out += parts
            }
            return out
        case "Feature":
            return o["geometry"].flatMap(geometry)
        default:
            return geometry(json)
        }
    }

    /// One GeoJSON geometry object (not a GeometryCollection).
    static func geometry(_ json: JSON) -> [SimpleGeometry]? {
        guard case .object(let o) = json, case .string(let type)? = o["type"], let c = o["coordinates"] else { return nil }
        switch type {
        case "Point": return position(c).map { [.point($0)] }
        case "MultiPoint": return positions(c).map { $0.map { .point($0) } }
        case "LineString": return positions(c).map { [.line($0)] }
        case "MultiLineString": return list(c, positions).map { $0.map { .line($0) } }
        case "Polygon": return list(c, positions).map { [.polygon($0)] }
        case "MultiPolygon": return list(c, { list($0, positions) }).map { $0.map { .polygon($0) } }
        default: return nil
        }
    }

    static func position(_ json: JSON) -> PlanePoint? {
        guard case .array(let a) = json, a.count >= 2, case .number(let x) = a[0], case .number(let y) = a[1] else { return nil }
        return PlanePoint(x, y)
    }

    static func positions(_ json: JSON) -> [PlanePoint]? { list(json, position) }

    static func list<T>(_ json: JSON, _ item: (JSON) -> T?) -> [T]? {
        guard case .array(let a) = json else { return nil }
        var out: [T] = []
        out.reserveCapacity(a.count)
        for element in a {
            guard let v = item(element) else { return nil }
            out.append(v)
        }
        return out
    }
}

/// Plane geometry as MapLibre's `geometry_util` computes it (exact comparisons, so the same
/// positions give the same answers on the boundary).
enum PlaneGeometry {
    /// Whether the ray from `p` towards +x crosses the edge p1-p2.
    @inline(__always) static func rayIntersect(_ p: PlanePoint, _ p1: PlanePoint, _ p2: PlanePoint) -> Bool {
        ((p1.y > p.y) != (p2.y > p.y)) && (p.x < (p2.x - p1.x) * (p.y - p1.y) / (p2.y - p1.y) + p1.x)
    }

    @inline(__always) static func onBoundary(_ p: PlanePoint, _ p1: PlanePoint, _ p2: PlanePoint) -> Bool {
        let x1 = p.x - p1.x, y1 = p.y - p1.y, x2 = p.x - p2.x, y2 = p.y - p2.y
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    /// Even-odd inside test over all rings (holes count); a point on an edge is
    /// `trueIfOnBoundary`. Edges are the rings' consecutive positions (rings are closed).
    static func pointWithinPolygon(_ p: PlanePoint, _ rings: [[PlanePoint]], trueIfOnBoundary: Bool = false) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 2 {
            for j in 0..<(ring.count - 1) {
                if onBoundary(p, ring[j], ring[j + 1]) { return trueIfOnBoundary }
                if rayIntersect(p, ring[j], ring[j + 1]) { inside.toggle() }
            }
        }
        return inside
    }

    @inline(__always) static func perp(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double { ax * by - ay * bx }

    /// Whether p1 and p2 lie strictly on different sides of the line through q1, q2.
    static func twoSided(_ p1: PlanePoint, _ p2: PlanePoint, _ q1: PlanePoint, _ q2: PlanePoint) -> Bool {
        let x3 = q2.x - q1.x, y3 = q2.y - q1.y
        let det1 = (p1.x - q1.x) * y3 - x3 * (p1.y - q1.y)
        let det2 = (p2.x - q1.x) * y3 - x3 * (p2.y - q1.y)
        return (det1 > 0 && det2 < 0) || (det1 < 0 && det2 > 0)
    }

    /// A proper crossing of segments a-b and c-d (parallel segments never cross).
    static func segmentsCross(_ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint, _ d: PlanePoint) -> Bool {
        if perp(d.x - c.x, d.y - c.y, b.x - a.x, b.y - a.y) == 0 { return false }
        return twoSided(a, b, c, d) && twoSided(c, d, a, b)
    }

    static func lineCrossesPolygon(_ a: PlanePoint, _ b: PlanePoint, _ rings: [[PlanePoint]]) -> Bool {
        for ring in rings where ring.count >= 2 {
            for j in 0..<(ring.count - 1) where segmentsCross(a, b, ring[j], ring[j + 1]) { return true }
        }
        return false
    }

    /// Every vertex strictly inside and no segment crossing an edge.
    static func lineWithinPolygon(_ line: [PlanePoint], _ rings: [[PlanePoint]]) -> Bool {
        for p in line where !pointWithinPolygon(p, rings) { return false }
        if line.count >= 2 {
            for i in 0..<(line.count - 1) where lineCrossesPolygon(line[i], line[i + 1], rings) { return false }
        }
        return true
    }
}

/// A box: min x, min y, max x, max y.
struct PlaneBox {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    mutating func add(_ p: PlanePoint) {
        minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }
    /// Strictly inside `other` (MapLibre's `boxWithinBox`).
    func isWithin(_ other: PlaneBox) -> Bool {
        minX > other.minX && maxX < other.maxX && minY > other.minY && maxY < other.maxY
    }
}
