import Foundation
import MapCore
import Testing
@testable import MapData

/// NWS active alerts read for drawing (recorded shapes in Tests/Fuzz/nwsalerts, also the fuzz
/// target's seeds).
@Suite struct NWSAlertsTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/nwsalerts")
    static func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
    static let url = "https://api.weather.gov/alerts/active"

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    @Test func stormPolygonsAndZoneAlertsWithTheirColoursAndTimes() throws {
        let a = try NWSAlerts(data: try Self.file("active.json"), url: Self.url)
        #expect(a.alerts.map(\.event) == ["Tornado Warning", "Tornado Watch", "Hydrologic Outlook", "Severe Thunderstorm Warning"])
        let tornado = a.alerts[0]
        #expect(tornado.id == "https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.1")
        #expect(tornado.color == Color(r: 1, g: 0, b: 0) && tornado.severity == "Extreme" && tornado.urgency == "Immediate")
        #expect(tornado.headline?.hasPrefix("Tornado Warning issued December 3") == true)
        #expect(tornado.instruction?.hasPrefix("TAKE COVER NOW!") == true)
        // 16:40 CST is 22:40 UTC.
        #expect(tornado.onset == 1_796_337_600)
        #expect(tornado.expires == tornado.onset.map { $0 + 35 * 60 })
        let g = try #require(tornado.geometry)
        #expect(g.kind == .polygons && abs(g.minX - WebMercator.x(lng: -97.6)) < 1e-12)
        // The watch is zone-based: no polygon, its zones to fetch.
        let watch = a.alerts[1]
        #expect(watch.geometry == nil && watch.zones.count == 2 && watch.color == Color(r: 1, g: 1, b: 0))
        // An event the table does not know: drawn grey, named once.
        #expect(a.alerts[2].color == NWSAlerts.otherColor && a.unknownEvents == ["Hydrologic Outlook"])
        // An unreadable onset is nil; a UTC expiry is read.
        #expect(a.alerts[3].onset == nil && a.alerts[3].expires == 1_796_339_700)
        // The test alert is left out silently; the rest are named.
        #expect(a.skipped == ["features[4].properties.event: missing; skipped",
                              "features[5].geometry: not a readable polygon; skipped",
                              "features[6]: no polygon and no zones; skipped"])
    }

    @Test func answersThatAreNoAlertsAreOneNamedError() throws {
        let u = Self.url
        #expect(Self.message { _ = try NWSAlerts(data: try Self.file("html.json"), url: u) } == "\(u): an HTML page, not alerts")
        #expect(Self.message { _ = try NWSAlerts(data: try Self.file("problem.json"), url: u) }
                == "\(u): the service answered 'Bad Request': Parameter \"area\" is invalid: 'XX' does not match any of the allowed values")
        #expect(Self.message { _ = try NWSAlerts(data: Data(#"{"type": "Feature"}"#.utf8), url: u) } == "\(u): expected a GeoJSON FeatureCollection")
        #expect(Self.message { _ = try NWSAlerts(data: Data("nope".utf8), url: u) } == "\(u): not JSON (line 1, column 2: unexpected 'o' in a literal)")
        let empty = try NWSAlerts(data: try Self.file("empty.json"), url: u)
        #expect(empty.alerts.isEmpty && empty.skipped.isEmpty)
    }

    @Test func timesWithOffsets() {
        #expect(NWSAlerts.time("2026-12-03T22:40:00Z") == 1_796_337_600)
        #expect(NWSAlerts.time("2026-12-03T16:40:00-06:00") == 1_796_337_600)
        #expect(NWSAlerts.time("2026-12-04T04:10:00+05:30") == 1_796_337_600)
        #expect(NWSAlerts.time("2026-12-03T22:40:00.123Z") == 1_796_337_600)
        for bad in ["2026-12-03", "2026-12-03T22:40:00", "2026-12-03T22:40Z", "2026-02-30T00:00:00Z", "2026-12-03T22:40:00+0600", "yesterday"] {
            #expect(NWSAlerts.time(bad) == nil, "\(bad)")
        }
    }
}
