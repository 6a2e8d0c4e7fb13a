#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ground a satellite is above the horizon from: a small circle around the point under it,
/// of Earth-central half-angle acos(R cos e / (R + h)) - e for altitude h and minimum elevation e
/// (the horizon itself at e = 0), on a sphere of the equatorial radius R, as trackers draw it.
public enum Footprint {
    /// The half-angle in degrees.
    public static func halfAngle(altitudeKm h: Double, minimumElevation e: Double = 0) -> Double {
        guard h > 0 else { return 0 }
        let rad = Double.pi / 180
        return (acos(WGS84.a * cos(e * rad) / (WGS84.a + h)) / rad - e).clamped(0, 180)
    }

    /// The radius along the ground in kilometres.
    public static func radiusKm(altitudeKm h: Double, minimumElevation e: Double = 0) -> Double {
        halfAngle(altitudeKm: h, minimumElevation: e) * Double.pi / 180 * WGS84.a
    }
}

extension Double {
    fileprivate func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(hi, Swift.max(lo, self)) }
}
