#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WGS-84 ellipsoid.
public enum WGS84 {
    /// Semi-major axis, km.
    public static let a = 6378.137
    /// Flattening.
    public static let f = 1.0 / 298.257223563
    /// First eccentricity squared, f(2 - f).
    public static let e2 = f * (2.0 - f)
    /// Semi-minor axis, km.
    public static let b = a * (1.0 - f)
}

/// A geodetic position on WGS-84: latitude and longitude in degrees, height above the ellipsoid
/// in km.
public struct Geodetic: Sendable, Hashable, CustomStringConvertible {
    /// Geodetic latitude, degrees, [-90, 90].
    public var latitude: Double
    /// Longitude, degrees east, [-180, 180).
    public var longitude: Double
    /// Height above the ellipsoid, km.
    public var heightKm: Double

    public init(latitude: Double, longitude: Double, heightKm: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.heightKm = heightKm
    }

    /// From an Earth-fixed position (km).
    ///
    /// Longitude is atan2(y, x), put into [-180, 180). Latitude is iterated,
    /// φ ← atan2(z + e²·N(φ)·sin φ, p) with N(φ) = a / sqrt(1 - e² sin² φ) and p = sqrt(x² + y²),
    /// from the spherical guess, until a step is below 1e-12 rad (contraction ≈ e², so a handful
    /// of steps); height h = p cos φ + z sin φ - a²/N, which has no trouble at the poles.
    public init(ecef r: Vector3) {
        let a = WGS84.a, e2 = WGS84.e2
        let p = (r.x * r.x + r.y * r.y).squareRoot()
        var phi = atan2(r.z, p * (1.0 - e2))
        var n = a
        for _ in 0..<30 {
            let s = sin(phi)
            n = a / (1.0 - e2 * s * s).squareRoot()
            let next = atan2(r.z + e2 * n * s, p)
            let step = fabs(next - phi)
            phi = next
            if step < 1e-12 { break }
        }
        let s = sin(phi), c = cos(phi)
        n = a / (1.0 - e2 * s * s).squareRoot()
        let h = p * c + r.z * s - a * a / n

        var lon = atan2(r.y, r.x) * 180.0 / Double.pi
        if lon >= 180.0 { lon -= 360.0 }
        if lon < -180.0 { lon += 360.0 }
        latitude = phi * 180.0 / Double.pi
        longitude = lon
        heightKm = h
    }

    /// The Earth-fixed position (km).
    public var ecef: Vector3 {
        let a = WGS84.a, e2 = WGS84.e2
        let phi = latitude * Double.pi / 180.0, lambda = longitude * Double.pi / 180.0
        let s = sin(phi), c = cos(phi)
        let n = a / (1.0 - e2 * s * s).squareRoot()
        return Vector3(x: (n + heightKm) * c * cos(lambda),
                       y: (n + heightKm) * c * sin(lambda),
                       z: (n * (1.0 - e2) + heightKm) * s)
    }

    public var description: String { "\(latitude)°, \(longitude)°, \(heightKm) km" }
}
