import Foundation

/// A geographic position in degrees (WGS-84 longitude and latitude).
public struct LngLat: Equatable, Sendable, CustomStringConvertible {
    public var lng: Double
    public var lat: Double
    public init(lng: Double, lat: Double) { self.lng = lng; self.lat = lat }
    public var description: String { String(format: "%.6f,%.6f", lat, lng) }

    /// Longitude wrapped into [-180, 180).
    public var wrapped: LngLat {
        var l = (lng + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return LngLat(lng: l - 180, lat: lat)
    }
}

/// A longitude/latitude box; `west > east` is not used (boxes never cross the antimeridian).
public struct LngLatBounds: Equatable, Sendable {
    public var west: Double, south: Double, east: Double, north: Double
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west; self.south = south; self.east = east; self.north = north
    }
    /// The whole Web Mercator world.
    public static let world = LngLatBounds(west: -180, south: -WebMercator.maxLatitude,
                                           east: 180, north: WebMercator.maxLatitude)
    /// True when the box spans every longitude, so the map wraps horizontally.
    public var spansAllLongitudes: Bool { east - west >= 360 }
}
