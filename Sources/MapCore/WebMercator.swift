import Foundation

/// The spherical Web Mercator projection with 512-pixel tiles, in normalised units:
/// x and y in [0, 1] across the world, y growing southwards. At zoom z the world is
/// `512 * 2^z` pixels wide.
public enum WebMercator {
    public static let tileSize = 512.0
    /// The latitude where the projected world is square.
    public static let maxLatitude = 85.051128779806604

    /// Size of the world in pixels at `zoom`.
    @inlinable public static func worldSize(zoom: Double) -> Double { tileSize * exp2(zoom) }

    @inlinable public static func x(lng: Double) -> Double { (lng + 180) / 360 }
    @inlinable public static func y(lat: Double) -> Double {
        let l = min(max(lat, -maxLatitude), maxLatitude)
        return 0.5 - log(tan(Double.pi / 4 + l * Double.pi / 360)) / (2 * Double.pi)
    }
    @inlinable public static func lng(x: Double) -> Double { x * 360 - 180 }
    @inlinable public static func lat(y: Double) -> Double {
        360 / Double.pi * atan(exp((0.5 - y) * 2 * Double.pi)) - 90
    }

    /// Projects a position (latitude clamped to the projection's range).
    public static func project(_ p: LngLat) -> MercatorPoint { MercatorPoint(x: x(lng: p.lng), y: y(lat: p.lat)) }
    /// Inverse of `project`.
    public static func unproject(_ m: MercatorPoint) -> LngLat { LngLat(lng: lng(x: m.x), lat: lat(y: m.y)) }
}

/// A point in normalised Web Mercator space.
public struct MercatorPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}
