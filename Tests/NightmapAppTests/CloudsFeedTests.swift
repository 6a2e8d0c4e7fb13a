import Foundation
import MapCore
import MapData
import Raster
import Testing
import TestSupport
@testable import NightmapApp

/// The clouds from a local stand-in for NASA GIBS (issue 41): each satellite's tiles where it
/// covers, none over Europe and Africa, frames following the radar's times, satellites that fail
/// alone, and the clouds from the disk offline.
@Suite(.serialized) struct CloudsFeedTests {
    typealias Lines = ReportedLines

    /// 2026-12-05T07:32:10Z; the radar's newest frame 07:30.
    static let now = 1_796_455_930.0
    static let radarNewest = 1_796_455_800.0
    static let east = GeostationarySatellite.goesEast.layer, west = GeostationarySatellite.goesWest.layer
    static let himawari = GeostationarySatellite.himawari.layer

    /// GOES an hour behind the radar, Himawari 40 minutes.
    static func standIn() throws -> GIBSStandIn {
        try GIBSStandIn(newest: [east: radarNewest - 3600, west: radarNewest - 3600, himawari: radarNewest - 2400])
    }

    static func feed(_ gibs: GIBSStandIn, clock: TestClock, cache: RadarCache? = nil, lines: Lines = Lines()) -> TileLoopFeed {
        TileLoopFeed(source: CloudsSource(base: gibs.base), cache: cache, timeout: 5, clock: { clock.now }, report: { lines.add($0) },
                     fallback: { nil })
    }

    static func run(_ feed: TileLoopFeed, _ clock: TestClock, until: Double) {
        while clock.now < until {
            guard let next = feed.step() else { break }
            if next >= until { clock.now = until; break }
            clock.now = max(clock.now, next)
        }
    }

    /// The whole world at zoom 0.5 (zoom-2 tiles, columns centred on 135 W, 45 W, 45 E, 135 E).
    static let world = (visible: (minX: -0.1, minY: 0.0, maxX: 1.1, maxY: 1.0), zoom: 0.5)

    @Test func eachSatelliteCoversItsLongitudesAndEuropeHasNone() throws {
        let gibs = try Self.standIn()
        defer { gibs.stop() }
        let clock = TestClock(Self.now), lines = Lines()
        let feed = Self.feed(gibs, clock: clock, lines: lines)
        feed.want(visible: Self.world.visible, zoom: Self.world.zoom)
        Self.run(feed, clock, until: Self.now + 600)
        #expect(Set(gibs.domainsAsked) == [Self.east, Self.west, Self.himawari])
        let asked = gibs.tilesAsked
        #expect(asked.allSatisfy { $0.tile.z == 2 })
        #expect(Set(asked.filter { $0.tile.x == 0 }.map(\.layer)) == [Self.west])
        #expect(Set(asked.filter { $0.tile.x == 1 }.map(\.layer)) == [Self.east])
        #expect(asked.filter { $0.tile.x == 2 }.isEmpty)                  // (Europe, Africa: no satellite)
        #expect(Set(asked.filter { $0.tile.x == 3 }.map(\.layer)) == [Self.himawari])
        // Without radar times, one frame: each satellite's newest.
        #expect(Set(asked.map(\.time)) == [Self.radarNewest - 3600, Self.radarNewest - 2400])
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.slots.count == 1 && series.slots[0].status == .ok)
        #expect(series.provider == "NASA EOSDIS GIBS")
        let image = try #require(series.slots[0].image)
        #expect(image.width == 1024 && image.height == 1024)
        // GOES-East's square in column 1, Himawari's in column 3, nothing in column 2.
        let m = GIBSStandIn.marker(time: Self.radarNewest - 3600), h = GIBSStandIn.marker(time: Self.radarNewest - 2400)
        #expect(image.color(atX: 256 + m.x + 4, y: 256 + m.y + 4) == GIBSStandIn.colour(layer: Self.east))
        #expect(image.color(atX: 768 + h.x + 4, y: 256 + h.y + 4) == GIBSStandIn.colour(layer: Self.himawari))
        #expect(image.color(atX: 512 + m.x + 4, y: 256 + m.y + 4).a == 0)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func framesFollowTheRadarTimesTheLatestCloudsAtOrBeforeEach() throws {
        let gibs = try Self.standIn()
        defer { gibs.stop() }
        let clock = TestClock(Self.now)
        let feed = Self.feed(gibs, clock: clock)
        feed.want(visible: Self.world.visible, zoom: Self.world.zoom)
        let radar = (0..<13).map { Self.radarNewest - Double(12 - $0) * 600 }
        feed.want(times: radar)
        Self.run(feed, clock, until: Self.now + 1200)
        let (series, _) = try #require(feed.take(after: 0))
        // 07:30 - 120 ... - 60 min: both change every frame (7); -50 and -40: Himawari alone (2);
        // from -30 on nothing newer: the frame of -40 serves them.
        #expect(series.slots.map(\.time) == Array(radar.prefix(9)))
        #expect(series.slots.allSatisfy { $0.status == .ok })
        // GOES-East's tiles asked for 7 times (05:30 ... 06:30), Himawari's 9 (05:30 ... 06:50).
        #expect(Set(gibs.tilesAsked.filter { $0.layer == Self.east }.map(\.time)).count == 7)
        #expect(Set(gibs.tilesAsked.filter { $0.layer == Self.himawari }.map(\.time)).count == 9)
    }

    @Test func theGapTemplateFillsEuropeAndAfricaWhenGiven() throws {
        let gibs = try Self.standIn()
        defer { gibs.stop() }
        let clock = TestClock(Self.now), lines = Lines()
        let feed = TileLoopFeed(source: CloudsSource(base: gibs.base, gapTemplate: gibs.gapTemplate), cache: nil, timeout: 5,
                                clock: { clock.now }, report: { lines.add($0) }, fallback: { nil })
        feed.want(visible: Self.world.visible, zoom: Self.world.zoom)
        feed.want(times: [Self.radarNewest])
        Self.run(feed, clock, until: Self.now + 600)
        // Column 2 of zoom 2 (0 to 90 E), its four rows, at the radar's time less 20 minutes.
        let asked = gibs.gapAsked
        #expect(asked.count == 4)
        #expect(Set(asked.map(\.time)) == [GIBSStandIn.iso(Self.radarNewest - 1200)])
        #expect(asked.contains { $0.bbox == "0.0,0.0,10018754.171394622,10018754.171394622" })
        #expect(gibs.tilesAsked.allSatisfy { $0.tile.x != 2 })
        let (series, _) = try #require(feed.take(after: 0))
        let image = try #require(series.slots.last?.image)
        let m = GIBSStandIn.marker(time: Self.radarNewest - 1200)
        #expect(image.color(atX: 512 + m.x + 4, y: 256 + m.y + 4) == GIBSStandIn.gapColour)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func aSatelliteThatFailsIsOneLineAndTheOthersShow() throws {
        let gibs = try Self.standIn()
        defer { gibs.stop() }
        let clock = TestClock(Self.now), lines = Lines()
        let source = CloudsSource(base: gibs.base)
        let target = String(source.domainURL(Self.himawari, now: Self.now).dropFirst("http://127.0.0.1:\(gibs.server.port)".count))
        gibs.bad = [target: .status(503, "<html>busy</html>")]
        let feed = TileLoopFeed(source: source, cache: nil, timeout: 5, clock: { clock.now }, report: { lines.add($0) }, fallback: { nil })
        feed.want(visible: Self.world.visible, zoom: Self.world.zoom)
        Self.run(feed, clock, until: Self.now + 300)
        #expect(lines.all.count == 1, "\(lines.all)")
        #expect(lines.all.first?.contains("503") == true && lines.all.first?.contains(Self.himawari) == true)
        #expect(gibs.tilesAsked.allSatisfy { $0.layer != Self.himawari })
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.slots.first?.status == .ok)
    }

    @Test func offlineTheCloudsComeFromTheDiskLabelledCached() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-clouds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = RadarCache(directory: dir)
        let gibs = try Self.standIn()
        let clock = TestClock(Self.now)
        let online = Self.feed(gibs, clock: clock, cache: cache)
        online.want(visible: Self.world.visible, zoom: Self.world.zoom)
        Self.run(online, clock, until: Self.now + 600)
        gibs.server.behaviour = .refuse
        let lines = Lines()
        let offline = Self.feed(gibs, clock: clock, cache: cache, lines: lines)
        offline.want(visible: Self.world.visible, zoom: Self.world.zoom)
        Self.run(offline, clock, until: clock.now + 5)
        let (series, _) = try #require(offline.take(after: 0))
        #expect(series.origin == .cache)
        #expect(series.slots.first?.status == .ok)
        #expect(lines.all.count == 1, "\(lines.all)")
        gibs.stop()
    }
}
