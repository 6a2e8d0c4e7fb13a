import Foundation

/// A circle on the sphere: the points at an angular distance `radius` (degrees) from `center`.
/// A satellite's footprint is one, and so is the night side (and each twilight band's edge)
/// around the point opposite the Sun. As map geometry it is cut at the antimeridian and, when it
/// holds a pole, closed along the map's top or bottom edge, so that fills and outlines come out
/// right in every world copy.
public struct SmallCircle: Equatable, Sendable {
    public var center: LngLat
    public var radius: Double

    public init(center: LngLat, radius: Double) { self.center = center; self.radius = radius }

    /// The latitude where Web Mercator maps end.
    public static let mapEdge = WebMercator.maxLatitude

    /// The circle as `count` points (and the first again), longitudes unwrapped (continuous,
    /// possibly past +/-180).
    public func ring(count: Int = 180) -> [LngLat] {
        let rad = Double.pi / 180
        let phi0 = center.lat * rad, rho = radius * rad
        var out: [LngLat] = []
        out.reserveCapacity(count + 1)
        var lastLng = center.lng
        for k in 0...count {
            let theta = Double(k % count) / Double(count) * 2 * Double.pi
            let sinLat = sin(phi0) * cos(rho) + cos(phi0) * sin(rho) * cos(theta)
            let lat = asin(min(1, max(-1, sinLat)))
            var lng = center.lng + atan2(sin(theta) * sin(rho) * cos(phi0), cos(rho) - sin(phi0) * sinLat) / rad
            // Unwrapped: each point within 180 degrees of the one before.
            while lng - lastLng > 180 { lng -= 360 }
            while lng - lastLng < -180 { lng += 360 }
            lastLng = lng
            out.append(LngLat(lng: lng, lat: lat / rad))
        }
        return out
    }

    /// Which poles are inside (a pole on the circle counts as outside).
    public var holdsNorthPole: Bool { 90 - center.lat < radius }
    public var holdsSouthPole: Bool { 90 + center.lat < radius }

    /// The disc as polygons (each its outer ring, then any holes) within longitudes -180...180
    /// and the map's latitudes, rings closed; outer rings run clockwise on the map (north up),
    /// holes the other way.
    public func polygons(count: Int = 180) -> [[[LngLat]]] {
        guard radius > 0 else { return [] }
        if radius >= 180 { return [[Self.world]] }
        if holdsNorthPole && holdsSouthPole {
            // The world less the circle around the opposite point (which holds neither pole).
            let opposite = SmallCircle(center: LngLat(lng: center.lng + 180, lat: -center.lat), radius: 180 - radius)
            let holes = opposite.polygons(count: count).compactMap { $0.first.map { Array($0.reversed()) } }
            return [[Array(Self.world.reversed())] + holes]
        }
        var ring = ring(count: count)
        if holdsNorthPole || holdsSouthPole {
            // The ring winds once around the pole: its ends are 360 degrees apart; close it
            // along the map's edge on the pole's side.
            ring.removeLast()
            guard let first = ring.first, let last = ring.last else { return [] }
            let edge = holdsNorthPole ? 90.0 : -90.0
            let end = first.lng + (last.lng > first.lng ? 360 : -360)
            ring.append(LngLat(lng: end, lat: ring[0].lat))
            ring.append(LngLat(lng: end, lat: edge))
            ring.append(LngLat(lng: first.lng, lat: edge))
            ring.append(first)
        }
        let clamped = ring.map { LngLat(lng: $0.lng, lat: min(Self.mapEdge, max(-Self.mapEdge, $0.lat))) }
        let lo = clamped.map(\.lng).min() ?? 0, hi = clamped.map(\.lng).max() ?? 0
        var out: [[[LngLat]]] = []
        // Each world's share: shifted by whole turns, cut to -180...180.
        var shift = -360 * ((hi + 180) / 360).rounded(.down)
        while lo + shift < 180 {
            let part = Self.clip(clamped.map { LngLat(lng: $0.lng + shift, lat: $0.lat) })
            if part.count >= 4 { out.append([Self.signedArea(part) > 0 ? part.reversed() : part]) }
            shift += 360
        }
        return out
    }

    /// The circle as lines, cut where it crosses the antimeridian (each piece ends and starts on
    /// +/-180), latitudes clamped to the map's.
    public func outline(count: Int = 180) -> [[LngLat]] {
        guard radius > 0, radius < 180 else { return [] }
        return LngLat.cutAtAntimeridian(ring(count: count).map {
            LngLat(lng: $0.wrapped.lng, lat: min(Self.mapEdge, max(-Self.mapEdge, $0.lat)))
        })
    }

    /// Twice the area a closed ring encloses in the longitude/latitude plane, north up:
    /// positive when it runs anticlockwise.
    public static func signedArea(_ ring: [LngLat]) -> Double {
        var a = 0.0
        for i in 0..<max(0, ring.count - 1) { a += ring[i].lng * ring[i + 1].lat - ring[i + 1].lng * ring[i].lat }
        return a
    }

    static let world = [LngLat(lng: -180, lat: -mapEdge), LngLat(lng: 180, lat: -mapEdge), LngLat(lng: 180, lat: mapEdge),
                        LngLat(lng: -180, lat: mapEdge), LngLat(lng: -180, lat: -mapEdge)]

    /// A closed ring cut to longitudes -180...180 (Sutherland-Hodgman against each side), closed.
    static func clip(_ ring: [LngLat]) -> [LngLat] {
        func cut(_ pts: [LngLat], keep: (Double) -> Bool, at x: Double) -> [LngLat] {
            guard let lastPoint = pts.last else { return [] }
            var out: [LngLat] = []
            var a = lastPoint
            for b in pts {
                let ina = keep(a.lng), inb = keep(b.lng)
                if ina != inb {
                    let k = (x - a.lng) / (b.lng - a.lng)
                    out.append(LngLat(lng: x, lat: a.lat + (b.lat - a.lat) * k))
                }
                if inb { out.append(b) }
                a = b
            }
            return out
        }
        var pts = Array(ring.dropLast())
        pts = cut(pts, keep: { $0 <= 180 }, at: 180)
        pts = cut(pts, keep: { $0 >= -180 }, at: -180)
        guard let first = pts.first else { return [] }
        return pts + [first]
    }
}
