import Foundation
import Orbit
import Testing
import TestSupport

/// ISS passes over five observers for three days from the bundled set's epoch, against skyfield
/// (`Tests/Fixtures/passes`, see make_passes.py): rise and set within 10 s, the highest
/// elevation within 0.1 degree, and the same passes visible by eye.
@Suite struct PassFinderTests {
    static func fixture() throws -> PassesFixture { try PassesFixture.load() }

    /// "2025-10-01T12:16:43.53Z" (skyfield writes hundredths).
    static func unix(_ iso: String) throws -> Double {
        let parts = iso.dropLast().split(separator: ".")
        let f = ISO8601DateFormatter()
        guard let d = f.date(from: String(parts[0]) + "Z") else { throw CocoaError(.formatting) }
        return d.timeIntervalSince1970 + (parts.count > 1 ? Double("0." + parts[1]) ?? 0 : 0)
    }

    static func finder(_ fixture: PassesFixture, _ place: PassesFixture.Place) throws -> PassFinder {
        let sgp4 = SGP4(tle: try TLE(line1: fixture.tle[0], line2: fixture.tle[1]))
        return PassFinder(observer: Observer(latitude: place.lat, longitude: place.lon)) { t in
            guard let s = try? sgp4.propagate(unixSeconds: t) else { return nil }
            return Frames.temeToECEF(s.position, at: JulianDate(unixSeconds: t))
        }
    }

    @Test func passesAgreeWithSkyfield() throws {
        let fixture = try Self.fixture()
        #expect(fixture.observers.count == 5)
        let start = try Self.unix(fixture.start), end = start + fixture.days * 86400
        var compared = 0, visible = 0
        for place in fixture.observers {
            let found = try Self.finder(fixture, place).passes(from: start, to: end, minElevation: 0)
            // Grazes under a degree may fall between two samples: they are left out of both.
            let expected = place.passes.filter { $0.maxElevation >= 1 }
            let ours = found.filter { $0.maxElevation >= 1 }
            #expect(ours.count == expected.count, "\(place.name): \(ours.count) passes, skyfield \(expected.count)")
            for (p, e) in zip(ours, expected) {
                let rise = try Self.unix(e.rise), set = try Self.unix(e.set), top = try Self.unix(e.culminate)
                #expect(abs(p.rise - rise) < 10 && abs(p.set - set) < 10, "\(place.name) \(e.rise): rise \(p.rise - rise) s, set \(p.set - set) s")
                #expect(abs(p.culmination - top) < 10, "\(place.name) \(e.rise): culmination \(p.culmination - top) s")
                #expect(abs(p.maxElevation - e.maxElevation) < 0.1, "\(place.name) \(e.rise): \(p.maxElevation) against \(e.maxElevation)")
                var da = abs(p.riseAzimuth - e.riseAzimuth).truncatingRemainder(dividingBy: 360)
                da = min(da, 360 - da)
                var ds = abs(p.setAzimuth - e.setAzimuth).truncatingRemainder(dividingBy: 360)
                ds = min(ds, 360 - ds)
                #expect(da < 0.5 && ds < 0.5, "\(place.name) \(e.rise): azimuths off by \(da), \(ds)")
                #expect(p.visible == e.visible, "\(place.name) \(e.rise): visible \(p.visible), expected \(e.visible)")
                compared += 1
                if e.visible { visible += 1 }
            }
        }
        #expect(compared >= 70 && visible >= 10, "\(compared) passes, \(visible) visible")
    }

    @Test func minimumElevationAndAPassUnderWay() throws {
        let fixture = try Self.fixture()
        let place = fixture.observers[0]
        let finder = try Self.finder(fixture, place)
        let start = try Self.unix(fixture.start)
        let high = finder.passes(from: start, to: start + 3 * 86400, minElevation: 10)
        #expect(!high.isEmpty && high.allSatisfy { $0.maxElevation >= 10 })
        #expect(high.count == place.passes.filter { $0.maxElevation >= 10 }.count)
        // From a minute after a rise, the pass under way comes first, whole.
        let first = try Self.unix(place.passes[0].rise)
        let during = finder.passes(from: first + 60, to: first + 86400)
        #expect(abs((during.first?.rise ?? 0) - first) < 10)
        #expect(zip(during, during.dropFirst()).allSatisfy { $0.set < $1.rise })
    }

    @Test func lookAngles() {
        // Straight up from the equator, and due north and east on the horizon plane.
        let o = Observer(latitude: 0, longitude: 0)
        #expect(abs(o.look(at: Vector3(x: WGS84.a + 400, y: 0, z: 0)).elevation - 90) < 1e-9)
        let east = o.look(at: Vector3(x: WGS84.a, y: 1000, z: 0))
        #expect(abs(east.azimuth - 90) < 1e-9 && abs(east.elevation) < 1e-9)
        let north = o.look(at: Vector3(x: WGS84.a, y: 0, z: 1000))
        #expect(abs(north.azimuth) < 1e-9 && abs(north.rangeKm - 1000) < 1e-9)
    }
}
