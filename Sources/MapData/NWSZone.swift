import Foundation
import MapCore

/// The shape of one NWS zone (`api.weather.gov/zones/<type>/<id>`: a GeoJSON Feature whose
/// geometry is a Polygon or MultiPolygon; WORLD-DATA.md, section 3), read with the style's GeoJSON
/// reader, for drawing the zone-based alerts (watches, advisories) that have no polygon of their own.
///
/// An answer that is not GeoJSON, an HTML page, a problem answer (`title`, `detail`) or GeoJSON
/// without a polygon is one error naming the URL.
public enum NWSZone {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The zone's polygons as one geometry (projected).
    public static func shape(data: Data, url: String) throws -> FeatureGeometry {
        func fail(_ what: String) -> Failure { Failure(description: "\(url): \(what)") }
        let json: JSON
        do {
            json = try JSON.parse(data, name: url)
        } catch {
            throw fail(MessageText.isHTML(data) ? "an HTML page, not a zone" : "not JSON (\(JSON.parseFailure(error, name: url)))")
        }
        guard let root = json.objectValue else { throw fail("expected a GeoJSON zone") }
        // (A problem answer, application/problem+json: its title and detail; its `type` is a URL.)
        if root["geometry"] == nil, root["features"] == nil, root["coordinates"] == nil, let title = root["title"]?.stringValue {
            throw fail("the service answered '\(MessageText.clipped(title, to: 80))'\(root["detail"]?.stringValue.map { ": " + MessageText.clipped($0, to: 80) } ?? "")")
        }
        let read: GeoJSONData
        do { read = try GeoJSONData(json: json, path: "zone") } catch { throw fail("not GeoJSON (\(error))") }
        let polygons = read.features.map(\.geometry).filter { $0.kind == .polygons }
        guard let shape = merged(polygons) else { throw fail("no polygon (the zone has no geometry)") }
        return thinned(shape)
    }

    /// Points of a ring closer than this to the last one kept are dropped (normalised Mercator:
    /// about 40 m at the equator, a quarter of a pixel at zoom 10), so that a few thousand
    /// detailed coastal zones do not take tens of megabytes.
    public static let tolerance = 1e-6

    /// `g` without the ring points within `tolerance` of the point kept before them (each ring
    /// keeps its first and last point, and is kept whole when fewer than four would be left).
    public static func thinned(_ g: FeatureGeometry, tolerance: Double = NWSZone.tolerance) -> FeatureGeometry {
        let c = g.coordinates, t2 = tolerance * tolerance
        var parts: [[MercatorPoint]] = [], dropped = false
        parts.reserveCapacity(g.partCount)
        for i in 0..<g.partCount {
            let r = g.part(i)
            var ring: [MercatorPoint] = []
            for k in r {
                let p = MercatorPoint(x: c[2 * k], y: c[2 * k + 1])
                if let last = ring.last, k != r.upperBound - 1, (p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y) < t2 { continue }
                ring.append(p)
            }
            if ring.count < 4 || ring.count == r.count {
                parts.append(r.map { MercatorPoint(x: c[2 * $0], y: c[2 * $0 + 1]) })
            } else {
                parts.append(ring); dropped = true
            }
        }
        guard dropped else { return g }
        return FeatureGeometry(kind: .polygons, parts: parts, polygonStarts: Array(g.polygonStarts.dropLast()))
    }

    /// Polygon geometries as one (their polygons one after the other); nil for none.
    public static func merged(_ geometries: [FeatureGeometry]) -> FeatureGeometry? {
        let polygons = geometries.filter { $0.kind == .polygons && !$0.isEmpty }
        if polygons.count == 1 { return polygons[0] }
        var parts: [[MercatorPoint]] = [], starts: [Int] = []
        for g in polygons {
            let offset = parts.count
            starts += g.polygonStarts.dropLast().map { $0 + offset }
            for i in 0..<g.partCount {
                parts.append(g.part(i).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) })
            }
        }
        guard !parts.isEmpty else { return nil }
        return FeatureGeometry(kind: .polygons, parts: parts, polygonStarts: starts)
    }

    /// Whether the point lies inside the geometry's polygons (even-odd over every ring, so holes
    /// are outside).
    public static func contains(_ g: FeatureGeometry, _ p: MercatorPoint) -> Bool {
        guard g.kind == .polygons, p.x >= g.minX, p.x <= g.maxX, p.y >= g.minY, p.y <= g.maxY else { return false }
        var inside = false
        let c = g.coordinates
        for i in 0..<g.partCount {
            let r = g.part(i)
            guard r.count >= 3 else { continue }
            var j = r.upperBound - 1
            for k in r {
                let xi = c[2 * k], yi = c[2 * k + 1], xj = c[2 * j], yj = c[2 * j + 1]
                if (yi > p.y) != (yj > p.y), p.x < (xj - xi) * (p.y - yi) / (yj - yi) + xi { inside.toggle() }
                j = k
            }
        }
        return inside
    }
}
