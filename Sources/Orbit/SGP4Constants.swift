#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Earth model SGP4 runs with (Vallado's `getgravconst`).
///
/// Element sets are fitted with WGS-72, so `.wgs72` is the one to use; it is the model of the
/// verification output `tcppver.out`.
public struct GravityModel: Sendable, Hashable {
    /// `mu`: gravitational parameter, km³/s².
    public let mu: Double
    /// `radiusearthkm`: equatorial radius, km.
    public let radiusEarthKm: Double
    /// `xke`: sqrt(mu) in Earth radii^1.5 per minute.
    public let xke: Double
    /// `tumin`: minutes per time unit (1 / xke).
    public let tumin: Double
    /// `j2`, `j3`, `j4`: zonal harmonics; `j3oj2` = j3 / j2.
    public let j2: Double
    public let j3: Double
    public let j4: Double
    public let j3oj2: Double

    /// Builds a model from mu (km³/s²), radius (km) and zonal harmonics, deriving `xke` as
    /// `60 / sqrt(radius³ / mu)` the way Vallado's code does.
    public init(mu: Double, radiusEarthKm: Double, j2: Double, j3: Double, j4: Double) {
        self.mu = mu
        self.radiusEarthKm = radiusEarthKm
        self.xke = 60.0 / sqrt(radiusEarthKm * radiusEarthKm * radiusEarthKm / mu)
        self.tumin = 1.0 / xke
        self.j2 = j2
        self.j3 = j3
        self.j4 = j4
        self.j3oj2 = j3 / j2
    }

    /// WGS-72, the constants of the element sets and of the verification data.
    public static let wgs72 = GravityModel(mu: 398600.8, radiusEarthKm: 6378.135,
                                           j2: 0.001082616, j3: -0.00000253881, j4: -0.00000165597)

    /// WGS-84 gravity constants (offered by Vallado's code; not what element sets are fitted with).
    public static let wgs84 = GravityModel(mu: 398600.5, radiusEarthKm: 6378.137,
                                           j2: 0.00108262998905, j3: -0.00000253215306,
                                           j4: -0.00000161098761)
}

/// Numbers used throughout the SGP4 files.
enum SGP4Math {
    static let pi = Double.pi
    static let twoPi = 2.0 * Double.pi
    /// `x2o3`
    static let twoThirds = 2.0 / 3.0
    static let deg2rad = Double.pi / 180.0
    /// `xpdotp`: minutes per day over 2π, turns rev/day into rad/min.
    static let xpdotp = 1440.0 / (2.0 * Double.pi)
    /// `temp4`: divisor guard for inclinations near 180° (1 + cos i ≈ 0).
    static let temp4 = 1.5e-12
    /// Offset of Vallado's epoch (days since 1949 December 31 0h UT) from a Julian date.
    static let jd1950 = 2433281.5

    /// C's `fmod` (Swift's `truncatingRemainder` is the same exact operation): the result keeps
    /// the sign of `x`, unlike a floored modulo. The reference code relies on this, e.g. in the
    /// Lyddane node fix.
    @inline(__always) static func fmod(_ x: Double, _ y: Double) -> Double {
        x.truncatingRemainder(dividingBy: y)
    }
}
