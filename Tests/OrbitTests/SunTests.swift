import Foundation
import MapCore
import Orbit
import Testing
import TestSupport

/// The Sun by the Almanac's formulae against PyEphem (Tests/Fixtures/sun, see make_subsolar.py),
/// and the footprint's size.
@Suite struct SunTests {
    /// A subsolar point as PyEphem computes it.
    struct Point { let utc: String; let latitude: Double; let longitude: Double }

    static func points() throws -> [Point] {
        let url = ReferenceFiles.directory.deletingLastPathComponent().appendingPathComponent("sun/subsolar.json")
        return try JSON.parse(contentsOf: url).member("points", \.arrayValue).map {
            Point(utc: try $0.member("utc", \.stringValue), latitude: try $0.member("latitude", \.numberValue),
                  longitude: try $0.member("longitude", \.numberValue))
        }
    }

    static func unix(_ iso: String) throws -> Double {
        let f = ISO8601DateFormatter()
        guard let d = f.date(from: iso) else { throw CocoaError(.formatting) }
        return d.timeIntervalSince1970
    }

    @Test func subsolarPointWithinFiveHundredthsOfADegreeOfPyEphem() throws {
        let points = try Self.points()
        #expect(points.count == 8)
        for p in points {
            let sun = Sun(unixSeconds: try Self.unix(p.utc))
            let (lat, lon) = sun.subsolarPoint
            var dl = abs(lon - p.longitude)
            if dl > 180 { dl = 360 - dl }
            #expect(abs(lat - p.latitude) < 0.05, "\(p.utc): latitude \(lat), PyEphem \(p.latitude)")
            #expect(dl < 0.05, "\(p.utc): longitude \(lon), PyEphem \(p.longitude)")
        }
    }

    @Test func elevationIsNinetyAtTheSubsolarPointAndNegativeOppositeIt() throws {
        let sun = Sun(unixSeconds: try Self.unix("2026-12-01T12:00:00Z"))
        let (lat, lon) = sun.subsolarPoint
        #expect(abs(sun.elevation(latitude: lat, longitude: lon) - 90) < 1e-6)
        #expect(abs(sun.elevation(latitude: -lat, longitude: lon + 180) + 90) < 1e-6)
        // 30 degrees of arc away along the meridian: 60 degrees up.
        #expect(abs(sun.elevation(latitude: lat + 30, longitude: lon) - 60) < 1e-6)
        // December: the south pole in daylight, the north in night.
        #expect(sun.elevation(latitude: -90, longitude: 0) > 20 && sun.elevation(latitude: 90, longitude: 0) < -20)
    }

    @Test func aPointBehindTheEarthIsInItsShadow() throws {
        let sun = Sun(unixSeconds: try Self.unix("2026-12-01T12:00:00Z"))
        let s = sun.ecef, n = (s.x * s.x + s.y * s.y + s.z * s.z).squareRoot()
        #expect(abs(n / Sun.kilometresPerAU - sun.distanceAU) < 1e-9 && sun.distanceAU > 0.98 && sun.distanceAU < 0.99)
        let r = 6378.137 + 420
        func at(_ k: Double) -> Vector3 { Vector3(x: s.x / n * r * k, y: s.y / n * r * k, z: s.z / n * r * k) }
        #expect(sun.illuminates(at(1)))            // under the Sun
        #expect(!sun.illuminates(at(-1)))          // behind the Earth
        // Beside the Earth, off the shadow's axis by more than its radius: lit.
        let side = Vector3(x: -s.y / n * r, y: s.x / n * r, z: 0)
        #expect(sun.illuminates(side))
    }

    @Test func footprintOfTheStationAt420KilometresIs2254KilometresAcross() {
        let r = Footprint.radiusKm(altitudeKm: 420)
        #expect(abs(r - 2254) / 2254 < 0.005, "\(r) km")
        #expect(abs(Footprint.halfAngle(altitudeKm: 420) - 20.25) < 0.01)
        // A minimum elevation shrinks it; nothing below the ground.
        #expect(Footprint.halfAngle(altitudeKm: 420, minimumElevation: 10) < 15)
        #expect(Footprint.halfAngle(altitudeKm: -5) == 0)
    }
}
