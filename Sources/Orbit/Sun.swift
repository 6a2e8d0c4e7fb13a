#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the Sun is, by the Astronomical Almanac's low-precision formulae (good to about 0.01
/// degree from 1950 to 2050): its mean longitude and anomaly, its ecliptic longitude, then its
/// right ascension and declination; the subsolar point from the right ascension and the
/// Greenwich mean sidereal time (IAU-1982, UT1 taken as UTC, as for the orbit).
public struct Sun: Sendable, Equatable {
    /// Degrees.
    public let rightAscension: Double, declination: Double
    /// Distance from the Earth's centre, astronomical units.
    public let distanceAU: Double
    /// The Greenwich mean sidereal time of the instant, degrees.
    public let siderealDegrees: Double

    public static let kilometresPerAU = 149_597_870.7

    public init(at date: JulianDate) {
        let n = (date.day - JulianDate.j2000) + date.fraction
        let rad = Double.pi / 180
        let L = 280.460 + 0.9856474 * n
        let g = (357.528 + 0.9856003 * n) * rad
        let lambda = (L + 1.915 * sin(g) + 0.020 * sin(2 * g)) * rad
        let epsilon = (23.439 - 0.0000004 * n) * rad
        var ra = atan2(cos(epsilon) * sin(lambda), cos(lambda)) / rad
        if ra < 0 { ra += 360 }
        rightAscension = ra
        declination = asin(sin(epsilon) * sin(lambda)) / rad
        distanceAU = 1.00014 - 0.01671 * cos(g) - 0.00014 * cos(2 * g)
        siderealDegrees = SiderealTime.gmst(julianDateUT1: date) / rad
    }

    public init(unixSeconds: Double) { self.init(at: JulianDate(unixSeconds: unixSeconds)) }

    /// The point on the ground with the Sun at its zenith: latitude the declination, longitude
    /// the right ascension less the sidereal time, in [-180, 180).
    public var subsolarPoint: (latitude: Double, longitude: Double) {
        (declination, Self.wrapped(rightAscension - siderealDegrees))
    }

    /// The Sun's geometric elevation (degrees, no refraction) seen from a place: the angle above
    /// the plane normal to its geodetic vertical.
    public func elevation(latitude: Double, longitude: Double) -> Double {
        let rad = Double.pi / 180
        let hourAngle = (siderealDegrees + longitude - rightAscension) * rad
        let phi = latitude * rad, delta = declination * rad
        let s = sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(hourAngle)
        return asin(min(1, max(-1, s))) / rad
    }

    /// The Sun's position in Earth-fixed axes (the frame of `Geodetic.ecef`), kilometres.
    public var ecef: Vector3 {
        let rad = Double.pi / 180
        let lon = (rightAscension - siderealDegrees) * rad, lat = declination * rad
        let r = distanceAU * Self.kilometresPerAU
        return Vector3(x: r * cos(lat) * cos(lon), y: r * cos(lat) * sin(lon), z: r * sin(lat))
    }

    /// Whether a point in Earth-fixed axes (kilometres) is in sunlight: outside the Earth's
    /// cylindrical shadow (a sphere of the equatorial radius; the penumbra and the flattening
    /// move the edge by seconds on a low orbit).
    public func illuminates(_ p: Vector3) -> Bool {
        let s = ecef
        let sl = (s.x * s.x + s.y * s.y + s.z * s.z).squareRoot()
        let along = (p.x * s.x + p.y * s.y + p.z * s.z) / sl
        if along >= 0 { return true }
        let p2 = p.x * p.x + p.y * p.y + p.z * p.z
        return p2 - along * along > WGS84.a * WGS84.a
    }

    static func wrapped(_ degrees: Double) -> Double {
        let d = (degrees + 180).truncatingRemainder(dividingBy: 360)
        return (d < 0 ? d + 360 : d) - 180
    }
}
