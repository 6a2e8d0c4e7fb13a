import Foundation
import MapCore
import Testing
@testable import MapData

/// NWS zone shapes read for drawing zone-based alerts (recorded shapes in Tests/Fuzz/nwszone,
/// also the fuzz target's seeds), joined, and tested for a point.
@Suite struct NWSZoneTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/nwszone")
    static func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
    static let url = "https://api.weather.gov/zones/forecast/OKZ025"

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    static func point(_ lng: Double, _ lat: Double) -> MercatorPoint { WebMercator.project(LngLat(lng: lng, lat: lat)) }

    @Test func polygonsAndMultiPolygonsWithHoles() throws {
        let forecast = try NWSZone.shape(data: try Self.file("forecast.json"), url: Self.url)
        #expect(forecast.kind == .polygons && forecast.partCount == 1 && abs(forecast.minX - WebMercator.x(lng: -97.67)) < 1e-12)
        #expect(NWSZone.contains(forecast, Self.point(-97.4, 35.5)) && !NWSZone.contains(forecast, Self.point(-97.0, 35.5)))
        let county = try NWSZone.shape(data: try Self.file("county.json"), url: Self.url)
        #expect(county.partCount == 3 && county.polygonStarts == [0, 2, 3])
        #expect(NWSZone.contains(county, Self.point(-88.4, 47.4)))
        #expect(!NWSZone.contains(county, Self.point(-88.1, 47.37)))          // in the hole
        #expect(NWSZone.contains(county, Self.point(-88.8, 47.9)))            // the island
        // Joined: both zones' polygons, one after the other.
        let both = try #require(NWSZone.merged([forecast, county]))
        #expect(both.partCount == 4 && both.polygonStarts == [0, 1, 3, 4])
        #expect(NWSZone.contains(both, Self.point(-97.4, 35.5)) && NWSZone.contains(both, Self.point(-88.8, 47.9)))
        #expect(!NWSZone.contains(both, Self.point(-88.1, 47.37)))
        #expect(NWSZone.merged([]) == nil)
    }

    @Test func ringPointsCloserThanTheToleranceAreDropped() throws {
        // A square with a point every 10 m along its west side: the side keeps a point every 40 m or so.
        let step = 0.25e-6
        var ring = [MercatorPoint(x: 0.25, y: 0.4)]
        for k in 1...40 { ring.append(MercatorPoint(x: 0.25, y: 0.4 + Double(k) * step)) }
        ring += [MercatorPoint(x: 0.2501, y: 0.4 + 40 * step), MercatorPoint(x: 0.2501, y: 0.4), MercatorPoint(x: 0.25, y: 0.4)]
        let g = FeatureGeometry(kind: .polygons, parts: [ring], polygonStarts: [0])
        let thin = NWSZone.thinned(g)
        #expect(thin.coordinates.count / 2 < 16 && thin.coordinates.count / 2 > 8)
        #expect(thin.minX == g.minX && thin.maxX == g.maxX && thin.minY == g.minY && thin.maxY == g.maxY)
        #expect(NWSZone.contains(thin, MercatorPoint(x: 0.25005, y: 0.400005)))
        // Nothing to drop: the same geometry.
        let square = try NWSZone.shape(data: try Self.file("forecast.json"), url: Self.url)
        #expect(NWSZone.thinned(square) === square)
    }

    @Test func answersThatAreNoZoneAreOneNamedError() throws {
        let u = Self.url
        #expect(Self.message { _ = try NWSZone.shape(data: try Self.file("nogeometry.json"), url: u) } == "\(u): no polygon (the zone has no geometry)")
        #expect(Self.message { _ = try NWSZone.shape(data: try Self.file("problem.json"), url: u) } == "\(u): the service answered 'Not Found': Zone does not exist")
        #expect(Self.message { _ = try NWSZone.shape(data: try Self.file("html.json"), url: u) } == "\(u): an HTML page, not a zone")
        #expect(Self.message { _ = try NWSZone.shape(data: Data("[1]".utf8), url: u) } == "\(u): expected a GeoJSON zone")
        #expect(Self.message { _ = try NWSZone.shape(data: Data(#"{"type": "Point", "coordinates": [1, 2]}"#.utf8), url: u) }
                == "\(u): no polygon (the zone has no geometry)")
    }
}
