#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Greenwich mean sidereal time, IAU-1982 (Vallado's `gstime`), with UT1 taken as UTC.
public enum SiderealTime {
    /// GMST in radians, [0, 2π), at a UT1 Julian date:
    /// seconds = 67310.54841 + (876600·3600 + 8640184.812866)·T + 0.093104·T² - 6.2e-6·T³,
    /// T = (JD_UT1 - 2451545.0) / 36525; radians = seconds / 240 · π / 180.
    public static func gmst(julianDateUT1 jd: JulianDate) -> Double {
        gmst(centuries: ((jd.day - JulianDate.j2000) + jd.fraction) / 36525.0)
    }

    /// The same from a one-number Julian date.
    public static func gmst(julianDateUT1 jd: Double) -> Double {
        gmstVallado(julianDateUT1: jd)
    }

    /// Vallado's `gstime` operation by operation, as SGP4 uses it for `gsto`.
    static func gmstVallado(julianDateUT1 jdut1: Double) -> Double {
        gmst(centuries: (jdut1 - JulianDate.j2000) / 36525.0)
    }

    private static func gmst(centuries tut1: Double) -> Double {
        let twopi = 2.0 * Double.pi
        let deg2rad = Double.pi / 180.0
        var temp = -6.2e-6 * tut1 * tut1 * tut1 + 0.093104 * tut1 * tut1
            + (876600.0 * 3600 + 8640184.812866) * tut1 + 67310.54841  // seconds
        temp = (temp * deg2rad / 240.0).truncatingRemainder(dividingBy: twopi)  // 360/86400 = 1/240
        if temp < 0.0 { temp += twopi }
        return temp
    }
}
