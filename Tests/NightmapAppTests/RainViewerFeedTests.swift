import Foundation
import MapCore
import MapData
import Raster
import Testing
import TestSupport
@testable import NightmapApp

/// The world radar against a local stand-in for RainViewer's API (issue 41): the frames and
/// their times, the mosaic of the view and its tiles, the zoom-7 cap, the request budget over a
/// simulated hour, the service's bad answers, and the loop from the disk cache offline.
@Suite(.serialized) struct RainViewerFeedTests {
    typealias Lines = ReportedLines

    /// 2026-12-05T07:32:10Z; the newest frame 07:30.
    static let now = 1_796_455_930.0
    static let newest = 1_796_455_800.0

    /// A 1280 x 720 view centred on `center` at `zoom` (north up), as the camera gives it.
    static func view(_ center: LngLat, zoom: Double, width: Double = 1280, height: Double = 720)
        -> (visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double) {
        let world = WebMercator.worldSize(zoom: zoom), m = WebMercator.project(center)
        return ((m.x - width / 2 / world, m.y - height / 2 / world, m.x + width / 2 / world, m.y + height / 2 / world), zoom)
    }

    static let europe = view(LngLat(lng: 10, lat: 50), zoom: 4)

    static func feed(_ rv: RainViewerStandIn, clock: TestClock, cache: RadarCache? = nil, lines: Lines = Lines(), timeout: Double = 5,
                     budget: RequestBudget = RequestBudget(perMinute: 60, spacing: 0.25, backoffStart: 2, backoffLimit: 600),
                     fallback: @escaping @Sendable () -> RadarSeries? = { nil }) -> TileLoopFeed {
        TileLoopFeed(source: RainViewerSource(indexURL: rv.indexURL), cache: cache, timeout: timeout, budget: budget, clock: { clock.now },
                       report: { lines.add($0) }, fallback: fallback)
    }

    /// Steps the feed as its thread would, moving the clock to each instant it asks for, until
    /// it has nothing to do or `until` (simulated seconds) passes. Returns the steps taken.
    @discardableResult
    static func run(_ feed: TileLoopFeed, _ clock: TestClock, until: Double) -> Int {
        var steps = 0
        while clock.now < until {
            steps += 1
            guard let next = feed.step() else { break }
            if next >= until { clock.now = until; break }
            clock.now = max(clock.now, next)
        }
        return steps
    }

    /// The frame (by colour) a composed frame shows in the square of tile `t` at mosaic column
    /// `c`, row `r`; nil when the square is clear.
    static func frameShown(_ image: any RasterTexture, column c: Int, row r: Int, tile t: TileID, frames: Int) -> Int? {
        let m = RainViewerStandIn.marker(tile: t)
        let px = image.color(atX: c * 256 + m.x + 4, y: r * 256 + m.y + 4)
        return (0..<frames).first { RainViewerStandIn.colour(frame: $0) == px }
    }

    @Test func theLoopIsTheIndexFramesWithTheirTimesEachTheMosaicOfTheView() throws {
        let rv = try RainViewerStandIn(newest: Self.newest)
        defer { rv.stop() }
        let clock = TestClock(Self.now), lines = Lines()
        let feed = Self.feed(rv, clock: clock, lines: lines)
        feed.want(visible: Self.europe.visible, zoom: Self.europe.zoom)
        Self.run(feed, clock, until: Self.now + 1200)
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.origin == .live)
        #expect(series.slots.map(\.time) == rv.times)
        #expect(series.slots.allSatisfy { $0.status == .ok })
        #expect(series.frameSlots.count == 13)
        #expect(series.provider == "127.0.0.1")
        #expect(series.legend == RadarLegend.universalBlue)
        let mosaic = try #require(TileMosaic.covering(Self.europe.visible, zoom: 4, maxZoom: 7))
        #expect(mosaic.z == 5)
        #expect(series.placement?.placement == .linear)
        #expect(series.placement?.corners == mosaic.corners)
        // Each tile asked once, and every frame's image shows its own tiles in their places.
        #expect(rv.tilesAsked.count == 13 * mosaic.columns * mosaic.rows)
        #expect(Set(rv.tilesAsked.map { "\($0.frame)/\($0.tile)" }).count == rv.tilesAsked.count)
        for (k, slot) in series.slots.enumerated() {
            let image = try #require(slot.image)
            #expect(image.width == mosaic.columns * 256 && image.height == mosaic.rows * 256)
            for (c, r, t) in mosaic.tiles where (c + r + k) % 5 == 0 {
                #expect(Self.frameShown(image, column: c, row: r, tile: t, frames: 13) == k, "frame \(k) tile \(t)")
            }
        }
        // The newest frame's tiles came first.
        #expect(rv.tilesAsked.prefix(mosaic.columns * mosaic.rows).allSatisfy { $0.frame == 12 })
        #expect(lines.all.isEmpty)
    }

    @Test func deeperViewsAskForZoomSevenAtMost() throws {
        let rv = try RainViewerStandIn(newest: Self.newest, count: 2)
        defer { rv.stop() }
        let clock = TestClock(Self.now)
        let feed = Self.feed(rv, clock: clock)
        let deep = Self.view(LngLat(lng: 139.7, lat: 35.7), zoom: 12)
        feed.want(visible: deep.visible, zoom: deep.zoom)
        Self.run(feed, clock, until: Self.now + 600)
        #expect(!rv.tilesAsked.isEmpty)
        #expect(rv.tilesAsked.allSatisfy { $0.tile.z == 7 })
        // The view is a sliver of one zoom-7 tile: one tile a frame.
        #expect(rv.tilesAsked.count == 2)
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.frameSlots.count == 2)
    }

    @Test func aZoomRefusedByContentIsNamedAndTheFeedAsksOneLess() throws {
        let rv = try RainViewerStandIn(newest: Self.newest, count: 1)
        defer { rv.stop() }
        rv.badZoom = [7: .json("Zoom level restricted to maximum 6")]
        let clock = TestClock(Self.now), lines = Lines()
        let feed = Self.feed(rv, clock: clock, lines: lines)
        let deep = Self.view(LngLat(lng: 2.35, lat: 48.85), zoom: 9)
        feed.want(visible: deep.visible, zoom: deep.zoom)
        Self.run(feed, clock, until: Self.now + 600)
        #expect(feed.maxZoom == 6)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("refuses zoom 7; asking zoom 6 at most") == true)
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.slots.last?.status == .ok)
        #expect(rv.tilesAsked.filter { $0.tile.z == 7 }.count == 1)
    }

    @Test func anHourOfPanningStaysWithinSixtyRequestsInAnyMinute() throws {
        let rv = try RainViewerStandIn(newest: Self.newest)
        defer { rv.stop() }
        rv.uniform = true
        let clock = TestClock(Self.now)
        let feed = Self.feed(rv, clock: clock)
        var requestTimes: [Double] = []
        var lng = -170.0
        // A small view (2 x 2 zoom-7 tiles) moves on by 3 degrees every 20 s: a new column of
        // tiles for every frame each time, more than the budget allows. Each request's instant noted.
        while clock.now < Self.now + 3600 {
            let v = Self.view(LngLat(lng: lng, lat: 20), zoom: 6, width: 256, height: 256)
            feed.want(visible: v.visible, zoom: v.zoom)
            let stop = clock.now + 20
            while clock.now < stop {
                let before = rv.server.requests
                let next = feed.step()
                for _ in before..<rv.server.requests { requestTimes.append(clock.now) }
                clock.now = min(stop, max(clock.now + 0.01, next ?? stop))
            }
            lng += 3
        }
        #expect(requestTimes.count > 2400)          // (it was busy all along: the budget, not the work, bounds it)
        var first = 0
        for (i, t) in requestTimes.enumerated() {
            while requestTimes[first] <= t - 60 { first += 1 }
            #expect(i - first + 1 <= 60, "\(i - first + 1) requests in the minute to \(t - Self.now) s")
            if i - first + 1 > 60 { break }
        }
        #expect(rv.indexAsked == 6 || rv.indexAsked == 7)     // every 10 minutes
    }

    @Test func anIndexThatFailsIsOneLineAndTheFallbackShows() throws {
        let rv = try RainViewerStandIn(newest: Self.newest)
        defer { rv.stop() }
        for bad: LocalHTTPServer.Behaviour in [.status(404, "<html>Not Found</html>"), .json("<!DOCTYPE html><html>maintenance</html>"),
                                              .json(#"{"version":"2.0","host":"https://x.example","radar":{"past":[]}}"#)] {
            rv.bad = ["/public/weather-maps.json": bad]
            let clock = TestClock(Self.now), lines = Lines()
            let demo = RadarSeries(origin: .demo, slots: [.init(time: nil, status: .ok, image: Pixmap(width: 2, height: 2), name: "demo")])
            let feed = Self.feed(rv, clock: clock, lines: lines, fallback: { demo })
            feed.want(visible: Self.europe.visible, zoom: Self.europe.zoom)
            Self.run(feed, clock, until: Self.now + 5)
            let (series, _) = try #require(feed.take(after: 0))
            #expect(series.origin == .demo)
            #expect(lines.all.count == 1, "\(lines.all)")
            #expect(lines.all.first?.hasPrefix(rv.indexURL.absoluteString + ": ") == true)
            #expect(rv.tilesAsked.isEmpty)
        }
    }

    @Test func badTilesAreNamedOnceTheirFramesWaitAnd429BacksOff() throws {
        let rv = try RainViewerStandIn(newest: Self.newest, count: 3)
        defer { rv.stop() }
        let clock = TestClock(Self.now), lines = Lines()
        let feed = Self.feed(rv, clock: clock, lines: lines, timeout: 1)
        let small = Self.view(LngLat(lng: 10, lat: 50), zoom: 4, width: 200, height: 200)
        feed.want(visible: small.visible, zoom: small.zoom)
        let mosaic = try #require(TileMosaic.covering(small.visible, zoom: 4, maxZoom: 7))
        let tiles = mosaic.tiles.map(\.tile)
        #expect(tiles.count >= 2)
        func target(_ k: Int, _ t: TileID) -> String { "\(RainViewerStandIn.path(k))/256/\(t.z)/\(t.x)/\(t.y)/2/1_0.png" }
        rv.bad = [target(1, tiles[0]): .json("<!DOCTYPE html><html><body>Bad gateway</body></html>"),
                  target(0, tiles[1]): .silent]
        Self.run(feed, clock, until: Self.now + 300)
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.slots.map(\.status) == [.missing, .missing, .ok])
        #expect(series.frameSlots == [2])
        #expect(lines.all.count == 2, "\(lines.all)")
        #expect(lines.all.contains { $0.contains(target(1, tiles[0])) && $0.contains("HTML") })
        #expect(lines.all.contains { $0.contains(target(0, tiles[1])) })
        // 429 on every tile: after the first, the feed waits (2, 4, 8 ... s) and asks again.
        let rv2 = try RainViewerStandIn(newest: Self.newest, count: 1)
        defer { rv2.stop() }
        rv2.badZoom = [5: .status(429, "Too Many Requests")]
        let clock2 = TestClock(Self.now), lines2 = Lines()
        let feed2 = Self.feed(rv2, clock: clock2, lines: lines2)
        feed2.want(visible: Self.europe.visible, zoom: Self.europe.zoom)
        Self.run(feed2, clock2, until: Self.now + 30)
        // Backing off from 2 s doubling: at most five tile requests in 30 s (0, 2, 6, 14, 30).
        #expect(rv2.tilesAsked.count >= 3 && rv2.tilesAsked.count <= 5, "\(rv2.tilesAsked.count)")
        #expect(!lines2.all.isEmpty && lines2.all.count <= rv2.tilesAsked.count)
        #expect(lines2.all.allSatisfy { $0.contains("429") })
    }

    @Test func offlineTheLoopComesFromTheDiskCacheLabelledCached() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-rainviewer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = RadarCache(directory: dir)
        let rv = try RainViewerStandIn(newest: Self.newest, count: 4)
        let clock = TestClock(Self.now)
        let online = Self.feed(rv, clock: clock, cache: cache)
        online.want(visible: Self.europe.visible, zoom: Self.europe.zoom)
        Self.run(online, clock, until: Self.now + 600)
        let asked = rv.server.requests
        rv.server.behaviour = .refuse
        let lines = Lines()
        let offline = Self.feed(rv, clock: clock, cache: cache, lines: lines)
        offline.want(visible: Self.europe.visible, zoom: Self.europe.zoom)
        Self.run(offline, clock, until: clock.now + 5)
        let (series, _) = try #require(offline.take(after: 0))
        #expect(series.origin == .cache)
        #expect(series.slots.map(\.time) == rv.times)
        #expect(series.frameSlots.count == 4)
        #expect(series.attribution.hasPrefix("radar: cached, "))
        #expect(lines.all.count == 1 && lines.all.first?.hasPrefix(rv.indexURL.absoluteString) == true, "\(lines.all)")
        #expect(rv.server.requests == asked)
        rv.stop()
    }
}
