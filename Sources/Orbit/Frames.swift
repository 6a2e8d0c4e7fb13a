#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TEME (the frame of SGP4's output) to Earth-fixed.
///
/// The rotation is by GMST (IAU-82) about z, which gives the pseudo Earth-fixed frame (PEF);
/// polar motion (< 20 m at the surface) is ignored, so PEF is used as ECEF. UT1 = UTC.
public enum Frames {
    /// Earth rotation rate, rad/s (Vallado's teme2ecef with no length-of-day correction).
    public static let earthRotationRate = 7.292115146706979e-5

    /// Rotates a TEME vector into the Earth-fixed frame: R3(gmst) · r.
    public static func temeToECEF(_ r: Vector3, gmst: Double) -> Vector3 {
        let c = cos(gmst), s = sin(gmst)
        return Vector3(x: c * r.x + s * r.y, y: -s * r.x + c * r.y, z: r.z)
    }

    /// Rotates an Earth-fixed vector back into TEME: R3(-gmst) · r.
    public static func ecefToTEME(_ r: Vector3, gmst: Double) -> Vector3 {
        let c = cos(gmst), s = sin(gmst)
        return Vector3(x: c * r.x - s * r.y, y: s * r.x + c * r.y, z: r.z)
    }

    /// TEME position at a UTC date into ECEF (km).
    public static func temeToECEF(_ r: Vector3, at date: JulianDate) -> Vector3 {
        temeToECEF(r, gmst: SiderealTime.gmst(julianDateUT1: date))
    }

    /// A TEME state into ECEF: position rotated; velocity rotated minus ω × r (km/s).
    public static func temeToECEF(_ state: TEMEState, at date: JulianDate) -> TEMEState {
        let gmst = SiderealTime.gmst(julianDateUT1: date)
        let r = temeToECEF(state.position, gmst: gmst)
        let v = temeToECEF(state.velocity, gmst: gmst)
        let omega = Vector3(x: 0, y: 0, z: earthRotationRate)
        return TEMEState(position: r, velocity: v - omega.cross(r))
    }
}
