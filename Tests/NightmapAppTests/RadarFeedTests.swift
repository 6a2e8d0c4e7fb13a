import Foundation
import MapCore
import MapData
import Raster
import Testing
import TestSupport
@testable import NightmapApp

/// The live radar against a local stand-in for a time-enabled WMS (issue 20): the slots asked
/// for, their order, the refresh, the disk cache, and every bad answer a real service gives.
@Suite(.serialized) struct RadarFeedTests {
    /// 2025-12-01T15:32:10Z: the newest 5-minute slot is 15:30, the oldest of twelve 14:35.
    static let now = 1_764_603_130.0
    static let newest = 1_764_603_000.0
    static let box = LngLatBounds(west: -80, south: 38, east: -72, north: 46)
    static let width = 120, height = 100


    typealias Lines = ReportedLines

    static func temporaryCache() -> RadarCache {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-radar-test-\(UUID().uuidString)")
        return RadarCache(directory: dir)
    }

    static func feed(_ wms: WMSStandIn, clock: TestClock, cache: RadarCache?, lines: Lines = Lines(), timeout: Double = 5,
                     fallback: @escaping @Sendable () -> RadarSeries? = { nil }) throws -> RadarFeed {
        let source = RadarFeed.Source(template: try RadarURLTemplate(wms.template), box: box, width: width, height: height,
                                      schedule: RadarSchedule(step: 300, count: 12), provider: "stand-in")
        return RadarFeed(source: source, cache: cache, timeout: timeout, clock: { clock.now }, report: { lines.add($0) }, fallback: fallback)
    }

    /// The slot whose square an image shows (nil: none), by looking for the square.
    static func slotShown(_ image: (any RasterTexture)?, _ wms: WMSStandIn) -> Int? {
        guard let image else { return nil }
        for k in 0..<14 {          // (the squares of a 120-pixel image repeat after 14 slots)
            let m = wms.marker(slot: k, width: image.width, height: image.height)
            if image.color(atX: m.x + 1, y: m.y + 1) == WMSStandIn.colour { return k }
        }
        return nil
    }

    @Test func asksForEachSlotOnceNewestFirstForTheBoxAndSize() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300)
        defer { wms.stop() }
        let feed = try Self.feed(wms, clock: TestClock(Self.now), cache: nil)
        feed.refresh()
        let asked = wms.timesAsked
        #expect(asked.count == 12)
        #expect(Set(asked) == Set((0..<12).map { RadarTime.iso(Self.newest - Double(11 - $0) * 300) }))
        // Newest first: one request at a time, the slots are asked newest to oldest. (With three
        // at once the server may see them a little out of order.)
        let single = try WMSStandIn(base: Self.newest - 11 * 300)
        defer { single.stop() }
        let one = RadarFeed(source: .init(template: try RadarURLTemplate(single.template), box: Self.box, width: Self.width, height: Self.height,
                                          schedule: RadarSchedule(step: 300, count: 12), provider: "stand-in"),
                            cache: nil, concurrency: 1, clock: { Self.now }, report: { _ in }, fallback: { nil })
        one.refresh()
        #expect(single.timesAsked == (0..<12).map { RadarTime.iso(Self.newest - Double($0) * 300) })
        let target = try #require(wms.server.targets.first)
        #expect(target.contains("BBOX=-80,38,-72,46") && target.contains("WIDTH=120") && target.contains("HEIGHT=100"))
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.origin == .live)
        #expect(series.slots.map(\.time) == (0..<12).map { Self.newest - Double(11 - $0) * 300 })
        #expect(series.slots.allSatisfy { $0.status == .ok })
        // Each frame is its own slot's image.
        #expect(series.slots.map { Self.slotShown($0.image, wms) } == (0..<12).map { $0 })
        #expect(series.attribution == "radar: stand-in")
        // Kept as palette indices: a quarter of the memory.
        #expect(series.slots.allSatisfy { $0.image is IndexedImage })
    }

    @Test func aRefreshFetchesOnlyTheNewSlotAndTheOldestDrops() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300)
        defer { wms.stop() }
        let clock = TestClock(Self.now)
        let feed = try Self.feed(wms, clock: clock, cache: nil)
        feed.refresh()
        let (first, g1) = try #require(feed.take(after: 0))
        clock.now += 300
        feed.refresh()
        #expect(wms.timesAsked.count == 13)
        #expect(wms.timesAsked.last == RadarTime.iso(Self.newest + 300))
        let (second, _) = try #require(feed.take(after: g1))
        #expect(second.slots.first?.time == Self.newest - 10 * 300)
        #expect(second.slots.last?.time == Self.newest + 300)
        #expect(Self.slotShown(second.slots.last?.image, wms) == 12)
        // The frames kept are the same images (nothing decoded twice, nothing redrawn).
        #expect(second.slots[0].image === first.slots[1].image)
    }

    @Test func theCacheServesARestartAndAnOfflineLaunchShowsTheLastLoopAsCached() throws {
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let wms = try WMSStandIn(base: Self.newest - 11 * 300)
        let clock = TestClock(Self.now)
        try Self.feed(wms, clock: clock, cache: cache).refresh()
        #expect(wms.timesAsked.count == 12)
        wms.stop()
        // A restart in the same window: every slot from disk, no request. The frames are
        // current but none came from the source: cached, with no error (nothing was asked).
        let again = try Self.feed(wms, clock: clock, cache: cache)
        again.refresh()
        let (same, _) = try #require(again.take(after: 0))
        #expect(same.origin == .cache && same.lastError == nil && same.slots.allSatisfy { $0.status == .ok })
        #expect(same.slots.map { Self.slotShown($0.image, wms) } == (0..<12).map { $0 })
        // Two hours later with the server gone: the last loop, labelled as cached.
        clock.now += 7200
        let lines = Lines()
        let offline = try Self.feed(wms, clock: clock, cache: cache, lines: lines, timeout: 1)
        offline.refresh()
        let (cached, _) = try #require(offline.take(after: 0))
        #expect(cached.origin == .cache)
        #expect(cached.slots.map(\.time) == (0..<12).map { Self.newest - Double(11 - $0) * 300 })
        #expect(cached.attribution == "radar: cached, 14:35-15:30 UTC")
        #expect(lines.all.count == 1, "one line for twelve refused slots: \(lines.all)")
        #expect(lines.all.first?.contains("connection refused") == true)
        #expect(lines.all.first?.contains("(and 11 more slots, 16:35-17:30 UTC)") == true)
    }

    /// The server gone after a loop was served: a refresh that reaches no server makes the loop
    /// `cache`, with the error, from the first series published on; the next refresh that gets
    /// a frame makes it `live` again and clears the error.
    @Test func aLoopNoRefreshCouldFetchIsCachedWithTheError() throws {
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let wms = try WMSStandIn(base: Self.newest - 11 * 300)
        defer { wms.stop() }
        let clock = TestClock(Self.now)
        let feed = try Self.feed(wms, clock: clock, cache: cache, timeout: 1)
        feed.refresh()
        let (served, g1) = try #require(feed.take(after: 0))
        #expect(served.origin == .live && served.lastError == nil)

        // The server stops; one slot later the refresh asks for the new slot and is refused.
        let serving = wms.server.behaviour
        wms.server.behaviour = .refuse
        clock.now += 300
        feed.refresh()
        let (kept, _) = try #require(feed.take(after: g1))
        #expect(kept.origin == .cache)
        #expect(kept.lastError?.contains("connection refused") == true, "\(kept.lastError ?? "no error")")
        #expect(kept.frameSlots.count == 11, "the eleven slots still in the window play on")

        // A restart one more slot later, the server answering no request (each connection is
        // reset): the loop read from disk is published before the source is asked, and is what
        // shows while it is asked (each request looks at it); cached from the start.
        clock.now += 300
        let restart = try Self.feed(wms, clock: clock, cache: cache, timeout: 1)
        let shownWhileAsked = Lines()
        let reset = LocalHTTPServer.Behaviour.route { _ in
            shownWhileAsked.add(restart.take(after: 0)?.series.origin.rawValue ?? "nothing")
            return .reset
        }
        wms.bad = [RadarTime.iso(Self.newest + 300): reset, RadarTime.iso(Self.newest + 600): reset]
        wms.server.behaviour = serving
        restart.refresh()
        #expect(!shownWhileAsked.all.isEmpty && shownWhileAsked.all.allSatisfy { $0 == "cache" }, "\(shownWhileAsked.all)")
        let (offline, g2) = try #require(restart.take(after: 0))
        #expect(offline.origin == .cache && offline.lastError != nil, "\(offline.origin) \(offline.lastError ?? "no error")")

        // The server answers again: live, and no error.
        wms.bad = [:]
        clock.now += 300
        restart.refresh()
        let (back, _) = try #require(restart.take(after: g2))
        #expect(back.origin == .live && back.lastError == nil, "\(back.origin) \(back.lastError ?? "no error")")
    }

    @Test func withNothingCachedTheFallbackShows() throws {
        let wms = try WMSStandIn(base: Self.newest)
        wms.server.behaviour = .refuse
        defer { wms.stop() }
        let demo = RadarSeries(origin: .demo, slots: [.init(time: nil, status: .ok, image: Pixmap(width: 2, height: 2), name: "d")])
        let feed = try Self.feed(wms, clock: TestClock(Self.now), cache: Self.temporaryCache(), fallback: { demo })
        feed.refresh()
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.origin == .demo)
        #expect(series.lastError?.contains("connection refused") == true)
    }

    /// Every bad answer: one line naming the URL and the problem, the slot marked, the rest
    /// shown, nothing bad in the cache.
    @Test func everyBadAnswerIsNamedAndTheLoopPlaysOn() throws {
        let base = Self.newest - 11 * 300
        let wms = try WMSStandIn(base: base)
        defer { wms.stop() }
        func slot(_ k: Int) -> String { RadarTime.iso(base + Double(k) * 300) }
        let opaque = Pixmap(width: Self.width, height: Self.height)
        opaque.clear(RGBA8(0, 0, 0, 255).premultiplied)
        let good = wms.png(width: Self.width, height: Self.height, slot: 0)
        let cases: [(Int, LocalHTTPServer.Behaviour, RadarSeries.Status, String)] = [
            (0, .status(404, "<html>not found</html>"), .missing, "HTTP 404"),
            (1, .status(500, "<html>oops</html>"), .error, "HTTP 500"),
            (2, .status(200, "<!DOCTYPE html><html><body>Bad Gateway</body></html>"), .error, "an HTML page, not an image"),
            (3, .image(Data(#"<?xml version="1.0"?><ServiceExceptionReport version="1.1.1"><ServiceException code="InvalidDimensionValue">Time 2026 is not available</ServiceException></ServiceExceptionReport>"#.utf8), type: "application/vnd.ogc.se_xml"),
             .error, "WMS service exception: Time 2026 is not available"),
            (4, .image(Data(), type: "image/png"), .error, "empty answer"),
            (5, .image(good.prefix(good.count / 2), type: "image/png"), .error, "PNG"),
            (6, .image(wms.png(width: 10, height: 10, slot: 0), type: "image/png"), .error, "image is 10x10, asked for 120x100"),
            (7, .image(try PNGCodec.encode(opaque), type: "image/png"), .error, "no transparent pixels"),
            (8, .silent, .missing, "no answer within 1 s"),
            (9, .huge(bytes: 100 << 20), .error, "larger than"),
            (10, .trickle(String(repeating: "x", count: 400), perByte: 0.05), .error, "answer not complete within 1 s"),
        ]
        var bad: [String: LocalHTTPServer.Behaviour] = [:]
        for (k, b, _, _) in cases { bad[slot(k)] = b }
        wms.bad = bad
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let lines = Lines()
        let feed = try Self.feed(wms, clock: TestClock(Self.now), cache: cache, lines: lines, timeout: 1)
        let started = Date()
        feed.refresh()
        #expect(Date().timeIntervalSince(started) < 8, "a hanging slot held the refresh")
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.origin == .live)
        for (k, _, status, words) in cases {
            #expect(series.slots[k].status == status, "slot \(k)")
            let line = lines.all.first { $0.contains("TIME=\(slot(k))") }
            #expect(line?.contains(words) == true, "slot \(k): \(line ?? "no line")")
        }
        #expect(series.slots[11].status == .ok)
        #expect(series.frameSlots == [11])
        #expect(lines.all.count == cases.count, "\(lines.all)")
        // Only the good answers are in the cache, and no temporary file is left.
        let key = RadarCache.key(template: try RadarURLTemplate(wms.template), box: Self.box, width: Self.width, height: Self.height)
        #expect(cache.times(key: key) == [base + 11 * 300])
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.appendingPathComponent(key).path)
        #expect(files.sorted() == ["202512011530.png", "source.txt"])
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        // The next refresh asks the bad slots again, and only them.
        wms.bad = [:]
        let before = wms.timesAsked.count
        feed.refresh()
        #expect(wms.timesAsked.count - before == cases.count)
        #expect(feed.take(after: 0)?.series.frameSlots.count == 12)
    }

    @Test func aClockThatRunsBackwardsKeepsTheSlotsInOrderAndNoneFromTheFuture() throws {
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let wms = try WMSStandIn(base: Self.newest - 11 * 300)
        let clock = TestClock(Self.now)
        let feed = try Self.feed(wms, clock: clock, cache: cache)
        feed.refresh()
        clock.now -= 1800
        feed.refresh()
        let (series, _) = try #require(feed.take(after: 0))
        let times = series.slots.compactMap(\.time)
        #expect(times == times.sorted() && times.count == 12)
        #expect(times.last == Self.newest - 1800)
        // Offline, three hours before the cached frames: they are from the future and skipped.
        wms.stop()
        clock.now = Self.now - 3 * 3600
        let lines = Lines()
        let early = try Self.feed(wms, clock: clock, cache: cache, lines: lines, timeout: 1, fallback: {
            RadarSeries(origin: .demo, slots: [.init(time: nil, status: .ok, image: Pixmap(width: 2, height: 2), name: "d")])
        })
        early.refresh()
        #expect(early.take(after: 0)?.series.origin == .demo)
        #expect(lines.all.contains { $0.contains("is later than now") })
    }

    /// IEM's archive form: a whole mosaic with a world file beside it, cropped to the box as it
    /// is read; the cache keeps the box only, and the world file is asked for once.
    @Test func aWholeMosaicWithAWorldFileIsCroppedToTheBox() throws {
        let mosaicImage = Pixmap(width: 2440, height: 1080)          // 0.025° a pixel from 126° W, 50° N
        let (sx, sy) = (Int((-76.0 + 126) / 0.025), Int((50 - 42.0) / 0.025))
        for y in (sy - 3)...(sy + 3) { for x in (sx - 3)...(sx + 3) { mosaicImage[x, y] = RGBA8(255, 0, 255).premultiplied.packed } }
        let mosaic = try PNGCodec.encode(mosaicImage)
        let world = Data("0.025\n0.0\n0.0\n-0.025\n-125.9875\n49.9875\n".utf8)
        let server = try LocalHTTPServer(.route { target in
            target.hasSuffix(".wld") ? .image(world, type: "text/plain") : .image(mosaic, type: "image/png")
        })
        defer { server.stop() }
        let cache = Self.temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let template = try RadarURLTemplate("http://127.0.0.1:\(server.port)/archive/{yyyy}/{MM}/{dd}/GIS/uscomp/n0q_{yyyy}{MM}{dd}{HH}{mm}.png")
        let source = RadarFeed.Source(template: template, box: Self.box, width: 160, height: 200,
                                      schedule: RadarSchedule(step: 300, count: 3), provider: "archive")
        let lines = Lines()
        let feed = RadarFeed(source: source, cache: cache, clock: { Self.now }, report: { lines.add($0) }, fallback: { nil })
        feed.refresh()
        let (series, _) = try #require(feed.take(after: 0))
        #expect(series.slots.allSatisfy { $0.status == .ok }, "\(lines.all)")
        let image = try #require(series.slots.last?.image)
        #expect(image.width == 160 && image.height == 200)
        #expect(image.color(atX: Int((-76.0 + 80) / 8 * 160), y: Int((46 - 42.0) / 8 * 200)) == RGBA8(255, 0, 255))
        #expect(server.targets.filter { $0.hasSuffix(".wld") }.count == 1)
        #expect(server.targets.contains("/archive/2025/12/01/GIS/uscomp/n0q_202512011530.png"))
        let key = RadarCache.key(template: template, box: Self.box, width: 160, height: 200)
        let cached = try #require(cache.read(key: key, time: Self.newest))
        #expect(RadarImage.declaredSize(cached.data).map { [$0.width, $0.height] } == [160, 200])
    }

    /// A source that does not answer takes its time limit to say so: the fallback shows at once,
    /// before the source is asked (each request looks at what is shown when it arrives).
    @Test func theFallbackShowsWhileASilentSourceIsAsked() throws {
        let wms = try WMSStandIn(base: Self.newest)
        defer { wms.stop() }
        let demo = RadarSeries(origin: .demo, slots: [.init(time: nil, status: .ok, image: Pixmap(width: 2, height: 2), name: "d")])
        let shownWhileAsked = Lines()
        let box = FeedBox()
        wms.server.behaviour = .route { _ in
            shownWhileAsked.add(box.feed?.take(after: 0)?.series.origin.rawValue ?? "nothing")
            return .silent
        }
        let feed = try Self.feed(wms, clock: TestClock(Self.now), cache: Self.temporaryCache(), timeout: 1, fallback: { demo })
        box.feed = feed
        feed.refresh()
        #expect(!shownWhileAsked.all.isEmpty && shownWhileAsked.all.allSatisfy { $0 == "demo" }, "shown while the source was asked: \(shownWhileAsked.all)")
        #expect(feed.take(after: 0)?.series.origin == .demo)
    }

    /// Lets a server's answer reach a feed made after the server.
    final class FeedBox: @unchecked Sendable { var feed: RadarFeed? }

    @Test func aDeadlineBoundsTheRefresh() throws {
        let wms = try WMSStandIn(base: Self.newest)
        wms.server.behaviour = .silent
        defer { wms.stop() }
        let feed = try Self.feed(wms, clock: TestClock(Self.now), cache: nil, timeout: 30)
        let started = Date()
        feed.refresh(deadline: ProcessInfo.processInfo.systemUptime + 1)
        #expect(Date().timeIntervalSince(started) < 4)
    }
}

@Suite struct RadarScheduleTests {
    @Test func slotsEndAtTheLatestMultipleOfTheStep() {
        let s = RadarSchedule(step: 300, count: 12)
        #expect(s.newest(at: 1_764_603_130) == 1_764_603_000)
        #expect(s.newest(at: 1_764_603_000) == 1_764_603_000)
        let slots = s.slots(at: 1_764_603_130)
        #expect(slots.count == 12 && slots.first == 1_764_603_000 - 3300 && slots == slots.sorted())
        #expect(s.nextSlot(after: 1_764_603_130) == 1_764_603_300)
        // Six-minute slots (ECCC) are multiples of six minutes of UTC.
        #expect(RadarSchedule(step: 360, count: 1).slots(at: 1_764_603_430) == [1_764_603_360])    // 15:37:10 -> 15:36
    }

    @Test func templatesFillEveryPlaceholder() throws {
        let t = try RadarURLTemplate("https://example.org/{yyyy}/{MM}/{dd}/n0q_{yyyy}{MM}{dd}{HH}{mm}.png?t={time}&b={bbox}&w={width}&h={height}")
        let url = t.url(time: 1_764_603_000, box: LngLatBounds(west: -80.425, south: 37.936, east: -71.5, north: 46.437), width: 806, height: 1040)
        #expect(url?.absoluteString == "https://example.org/2025/12/01/n0q_202512011530.png?t=2025-12-01T15:30:00Z&b=-80.425,37.936,-71.5,46.437&w=806&h=1040")
        #expect(throws: RadarURLTemplate.Failure.self) { try RadarURLTemplate("https://x.org/?t={when}") }
        #expect(throws: RadarURLTemplate.Failure.self) { try RadarURLTemplate("ftp://x.org/{time}") }
        #expect(throws: RadarURLTemplate.Failure.self) { try RadarURLTemplate("https://x.org/{time") }
        #expect(RadarURLTemplate.iem.host == "mesonet.agron.iastate.edu")
        #expect(try RadarURLTemplate(RadarURLTemplate.iem.text) == .iem)
        #expect(RadarURLTemplate.iem.text.contains("SRS=EPSG:4326") && RadarURLTemplate.iem.text.contains("LAYERS=nexrad-n0q-wmst"))
    }

    @Test func theRequestIsTheBoxAtTheMaximumZoom() {
        // The weather example's box at zoom 5.99: 806 x 1040 pixels.
        let s = RadarFeed.Source.requestSize(box: LngLatBounds(west: -80.425, south: 37.936, east: -71.516, north: 46.437), maxZoom: 5.99)
        #expect(s.width == 806 && s.height == 1040)
    }
}
