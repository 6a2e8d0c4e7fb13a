import Foundation
import Orbit
import Testing

/// The ISS sub-satellite point for set A of Tests/Fixtures/sgp4/iss_tles.txt, against an
/// independent computation.
///
/// How the expected numbers were obtained (Python 3.11.7, in a throwaway venv:
/// `python3 -m venv /tmp/sgp4venv && /tmp/sgp4venv/bin/pip install sgp4==2.24 numpy`):
/// - TEME position: `sgp4.api.Satrec.twoline2rv(line1, line2, WGS72)` (sgp4 2.24, Vallado's C++,
///   WGS-72, opsmode 'i'), then `sat.sgp4(jd, fr)` with `jd = 2440587.5 + unix // 86400`,
///   `fr = (unix % 86400) / 86400`, unix from `calendar.timegm`.
/// - GMST (written for the test, IAU-82, UT1 = UTC): T = (jd + fr - 2451545) / 36525,
///   s = 67310.54841 + (876600·3600 + 8640184.812866)·T + 0.093104·T² - 6.2e-6·T³,
///   gmst = radians((s / 240) mod 360).
/// - Earth-fixed: x = cos(gmst)·rx + sin(gmst)·ry, y = -sin(gmst)·rx + cos(gmst)·ry, z = rz.
/// - Geodetic (written for the test, a different method from the library's iteration):
///   Heikkinen's (1982) closed form on WGS-84 (a = 6378.137 km, f = 1/298.257223563):
///   F = 54 b² z², G = p² + (1 - e²) z² - e² (a² - b²), c = e⁴ F p² / G³,
///   s = (1 + c + sqrt(c² + 2c))^(1/3), P = F / (3 (s + 1/s + 1)² G²), Q = sqrt(1 + 2 e⁴ P),
///   r0 = -P e² p / (1 + Q) + sqrt(a²/2 (1 + 1/Q) - P (1 - e²) z² / (Q (1 + Q)) - P p² / 2),
///   U = hypot(p - e² r0, z), V = sqrt((p - e² r0)² + (1 - e²) z²), z0 = b² z / (a V),
///   h = U (1 - b² / (a V)), lat = atan2(z + e'² z0, p), lon = atan2(y, x).
/// Printed with 6 decimals of degrees (≈ 0.1 m) and 4 of km.
@Suite struct SubSatellitePointTests {
    static let expected: [(unix: Double, lat: Double, lon: Double, alt: Double)] = [
        (1530645957, 48.774299, -161.324706, 412.5339),  // 2018-07-03 19:25:57 UTC (epoch, to the second)
        (1530648000, -42.563738, -59.775905, 416.9616),  // 2018-07-03 20:00:00 UTC
        (1530662400, 51.739711, 106.623635, 413.3842),   // 2018-07-04 00:00:00 UTC
        (1530685800, 9.042795, 86.632557, 405.2987),     // 2018-07-04 06:30:00 UTC
        (1530748800, -47.463833, -52.094814, 418.9500),  // 2018-07-05 00:00:00 UTC
        (1530794096, -11.581869, 165.827618, 407.4353),  // 2018-07-05 12:34:56 UTC
    ]

    /// Distance along the surface (km) between two nearby points, on a 6371 km sphere.
    static func groundDistanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        var dlon = lon2 - lon1
        if dlon > 180 { dlon -= 360 }
        if dlon < -180 { dlon += 360 }
        let dx = dlon * .pi / 180 * cos(lat1 * .pi / 180), dy = (lat2 - lat1) * .pi / 180
        return 6371 * (dx * dx + dy * dy).squareRoot()
    }

    @Test func issSetAWithin100Metres() throws {
        let tle = try TLE.parseAll(ReferenceFiles.text("iss_tles.txt"))[0]
        #expect(tle.epochYear == 2018 && tle.epochDayOfYear == 184.80969102)
        let sgp4 = SGP4(tle: tle)
        var worst = 0.0
        for e in Self.expected {
            let p = try subSatellitePoint(tle: tle, at: e.unix)
            let horizontal = Self.groundDistanceKm(e.lat, e.lon, p.latitude, p.longitude)
            let vertical = abs(p.altitudeKm - e.alt)
            worst = max(worst, horizontal, vertical)
            #expect(horizontal < 0.1 && vertical < 0.1,
                    "\(e.unix): got \(p.latitude), \(p.longitude), \(p.altitudeKm) km; expected \(e.lat), \(e.lon), \(e.alt) km")
            // Same formulas on both sides, so the agreement is in fact the print rounding.
            #expect(horizontal < 0.001 && vertical < 0.0001)
            #expect(p.longitude >= -180 && p.longitude < 180)

            let g = try sgp4.geodetic(unixSeconds: e.unix)
            #expect(g.latitude == p.latitude && g.longitude == p.longitude && g.heightKm == p.altitudeKm)
        }
        print("ISS set A sub-satellite points: worst difference \(worst * 1000) m")
    }

    @Test func propagateByDateMatchesMinutesSinceEpoch() throws {
        let tle = try TLE.parseAll(ReferenceFiles.text("iss_tles.txt"))[0]
        let sgp4 = SGP4(tle: tle)
        let date = tle.epoch.adding(days: 0.75)
        let a = try sgp4.propagate(to: date)
        let b = try sgp4.propagate(minutesSinceEpoch: 0.75 * 1440)
        #expect((a.position - b.position).length < 1e-6)
        #expect(abs(sgp4.minutesSinceEpoch(date) - 1080) < 1e-7)
        #expect(!sgp4.isDeepSpace && abs(sgp4.periodMinutes - 92.7) < 0.1)
    }
}
