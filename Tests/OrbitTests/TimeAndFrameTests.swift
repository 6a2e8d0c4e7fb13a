import Foundation
import Orbit
import Testing

@Suite struct TimeAndFrameTests {
    @Test func julianDates() {
        #expect(JulianDate(year: 2000, month: 1, day: 1, hour: 12).value == 2451545.0)
        #expect(JulianDate(unixSeconds: 0).value == 2440587.5)
        #expect(JulianDate(year: 1970, month: 1, day: 1).unixSeconds == 0)
        // 2018-07-03 00:00:00 UTC = 1530576000 (Python calendar.timegm).
        let d = JulianDate(year: 2018, month: 7, day: 3)
        #expect(d.unixSeconds == 1530576000)
        #expect(JulianDate(unixSeconds: 1530576000 + 3661.5) == JulianDate(year: 2018, month: 7, day: 3, hour: 1, minute: 1, second: 1.5))
        // Leap day and the last day of a year roll over like calendar days.
        #expect(JulianDate(year: 2024, month: 2, day: 30) == JulianDate(year: 2024, month: 3, day: 1))
        #expect(JulianDate(year: 2019, month: 1, day: 366) == JulianDate(year: 2020, month: 1, day: 1))
        let c = JulianDate(unixSeconds: 1530794096.25).calendar
        #expect(c.year == 2018 && c.month == 7 && c.day == 5 && c.hour == 12 && c.minute == 34)
        #expect(abs(c.second - 56.25) < 1e-6)
        #expect(abs(JulianDate(unixSeconds: 1234567890.125).unixSeconds - 1234567890.125) < 1e-6)
    }

    @Test func gmstIAU82() {
        // At J2000.0 the formula's constant term: 67310.54841 s / 240 = 280.46061837504°.
        let j2000 = SiderealTime.gmst(julianDateUT1: JulianDate(day: 2451545.0)) * 180 / .pi
        #expect(abs(j2000 - 280.46061837504) < 1e-9)
        // Vallado, Fundamentals of Astrodynamics, example 3-5: 1992-08-20 12:14 UT1 -> 152.578787886°.
        let d = JulianDate(year: 1992, month: 8, day: 20, hour: 12, minute: 14)
        #expect(abs(SiderealTime.gmst(julianDateUT1: d) * 180 / .pi - 152.578787886) < 1e-6)
        #expect(abs(SiderealTime.gmst(julianDateUT1: d.value) - SiderealTime.gmst(julianDateUT1: d)) < 1e-8)
        // Always in [0, 2π).
        for k in 0..<1000 {
            let g = SiderealTime.gmst(julianDateUT1: JulianDate(unixSeconds: Double(k) * 7919.3))
            #expect(g >= 0 && g < 2 * .pi)
        }
    }

    @Test func temeToECEFRotatesByGMSTAboutZ() {
        let r = Vector3(x: 7000, y: 0, z: 1000)
        let e = Frames.temeToECEF(r, gmst: .pi / 2)
        #expect(abs(e.x) < 1e-9 && abs(e.y + 7000) < 1e-9 && e.z == 1000)
        let back = Frames.ecefToTEME(e, gmst: .pi / 2)
        #expect((back - r).length < 1e-9)
        // A geostationary-like TEME velocity becomes ~0 in the Earth-fixed frame.
        let radius = 42164.0
        let date = JulianDate(year: 2024, month: 1, day: 1)
        let gmst = SiderealTime.gmst(julianDateUT1: date)
        let pos = Frames.ecefToTEME(Vector3(x: radius, y: 0, z: 0), gmst: gmst)
        let vel = Frames.ecefToTEME(Vector3(x: 0, y: radius * Frames.earthRotationRate, z: 0), gmst: gmst)
        let fixed = Frames.temeToECEF(TEMEState(position: pos, velocity: vel), at: date)
        #expect(fixed.velocity.length < 1e-9)
        #expect((fixed.position - Vector3(x: radius, y: 0, z: 0)).length < 1e-6)
    }

    @Test func geodeticKnownPoints() {
        let a = WGS84.a, b = WGS84.b
        let equator = Geodetic(ecef: Vector3(x: a, y: 0, z: 0))
        #expect(abs(equator.latitude) < 1e-12 && equator.longitude == 0 && abs(equator.heightKm) < 1e-9)
        let pole = Geodetic(ecef: Vector3(x: 0, y: 0, z: b + 10))
        #expect(abs(pole.latitude - 90) < 1e-12 && abs(pole.heightKm - 10) < 1e-9)
        let south = Geodetic(ecef: Vector3(x: 0, y: 0, z: -b))
        #expect(abs(south.latitude + 90) < 1e-12 && abs(south.heightKm) < 1e-9)
        let east = Geodetic(ecef: Vector3(x: 0, y: a + 400, z: 0))
        #expect(abs(east.longitude - 90) < 1e-12 && abs(east.heightKm - 400) < 1e-9)
        // Longitude is in [-180, 180): the antimeridian is -180.
        let antimeridian = Geodetic(ecef: Vector3(x: -a, y: 0, z: 0))
        #expect(antimeridian.longitude == -180)
        #expect(Geodetic(ecef: Vector3(x: -a, y: -1e-9, z: 0)).longitude < -179.999)
    }

    @Test func geodeticRoundTrip() {
        // Geodetic -> ECEF (closed form) -> geodetic (iteration) over the globe, from 5 km below
        // the ellipsoid to beyond geostationary height.
        var rng = SystemRandomNumberGenerator()
        var worstAngle = 0.0, worstHeight = 0.0
        for _ in 0..<20_000 {
            let g = Geodetic(latitude: Double.random(in: -90...90, using: &rng),
                             longitude: Double.random(in: -180..<180, using: &rng),
                             heightKm: Double.random(in: -5...40_000, using: &rng))
            let back = Geodetic(ecef: g.ecef)
            var dlon = abs(back.longitude - g.longitude)
            if abs(g.latitude) > 89.9999999 { dlon = 0 }  // longitude is undefined at the poles
            worstAngle = max(worstAngle, abs(back.latitude - g.latitude), dlon)
            worstHeight = max(worstHeight, abs(back.heightKm - g.heightKm))
            #expect(back.longitude >= -180 && back.longitude < 180)
        }
        // 1e-12 rad ≈ 6e-11°; allow rounding of the ECEF coordinates (~1e-11 km at 42000 km).
        #expect(worstAngle < 1e-10, "worst angle \(worstAngle)°")
        #expect(worstHeight < 1e-8, "worst height \(worstHeight) km")
    }
}
