import Foundation
import NightmapApp
import MapCore
import MapData
import Testing
import TestSupport

/// The live ISS feed against a local server that answers well and badly. No test touches the
/// internet.
@Suite(.serialized) struct IssFeedTests {
    /// One answer of the real feed (Tests/Fixtures/iss, see its README); a missing file fails loudly.
    static let sample = try! String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/iss/wheretheiss-sample.json").standardizedFileURL.path, encoding: .utf8)

    func fetch(_ b: LocalHTTPServer.Behaviour, timeout: Double = 2) throws -> (Result<IssFix, IssFeedClient.FeedError>, Double) {
        let server = try LocalHTTPServer(b)
        defer { server.stop() }
        let client = IssFeedClient(url: server.url, timeout: timeout)
        let start = Date()
        let r = client.fetchNow()
        return (r, Date().timeIntervalSince(start))
    }

    func failure(_ r: Result<IssFix, IssFeedClient.FeedError>) -> String? {
        if case let .failure(e) = r { return e.description }
        return nil
    }

    @Test func aNormalAnswerGivesAFix() throws {
        let (r, _) = try fetch(.json(Self.sample))
        let fix = try r.get()
        #expect(fix.source == .live)
        #expect((-90...90).contains(fix.position.lat) && (-180...180).contains(fix.position.lng))
        #expect(fix.altitudeKm > 300 && fix.altitudeKm < 500)
    }

    /// An interim "100 Continue" before the answer is skipped, not taken for the answer's status.
    @Test func anInterimResponseBeforeTheAnswerIsSkipped() throws {
        let body = #"{"latitude": 10, "longitude": 20, "altitude": 420, "timestamp": 1764480000}"#
        let raw = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let (r, _) = try fetch(.raw(Data(raw.utf8)))
        #expect(try r.get().position == LngLat(lng: 20, lat: 10))
    }

    @Test func longitudesFrom0To360AreNormalised() throws {
        let (r, _) = try fetch(.json(#"{"latitude": 10, "longitude": 300, "altitude": 420, "timestamp": 1764480000}"#))
        #expect(abs(try r.get().position.lng - -60) < 1e-9)
    }

    @Test(arguments: [
        ("500", LocalHTTPServer.Behaviour.status(500, "<html>oops</html>"), "HTTP 500"),
        ("html 200", .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n<html>no</html>".utf8)), "HTML"),
        ("malformed", .json(#"{"latitude": 10, "longitude": "#), "not valid JSON"),
        ("not an object", .json("[1, 2, 3]"), "not a JSON object"),
        ("NaN", .json(#"{"latitude": NaN, "longitude": 1, "altitude": 420, "timestamp": 1}"#), "not valid JSON"),
        ("out of range", .json(#"{"latitude": 91, "longitude": 1, "altitude": 420, "timestamp": 1}"#), "out of range"),
        ("missing field", .json(#"{"latitude": 1, "altitude": 420, "timestamp": 1}"#), "longitude"),
        ("string numbers", .json(#"{"latitude": "1", "longitude": 1, "altitude": 420, "timestamp": 1}"#), "latitude"),
        ("boolean for a number", .json(#"{"latitude": true, "longitude": 1, "altitude": 420, "timestamp": 1}"#), "no numeric \"latitude\""),
        ("invalid utf-8", .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n".utf8) + Data([0xFF, 0xFE, 0x7B, 0x80])), "JSON"),
        ("deep nesting", .json(String(repeating: "[", count: 20_000)), ""),    // the parser's answer: see below
        // Any one-line error naming the URL, fast, is what counts here (the wording is checked
        // in IssFeedFaultTests).
        ("10 MB", .huge(bytes: 10_000_000), ""),
        ("redirect loop", .redirectLoop, ""),
    ])
    func badAnswersGiveOneLineErrors(_ name: String, _ behaviour: LocalHTTPServer.Behaviour, _ message: String) throws {
        var (r, elapsed) = try fetch(behaviour)
        var e = failure(r)
        // On a loaded machine the test server now and then closes before its short answer is read
        // ("closed the connection without answering", still a one-line error naming the URL); ask
        // once more for the exact wording.
        if !message.isEmpty, let first = e, first.contains("without answering") {
            (r, elapsed) = try fetch(behaviour)
            e = failure(r)
        }
        #expect(e != nil, "\(name) was accepted")
        if let e {
            #expect(e.contains("127.0.0.1") && (message.isEmpty || e.lowercased().contains(message.lowercased())) && !e.contains("\n"), "\(name): \(e)")
        }
        #expect(elapsed < 3.5, "\(name) took \(elapsed) s")
    }

    /// Four threads, a hundred requests each, every answer over the limit and stopped there:
    /// each request fails with the limit's words, none crashes or hangs. (Stopping a transfer
    /// early is where URLSession, which this client used before, crashed now and then: a task
    /// cancelled while its transfer completed reached a `fatalError` in swift-corelibs-foundation.)
    @Test func manyConcurrentRequestsStopAtTheirLimit() throws {
        let server = try LocalHTTPServer(.huge(bytes: 2_000_000, announced: false, pause: 0))
        defer { server.stop() }
        let limited = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100 {
                let client = IssFeedClient(url: server.url, timeout: 2, maxBytes: 1024)
                if case let .failure(e) = client.fetchNow(), e.description.contains("larger than the 1 KB limit") { limited.add() }
            }
        }
        #expect(limited.value == 400)
    }

    @Test func theParserRejectsWhatServersSendBadly() {
        func error(_ d: Data) -> String? {
            if case let .failure(e) = IssFeedClient.parse(d, origin: "x") { return e.description }
            return nil
        }
        #expect(error(Data(String(repeating: "[", count: 100_000).utf8))?.contains("not valid JSON") == true)
        #expect(error(Data([0xFF, 0xFE, 0x7B, 0x80]))?.contains("not valid JSON") == true)
        #expect(error(Data(#"{"latitude": NaN, "longitude": 1, "altitude": 420, "timestamp": 1}"#.utf8)) != nil)
        #expect(error(Data(#"{"latitude": 1e400, "longitude": 1, "altitude": 420, "timestamp": 1}"#.utf8)) != nil)
        #expect(error(Data("<!DOCTYPE html><html>502</html>".utf8))?.contains("HTML") == true)
        #expect(error(Data()) == "x: empty answer")
    }

    @Test(arguments: [("silent", LocalHTTPServer.Behaviour.silent), ("headers then hang", .headersThenHang),
                      ("trickle", .trickle(sample, perByte: 0.2))])
    func slowServersTimeOut(_ name: String, _ behaviour: LocalHTTPServer.Behaviour) throws {
        let (r, elapsed) = try fetch(behaviour, timeout: 1)
        #expect(failure(r) != nil, "\(name) was accepted")
        #expect(elapsed < 2.5, "\(name) took \(elapsed) s (limit 1 s)")
    }

    @Test func connectionRefused() throws {
        let server = try LocalHTTPServer(.json("{}"))
        let url = server.url
        server.stop()
        let r = IssFeedClient(url: url, timeout: 1).fetchNow()
        #expect(failure(r)?.contains("127.0.0.1") == true)
    }

    @Test func thePollerNeverBlocksAndKeepsTheLastPosition() throws {
        let good = try LocalHTTPServer(.json(#"{"latitude": 10, "longitude": 20, "altitude": 420, "timestamp": 1764480000}"#))
        defer { good.stop() }
        let poller = IssFeedPoller(client: IssFeedClient(url: good.url, timeout: 1), interval: 0.2)
        poller.start()
        defer { poller.stop() }
        var tracker = IssTracker(mode: .auto, orbit: nil)
        var frames: [Double] = []
        // Frames until three answers have come (each frame waits for the poller to have
        // something, at most 5 s in all): draining the inbox never waits on the network.
        let end = Date().addingTimeInterval(5)
        var fixes = 0
        while fixes < 3 && Date() < end {
            let t0 = Date()
            for e in poller.drain() {
                if case let .fix(f) = e { tracker.receive(f); fixes += 1 }
            }
            frames.append(Date().timeIntervalSince(t0))
            _ = poller.waitForEvents(timeout: max(0, end.timeIntervalSinceNow))
        }
        #expect(fixes >= 3, "\(fixes) fixes in 5 s at one request every 0.2 s")
        #expect(tracker.lastLive?.position == LngLat(lng: 20, lat: 10))
        // Draining takes microseconds; 20 ms leaves room for a busy machine descheduling the thread.
        #expect((frames.max() ?? 0) < 0.02, "a drain took \((frames.max() ?? 0) * 1000) ms")
        tracker.failed(at: 1764480005, reason: "x")
        #expect(tracker.position(at: 1764480005)?.fix.position == LngLat(lng: 20, lat: 10))
    }

    @Test func autoFallsBackToTheOrbitAndReturns() {
        let orbit: IssTracker.Orbit = { t in (LngLat(lng: -100, lat: 0), 420) }
        var tracker = IssTracker(mode: .auto, orbit: orbit)
        tracker.receive(IssFix(time: 100, position: LngLat(lng: 5, lat: 5), altitudeKm: 420, source: .live))
        #expect(tracker.position(at: 100.5)?.fix.source == .live)
        tracker.failed(at: 101, reason: "HTTP 500")
        #expect(tracker.position(at: 101.2)?.fix.source == .tle)
        tracker.receive(IssFix(time: 102, position: LngLat(lng: 6, lat: 5), altitudeKm: 420, source: .live))
        #expect(tracker.position(at: 102.1)?.fix.source == .live)
        // A stalled feed (no answer for 3 s) also falls back.
        #expect(tracker.position(at: 106)?.fix.source == .tle)
        // `live` keeps the last position instead.
        var live = IssTracker(mode: .live, orbit: orbit)
        live.receive(IssFix(time: 100, position: LngLat(lng: 5, lat: 5), altitudeKm: 420, source: .live))
        live.failed(at: 101, reason: "x")
        #expect(live.position(at: 200)?.fix.position == LngLat(lng: 5, lat: 5))
    }

    /// A server that comes back with the fix it gave before the failure: the failure is over
    /// (the status line stops naming it), the position stays the newest one.
    @Test func aRepeatedFixAfterAFailureEndsTheFailure() {
        var tracker = IssTracker(mode: .live, orbit: nil)
        let fix = IssFix(time: 100, position: LngLat(lng: 5, lat: 5), altitudeKm: 420, source: .live)
        tracker.receive(fix)
        tracker.failed(at: 101, reason: "HTTP 500")
        #expect(tracker.lastFailure?.reason == "HTTP 500")
        tracker.receive(fix)
        #expect(tracker.lastFailure == nil)
        tracker.receive(IssFix(time: 90, position: LngLat(lng: 1, lat: 1), altitudeKm: 420, source: .live))
        #expect(tracker.lastLive?.position == LngLat(lng: 5, lat: 5))
        #expect(tracker.previousLive == nil)
    }

    @Test func motionBetweenFixesIsContinuous() {
        var tracker = IssTracker(mode: .live, orbit: nil)
        tracker.receive(IssFix(time: 0, position: LngLat(lng: 179.9, lat: 10), altitudeKm: 420, source: .live))
        tracker.receive(IssFix(time: 1, position: LngLat(lng: -179.9, lat: 10.05), altitudeKm: 420, source: .live))
        // Half a second later: carried on along the last step, across the antimeridian.
        let p = tracker.position(at: 1.5)!.fix.position
        #expect(abs(p.lng - -179.8) < 1e-9 && abs(p.lat - 10.075) < 1e-9)
        // Within one second the step is at most one fix's worth: no jumps.
        var last = tracker.position(at: 1)!.fix.position
        for k in 1...60 {
            let q = tracker.position(at: 1 + Double(k) / 60)!.fix.position
            #expect(abs(q.lng - last.lng) < 0.01)
            last = q
        }
    }

    @Test func groundTrackSplitsAtTheAntimeridian() {
        // A fake orbit moving east 1 degree per 10 s.
        let orbit: IssTracker.Orbit = { t in (LngLat(lng: 170 + t / 10, lat: 0).wrapped, 420) }
        let tracker = IssTracker(mode: .tle, orbit: orbit)
        let lines = tracker.groundTrack(from: 0, to: 400, step: 30)
        #expect(lines.count == 2)
        #expect(lines[0].last?.lng == 180 && lines[1].first?.lng == -180)
        #expect(lines.allSatisfy { line in zip(line, line.dropFirst()).allSatisfy { abs($0.lng - $1.lng) <= 180 } })
    }
}

/// Keeping the element set current by CelesTrak's rules (a local server stands in for it).
@Suite(.serialized) struct ElementsRefreshTests {
    static let tle = """
    ISS (ZARYA)
    1 25544U 98067A   25274.49975208  .00018288  00000-0  33242-3 0  9998
    2 25544  51.6325 140.1428 0001055 183.8834 176.2147 15.49589290531650
    """
    static let older = """
    ISS (ZARYA)
    1 25544U 98067A   25194.43411487  .00010152  00000-0  18227-3 0  9995
    2 25544  51.6340 176.9702 0002675   6.8375 353.2650 15.50520436519237
    """
    /// The epochs of `tle` (2025-10-01 11:59:38 UTC) and `older`.
    static let epoch = 1_759_319_978.1, olderEpoch = 1_752_403_747.0
    /// A wall clock two days after `tle`'s epoch (its set is stale then).
    static let now = epoch + 2 * 86400

    func tempCache() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tle-\(UUID().uuidString)/nightmap/iss.tle")
    }

    /// The text with each data line's last digit set to its checksum (digits, and 1 for '-', mod 10).
    static func checksummed(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count == 69, line.hasPrefix("1 ") || line.hasPrefix("2 ") else { return String(line) }
            let sum = line.dropLast().reduce(0) { $0 + ($1 == "-" ? 1 : Int(String($1)) ?? 0) }
            return line.dropLast() + String(sum % 10)
        }.joined(separator: "\n")
    }

    func refresh(_ server: LocalHTTPServer, _ cache: URL) -> ElementsRefresh {
        ElementsRefresh(url: URL(string: "http://127.0.0.1:\(server.port)/NORAD/elements/gp.php?CATNR=25544&FORMAT=TLE")!, cache: cache)
    }

    @Test func threeLaunchesInTwoHoursMakeOneRequest() throws {
        let server = try LocalHTTPServer(.json(Self.tle))
        defer { server.stop() }
        let cache = tempCache()
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent().deletingLastPathComponent()) }
        let r = refresh(server, cache)
        // The bundled set is the older one: stale at `now`.
        guard case let .downloaded(orbit) = r.run(now: Self.now, instant: Self.now, newestEpoch: Self.olderEpoch) else {
            Issue.record("the first launch did not download"); return
        }
        #expect(abs(orbit.epoch - Self.epoch) < 1)
        #expect(server.targets == ["/NORAD/elements/gp.php?CATNR=25544&FORMAT=TLE"])
        #expect(abs((ElementsRefresh.modified(cache) ?? 0) - Self.now) < 0.01)
        // The next launches find the cache (the set is still 2 days old): they wait for 2 hours
        // from the cache file's time, and ask nothing.
        for later in [1800.0, 7199] {
            guard case let .waiting(until, _) = r.run(now: Self.now + later, instant: Self.now + later, newestEpoch: Self.epoch) else {
                Issue.record("launch at +\(later) s did not wait"); return
            }
            #expect(abs(until - (Self.now + 7200)) < 0.01)
        }
        #expect(server.requests == 1)
        // After 2 hours it may ask again.
        if case .downloaded = r.run(now: Self.now + 7201, instant: Self.now + 7201, newestEpoch: Self.epoch) {} else { Issue.record("no request after 2 hours") }
        #expect(server.requests == 2)
    }

    @Test func aFreshSetAsksNothing() throws {
        let server = try LocalHTTPServer(.json(Self.tle))
        defer { server.stop() }
        let r = refresh(server, tempCache())
        // 11 hours old at the instant shown; and a map of a day before the set needs nothing newer.
        if case .upToDate = r.run(now: Self.epoch + 11 * 3600, instant: Self.epoch + 11 * 3600, newestEpoch: Self.epoch) {} else { Issue.record("fresh set refreshed") }
        if case .upToDate = r.run(now: Self.now, instant: Self.epoch - 86400, newestEpoch: Self.epoch) {} else { Issue.record("past map refreshed") }
        #expect(server.requests == 0)
    }

    @Test(arguments: [403, 404, 503, 302])
    func aRefusalStopsTriesForTwoHoursAndIsSaidOnce(_ status: Int) throws {
        let server = try LocalHTTPServer(status == 302 ? .redirectLoop : .status(status, "GP data has not updated since your last successful download"))
        defer { server.stop() }
        let cache = tempCache()
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.older.write(to: cache, atomically: true, encoding: .utf8)
        ElementsRefresh.touch(cache, at: Self.now - 3 * 3600)
        let r = refresh(server, cache)
        guard case let .failed(reason) = r.run(now: Self.now, instant: Self.now, newestEpoch: Self.olderEpoch) else {
            Issue.record("HTTP \(status) accepted"); return
        }
        #expect(reason.contains("127.0.0.1") && reason.contains("HTTP \(status)") && reason.contains("2 hours") && !reason.contains("\n"), "\(reason)")
        #expect(server.requests == 1)
        #expect(try String(contentsOf: cache, encoding: .utf8) == Self.older)
        // Later runs, and other processes, wait quietly until 2 hours after the refusal.
        guard case let .waiting(until, why) = r.run(now: Self.now + 3600, instant: Self.now + 3600, newestEpoch: Self.olderEpoch) else {
            Issue.record("HTTP \(status): the next run did not wait"); return
        }
        #expect(abs(until - (Self.now + 7200)) < 0.01 && why.contains("HTTP \(status)"))
        #expect(server.requests == 1)
        _ = r.run(now: Self.now + 7201, instant: Self.now + 7201, newestEpoch: Self.olderEpoch)
        #expect(server.requests == 2)
    }

    @Test(arguments: [("garbage", LocalHTTPServer.Behaviour.json("<html>maintenance</html>")),
                      ("bad checksum", .json(ElementsRefreshTests.tle.replacingOccurrences(of: "9998", with: "9997"))),
                      ("another satellite", .json(ElementsRefreshTests.checksummed(ElementsRefreshTests.tle.replacingOccurrences(of: "25544", with: "48274")))),
                      ("empty", .json("")),
                      ("cut short", .cutShort(ElementsRefreshTests.tle))])
    func aBadBodyNeverReplacesTheCache(_ name: String, _ b: LocalHTTPServer.Behaviour) throws {
        let server = try LocalHTTPServer(b)
        defer { server.stop() }
        let cache = tempCache()
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.older.write(to: cache, atomically: true, encoding: .utf8)
        ElementsRefresh.touch(cache, at: Self.now - 3 * 3600)
        let r = refresh(server, cache)
        guard case let .failed(reason) = r.run(now: Self.now, instant: Self.now, newestEpoch: Self.olderEpoch) else {
            Issue.record("\(name) accepted"); return
        }
        #expect(reason.contains("127.0.0.1") && !reason.contains("\n"), "\(name): \(reason)")
        #expect(try String(contentsOf: cache, encoding: .utf8) == Self.older, "\(name)")
        if name == "another satellite" { #expect(reason.contains("25544") && reason.contains("48274"), "\(reason)") }
        // Whatever the body, the next run does not ask again within 2 hours.
        _ = r.run(now: Self.now + 60, instant: Self.now + 60, newestEpoch: Self.olderEpoch)
        #expect(server.requests == 1, "\(name)")
    }

    @Test func aSetFromTheFutureIsRefused() throws {
        let server = try LocalHTTPServer(.json(Self.tle))
        defer { server.stop() }
        let cache = tempCache()
        let r = refresh(server, cache)
        // The wall clock 2 days before the set's epoch: more than a day ahead.
        guard case let .failed(reason) = r.run(now: Self.epoch - 2 * 86400, instant: Self.epoch - 2 * 86400, newestEpoch: Self.olderEpoch) else {
            Issue.record("a set 2 days ahead accepted"); return
        }
        #expect(reason.contains("ahead of the clock"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test func noAnswerIsNoRefusal() throws {
        let server = try LocalHTTPServer(.refuse)
        defer { server.stop() }
        let cache = tempCache()
        let r = refresh(server, cache)
        guard case let .failed(reason) = r.run(now: Self.now, instant: Self.now, newestEpoch: Self.olderEpoch) else {
            Issue.record("no failure"); return
        }
        #expect(reason.contains("connection refused") && !reason.contains("2 hours"), "\(reason)")
        // Nothing answered, so nothing pauses: the next launch may try.
        #expect(r.pause() == nil)
        if case .fetch = r.plan(now: Self.now + 60, instant: Self.now + 60, newestEpoch: Self.olderEpoch) {} else { Issue.record("paused after no answer") }
    }

    @Test func theSetNearestTheInstantWins() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let new = dir.appendingPathComponent("new.tle"), old = dir.appendingPathComponent("old.tle"), bad = dir.appendingPathComponent("bad.tle")
        try Self.tle.write(to: new, atomically: true, encoding: .utf8)
        try Self.older.write(to: old, atomically: true, encoding: .utf8)
        try "not a TLE".write(to: bad, atomically: true, encoding: .utf8)
        var reports: [String] = []
        let paths = [old.path, bad.path, new.path, "/nonexistent.tle"]
        let best = TLECache.nearest(paths, to: Self.now) { reports.append($0) }
        #expect(best?.path == new.path && abs((best?.orbit.epoch ?? 0) - Self.epoch) < 1)
        #expect(reports.count == 1 && reports[0].contains("bad.tle"))
        // A map of the summer before takes the summer's set.
        #expect(TLECache.nearest(paths, to: Self.olderEpoch + 86400) { _ in }?.path == old.path)
    }

    @Test func theCacheFollowsXDG() {
        #expect(TLECache.cacheFile(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).path == "/c/nightmap/iss.tle")
        #expect(TLECache.cacheFile(environment: ["HOME": "/h"]).path == "/h/.cache/nightmap/iss.tle")
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// Fitting stale elements to live fixes (`OrbitFit`, through `IssTracker`).
@Suite struct OrbitFitTests {
    static let fresh = try! IssOrbit.parse(ElementsRefreshTests.tle, origin: "fresh")
    static let stale = try! IssOrbit.parse(ElementsRefreshTests.older, origin: "stale")
    static let start = 1_759_320_000.0          // 2025-10-01 12:00:00 UTC

    static func fix(_ t: Double) -> IssFix {
        let p = fresh.position(t)!
        return IssFix(time: t, position: p.position, altitudeKm: p.altitudeKm, source: .live)
    }

    /// Over the 45 minutes before and the 90 after, the fitted track stays near the path the
    /// station really takes, at every minute.
    @Test(arguments: [0.0, 1500, 3100, 4700])
    func theFittedTrackFollowsTheRealPath(_ offset: Double) throws {
        let t0 = Self.start + offset
        var tracker = IssTracker(mode: .live, orbit: Self.stale.position, orbitEpoch: Self.stale.epoch)
        tracker.receive(Self.fix(t0 - 1))
        #expect(tracker.elementsStale && tracker.fit == nil && tracker.groundTrack(from: t0, to: t0 + 600).isEmpty)
        tracker.receive(Self.fix(t0))
        let fit = try #require(tracker.fit)
        let track = tracker.groundTrack(from: t0 - 45 * 60, to: t0 + 90 * 60)
        var worst = 0.0
        for minute in stride(from: -45.0, through: 90, by: 1) {
            let truth = try #require(Self.fresh.position(t0 + minute * 60)).position
            worst = max(worst, track.map { truth.distanceKm(toLine: $0) }.min() ?? .infinity)
        }
        #expect(worst < 20, "fit \(fit): the track is up to \(worst) km from the real path")
        // Between fixes the icon moves along that track, heading along it.
        for dt in [0.25, 0.5, 2, 4.5] {
            let p = try #require(tracker.position(at: t0 + dt))
            #expect(track.map { p.fix.position.distanceKm(toLine: $0) }.min() ?? .infinity < 2)
            let truth = try #require(Self.fresh.position(t0 + dt)).position
            #expect(p.fix.position.distanceKm(to: truth) < 1)
            let ahead = try #require(Self.fresh.position(t0 + dt + 10)).position
            #expect(abs(p.bearing - IssTracker.bearing(from: truth, to: ahead)) < 1)
        }
    }

    /// The next fix a second later keeps the fit (and the track) as it is; an orbit that is not
    /// the station's fits nothing.
    @Test func theFitIsStableAndRefusesAWrongOrbit() throws {
        var tracker = IssTracker(mode: .live, orbit: Self.stale.position, orbitEpoch: Self.stale.epoch)
        tracker.receive(Self.fix(Self.start - 1))
        tracker.receive(Self.fix(Self.start))
        let generation = tracker.fitGeneration
        for k in 1...5 { tracker.receive(Self.fix(Self.start + Double(k))) }
        #expect(tracker.fitGeneration == generation)
        // After ten minutes without the feed, one fix alone cannot show the way: the fit stays.
        tracker.receive(Self.fix(Self.start + 600))
        #expect(tracker.recentLive.count == 1 && tracker.fit != nil && !tracker.groundTrack(from: Self.start, to: Self.start + 600).isEmpty)
        // A polar orbit through nowhere near: no shift puts it through all the fixes.
        let polar: IssTracker.Orbit = { t in (LngLat(lng: 10, lat: ((t / 10).truncatingRemainder(dividingBy: 180)) - 90), 420) }
        var wrong = IssTracker(mode: .live, orbit: polar)
        wrong.receive(Self.fix(Self.start - 30))
        wrong.receive(Self.fix(Self.start))
        #expect(wrong.fit == nil && wrong.elementsStale && wrong.groundTrack(from: Self.start, to: Self.start + 600).isEmpty)
    }
}
