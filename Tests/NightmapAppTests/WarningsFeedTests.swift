import Foundation
import MapCore
import MapData
import Testing
import TestSupport
@testable import NightmapApp

/// The NWS warnings' feed against a local stand-in for api.weather.gov (`NWSStandIn`): what it
/// asks and how (User-Agent, Accept, If-Modified-Since), its pace with an injected clock
/// (Expires, 304, back-off after 429), zones joined and fetched once, every fault one line, and
/// the disk cache offline.
@Suite(.serialized) struct WarningsFeedTests {
    /// 2026-12-03T22:40:00Z.
    static let issued = 1_796_337_600.0


    typealias Lines = ReportedLines

    static func temporaryCache() -> AlertsCache {
        AlertsCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-alerts-test-\(UUID().uuidString)"))
    }

    static func feed(_ base: String, clock: TestClock, cache: AlertsCache? = nil, lines: Lines = Lines(), timeout: Double = 5,
                     contact: String? = nil) -> WarningsFeed {
        WarningsFeed(base: base, contact: contact, cache: cache, timeout: timeout, clock: { clock.now }, report: { lines.add($0) })
    }

    static func shown(_ feed: WarningsFeed) throws -> WarningsFeed.Shown { try #require(feed.take(after: 0)).shown }

    @Test func asksPolitelyDrawsStormPolygonsAndJoinsZonesFetchedOnce() throws {
        let nws = try NWSStandIn(issued: Self.issued)
        defer { nws.stop() }
        let clock = TestClock(Self.issued + 60), lines = Lines()
        let feed = Self.feed(nws.base, clock: clock, lines: lines, contact: "ops@example.org")
        #expect(feed.poll())
        let head = try #require(nws.alertRequests.first)
        #expect(head.hasPrefix("GET /alerts/active?status=actual HTTP/1.1"))
        #expect(head.contains("\r\nUser-Agent: nightmap/0.1.0 (ops@example.org)\r\n"))
        #expect(head.contains("\r\nAccept: application/geo+json\r\n"))
        #expect(!head.lowercased().contains("if-modified-since"))
        let shown = try Self.shown(feed)
        #expect(shown.origin == .live && shown.lastError == nil && lines.all.isEmpty)
        #expect(shown.warnings.map(\.alert.event) == ["Tornado Warning", "Winter Storm Watch"])
        // The storm polygon as served; the watch drawn as its zone (the zone's URL rewritten to the stand-in).
        let storm = try #require(shown.warnings[0].shape), zone = try #require(shown.warnings[1].shape)
        #expect(abs(storm.minX - WebMercator.x(lng: NWSStandIn.tornadoBox.west)) < 1e-12)
        #expect(abs(zone.minX - WebMercator.x(lng: NWSStandIn.zoneBox.west)) < 1e-12)
        #expect(abs(zone.maxY - WebMercator.y(lat: NWSStandIn.zoneBox.south)) < 1e-12)
        #expect(nws.zoneRequests == ["/zones/forecast/XXZ001"])
        // The next poll revalidates and does not fetch the zone again.
        clock.now += 121; nws.now = clock.now
        #expect(feed.poll())
        #expect(nws.alertRequests.count == 2 && nws.alertRequests[1].contains("\r\nIf-Modified-Since: "))
        #expect(nws.zoneRequests.count == 1)
        #expect(lines.all.isEmpty)
    }

    @Test func pollsNoFasterThanExpiresKeepsWhatIsShownOn304AndBacksOffAfter429() throws {
        let nws = try NWSStandIn(issued: Self.issued)
        defer { nws.stop() }
        nws.expiresAfter = 120
        nws.mode = .notModified
        let t0 = Self.issued + 60
        let clock = TestClock(t0), lines = Lines()
        nws.now = t0
        let feed = Self.feed(nws.base, clock: clock, lines: lines)
        #expect(feed.poll())
        #expect(feed.nextPoll == t0 + 120)
        // Not before Expires, though a minute has passed.
        for dt in [0.0, 30, 61, 119.9] {
            clock.now = t0 + dt
            #expect(!feed.poll(), "asked at +\(dt) s")
        }
        #expect(nws.alertRequests.count == 1)
        // At Expires: a revalidation, answered 304; what is shown stays, live.
        clock.now = t0 + 120; nws.now = clock.now
        #expect(feed.poll())
        #expect(nws.alertRequests.count == 2 && nws.alertRequests[1].contains("\r\nIf-Modified-Since: "))
        var (shown, generation) = try #require(feed.take(after: 0))
        #expect(shown.origin == .live && shown.warnings.count == 2 && shown.warnings[1].shape != nil)
        // An Expires under a minute away still waits a minute.
        nws.expiresAfter = 10
        clock.now = t0 + 240; nws.now = clock.now
        #expect(feed.poll())
        #expect(feed.nextPoll == t0 + 300)
        // 429: one line, the warnings kept (labelled cached), then 60, 120, 240 s between tries.
        nws.mode = .status(429)
        var t = t0 + 300
        clock.now = t
        #expect(feed.poll())
        (shown, generation) = try #require(feed.take(after: generation))
        #expect(shown.origin == .cache && shown.warnings.count == 2 && shown.lastError?.hasSuffix("HTTP 429 (Too Many Requests)") == true)
        for wait in [60.0, 120, 240] {
            clock.now = t + wait - 1
            #expect(!feed.poll(), "asked again \(wait - 1) s after a 429")
            clock.now = t + wait
            #expect(feed.poll(), "not asked again \(wait) s after a 429")
            t += wait
        }
        #expect(lines.all == ["\(feed.activeURL): HTTP 429 (Too Many Requests)"])
        // A good answer ends the back-off: live again, the next poll a minute later.
        nws.mode = .normal; nws.expiresAfter = 60; nws.now = t + 960
        clock.now = t + 960
        #expect(feed.poll())
        #expect(try #require(feed.take(after: generation)).shown.origin == .live)
        #expect(feed.nextPoll == t + 1020)
    }

    @Test func everyFaultIsOneNamedLineAndTheMapGoesOn() throws {
        let cases: [(NWSStandIn.Mode, String)] = [
            (.status(404), "HTTP 404 (Not Found)"), (.status(429), "HTTP 429 (Too Many Requests)"),
            (.status(503), "HTTP 503 (Service Unavailable)"), (.html, "an HTML page, not alerts"),
            (.problem, "HTTP 400 (Bad Request)"),
            (.problem200, "the service answered 'Unexpected Problem': An unexpected problem has occurred."),
            (.hang, "no answer within 1 s"),
        ]
        for (mode, expected) in cases {
            let nws = try NWSStandIn(issued: Self.issued)
            defer { nws.stop() }
            nws.mode = mode
            let clock = TestClock(Self.issued), lines = Lines()
            let feed = Self.feed(nws.base, clock: clock, lines: lines, timeout: 1)
            #expect(feed.poll())
            clock.now += 60
            #expect(feed.poll())
            #expect(lines.all == ["\(feed.activeURL): \(expected)"], "\(mode)")
            let shown = try Self.shown(feed)
            #expect(shown.warnings.isEmpty && shown.lastError == lines.all.first, "\(mode)")
        }
    }

    @Test func unknownEventsAlertsWithoutShapeAndMissingZonesAreNamedOnceAndListed() throws {
        let nws = try NWSStandIn(issued: Self.issued)
        defer { nws.stop() }
        nws.oddities = true
        let clock = TestClock(Self.issued + 60), lines = Lines()
        let feed = Self.feed(nws.base, clock: clock, lines: lines)
        #expect(feed.poll())
        clock.now += 121; nws.now = clock.now
        #expect(feed.poll())
        let url = feed.activeURL
        #expect(lines.all.sorted() == [
            "\(nws.base)/zones/forecast/XXZ404: HTTP 404 (Not Found); 'Flood Watch' listed, its zone not drawn",
            "\(url): features[3]: no polygon and no zones; skipped",
            "\(url): unknown event 'Hydrologic Outlook', drawn in grey",
        ].sorted())
        let shown = try Self.shown(feed)
        #expect(shown.warnings.map(\.alert.event) == ["Tornado Warning", "Winter Storm Watch", "Hydrologic Outlook", "Flood Watch"])
        #expect(shown.warnings[2].alert.color == NWSAlerts.otherColor && shown.warnings[2].shape != nil)
        #expect(shown.warnings[3].shape == nil)
        // The missing zone was asked once.
        #expect(nws.zoneRequests.filter { $0.hasSuffix("XXZ404") }.count == 1)
    }

    @Test func theBackgroundThreadPublishesTheAlertsAndStops() throws {
        let nws = try NWSStandIn(issued: Self.issued)
        defer { nws.stop() }
        let clock = TestClock(Self.issued + 60)
        let feed = Self.feed(nws.base, clock: clock)
        feed.start()
        #expect(feed.waitForUpdate(after: 0, timeout: 10))
        let (shown, generation) = try #require(feed.take(after: 0))
        #expect(shown.warnings.count == 2 && generation >= 1)
        feed.stop()
        // Stopped, and the clock not moved: nothing more is asked.
        #expect(nws.alertRequests.count == 1)
    }

    @Test func offlineTheCachedAnswerShowsLabelledCachedWithItsZones() throws {
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let nws = try NWSStandIn(issued: Self.issued)
        let clock = TestClock(Self.issued + 60)
        let online = Self.feed(nws.base, clock: clock, cache: cache)
        #expect(online.poll())
        nws.stop()
        // A later start with the service gone: the answer from disk, its zone from disk too.
        let lines = Lines()
        let offline = Self.feed(nws.base, clock: clock, cache: cache, lines: lines)
        #expect(offline.poll())
        let shown = try Self.shown(offline)
        #expect(shown.origin == .cache && shown.fetched == Self.issued + 60)
        #expect(shown.warnings.map(\.alert.event) == ["Tornado Warning", "Winter Storm Watch"])
        #expect(shown.warnings.allSatisfy { $0.shape != nil })
        #expect(lines.all.count == 1 && lines.all[0].hasSuffix("connection refused (nothing listening)"))
        #expect(shown.lastError == lines.all.first)
        // A zone older than a day is not used.
        #expect(cache.zone("\(nws.base)/zones/forecast/XXZ001", now: Self.issued + 60 + 86_401) == nil)
        #expect(cache.zone("\(nws.base)/zones/forecast/XXZ001", now: Self.issued + 3600) != nil)
    }
}
