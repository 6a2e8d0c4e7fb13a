#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A place on the WGS-84 ellipsoid from which a satellite is watched.
public struct Observer: Sendable, Hashable {
    public let place: Geodetic
    /// The place in Earth-fixed axes, km.
    public let ecef: Vector3
    /// East, north and up (the geodetic vertical) at the place, as unit vectors.
    private let east: Vector3, north: Vector3, up: Vector3

    public init(latitude: Double, longitude: Double, heightKm: Double = 0) {
        place = Geodetic(latitude: latitude, longitude: longitude, heightKm: heightKm)
        ecef = place.ecef
        let phi = latitude * Double.pi / 180, lambda = longitude * Double.pi / 180
        east = Vector3(x: -sin(lambda), y: cos(lambda), z: 0)
        north = Vector3(x: -sin(phi) * cos(lambda), y: -sin(phi) * sin(lambda), z: cos(phi))
        up = Vector3(x: cos(phi) * cos(lambda), y: cos(phi) * sin(lambda), z: sin(phi))
    }

    /// Where a point (Earth-fixed, km) is seen from here: azimuth (degrees clockwise from north,
    /// [0, 360)), geometric elevation above the plane normal to the vertical (degrees, no
    /// refraction) and range (km).
    public func look(at p: Vector3) -> (azimuth: Double, elevation: Double, rangeKm: Double) {
        let d = p - ecef
        let range = d.length
        let e = d.dot(east), n = d.dot(north), u = d.dot(up)
        var azimuth = atan2(e, n) * 180 / Double.pi
        if azimuth < 0 { azimuth += 360 }
        return (azimuth, asin(max(-1, min(1, u / range))) * 180 / Double.pi, range)
    }
}
