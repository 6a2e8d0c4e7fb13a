import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster

/// `nightmap soak`: the whole animated scene, headless, at accelerated time. The radar advances,
/// the route pulses, the camera wanders (eased pans, zooms, glides), and the ISS comes from a
/// local feed (`SoakFeedServer`) that changes behaviour every simulated ten seconds, failing
/// about half of the time. Every frame is drawn; the report gives the frame-time distribution,
/// resident memory at the start, after warm-up and at the end, and what the feed did.
enum Soak {
    /// Simulated seconds per frame (an hour is 14,400 frames).
    static let step = 0.25
    /// Memory is measured from here (caches, label masks and scratch buffers are warm).
    static let warmUp = 300.0

    /// What a soak run saw.
    struct Result {
        var frameMs: [Double] = []               // sorted
        var rssStartKB = 0, rssWarmKB = 0, rssEndKB = 0
        var warmUpSeconds = 0.0
        var fixes = 0, failures = 0
        var reasons: [String: Int] = [:]
        var served: [SoakFeedServer.Behaviour: Int] = [:]
        var simulatedSeconds = 0.0, realSeconds = 0.0
        var size = ViewportSize(width: 0, height: 0)

        /// Bytes of decoded tiles the tiled sources hold after warm-up and at the end: a cache
        /// that fills as the camera visits new places, bounded per source (`TileSet.byteLimit`).
        var tileBytesWarm = 0, tileBytesEnd = 0
        /// What resident memory grew by after warm-up, beyond what the tile caches took.
        var growthMB: Double { Double(rssEndKB - rssWarmKB) / 1024 - Double(tileBytesEnd - tileBytesWarm) / 1048576 }
        var slowestMs: Double { frameMs.last ?? 0 }
        /// Memory grew under 2 MB after warm-up and no frame took over 50 ms (the release build's budget).
        var passed: Bool { growthMB < 2 && slowestMs <= 50 }

        func percentile(_ p: Double) -> Double { frameMs.isEmpty ? 0 : frameMs[min(frameMs.count - 1, Int(Double(frameMs.count) * p))] }

        var report: String {
            var lines = [
                String(format: "nightmap soak: %.0f simulated minutes in %.1f s, %d frames at %dx%d (%.2f simulated s each)",
                       simulatedSeconds / 60, realSeconds, frameMs.count, size.width, size.height, Soak.step),
                String(format: "frame ms: median %.2f, p95 %.2f, p99 %.2f, max %.2f", percentile(0.5), percentile(0.95), percentile(0.99), slowestMs),
                String(format: "resident memory: %.1f MB at start, %.1f MB after %.0f simulated s, %.1f MB at the end (growth after warm-up %+.2f MB)",
                       Double(rssStartKB) / 1024, Double(rssWarmKB) / 1024, warmUpSeconds, Double(rssEndKB) / 1024, growthMB),
                "ISS feed: \(fixes) fixes, \(failures) failures; answers by behaviour: "
                    + served.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "),
                String(format: "tiles in memory: %.1f MB after warm-up, %.1f MB at the end (a cache bounded per source, left out of the growth)",
                       Double(tileBytesWarm) / 1048576, Double(tileBytesEnd) / 1048576),
            ]
            for (reason, n) in reasons.sorted(by: { $0.value > $1.value }).prefix(8) { lines.append("  \(n) x \(reason)") }
            lines.append(passed ? "soak passed: memory grew under 2 MB after warm-up and no frame took over 50 ms"
                                : String(format: "soak FAILED: memory grew %.2f MB after warm-up (limit 2), slowest frame %.1f ms (limit 50)", growthMB, slowestMs))
            return lines.joined(separator: "\n")
        }
    }

    /// The decoded tiles' bytes in every tiled source of the style.
    static func tileBytes(_ model: MapApp) -> Int {
        model.style.sources.values.reduce(0) { if case let .tiles(t) = $1 { return $0 + t.byteCount } else { return $0 } }
    }

    static func run(_ o: Options) throws -> Result {
        let server = try SoakFeedServer()
        defer { server.stop() }
        var setup = o
        setup.issMode = .auto
        setup.issURL = server.url
        var model = try MapSetup.model(setup, report: warn)
        let poller = IssFeedPoller(client: IssFeedClient(url: server.url, timeout: 1), interval: 0.05)
        poller.start()
        defer { poller.stop() }
        let renderer = ParallelRenderer()
        let pixmap = Pixmap(width: o.size.width, height: o.size.height)
        var rng = SplitMix64(seed: 20261130)
        var r = Result()
        r.size = o.size
        r.simulatedSeconds = o.minutes * 60
        r.warmUpSeconds = min(warmUp, r.simulatedSeconds / 2)
        r.frameMs.reserveCapacity(Int(r.simulatedSeconds / step) + 1)
        r.rssStartKB = residentKB()
        var warmMeasured = false
        let realStart = Clock.now()
        var t = 0.0, frame = 0
        // The frame before the last (the renderer keeps the last) lends its storage to the next.
        var spare: FrameDescription?, previous: FrameDescription?
        while t < r.simulatedSeconds {
            t += step; frame += 1
            if frame % 40 == 1 {
                // Half the time a good answer, else one of the failures.
                let bad = SoakFeedServer.Behaviour.allCases.filter { $0 != .good }
                let b = rng.next() % 2 == 0 ? .good : bad[Int(rng.next() % UInt64(bad.count))]
                let before = server.answers(b)
                server.set(b, instant: model.clockOrigin + t)
                // The feed is asked in real time while frames pass as fast as they are drawn:
                // each behaviour answers a request taken under it, and the poller has what came
                // of it, before the frames go on (each wait at most 5 s), so a fast machine meets
                // every behaviour a slow one does. (The client asks one request at a time: once
                // that answer is in, what came of the request before is in the inbox too.)
                if server.waitForAnswers(b, beyond: before, within: 5) { _ = poller.waitForEvents(timeout: 5) }
            } else if frame % 4 == 0 {
                server.set(server.currentBehaviour, instant: model.clockOrigin + t)
            }
            for event in poller.drain() {
                switch event {
                case let .fix(fix): model.receiveIss(fix); r.fixes += 1
                case let .failure(time, reason):
                    model.issFeedFailed(at: time, reason: reason); r.failures += 1
                    r.reasons[reason.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? reason, default: 0] += 1
                }
            }
            if frame % 32 == 0 { wander(&model, &rng, o.size, now: t) }
            let s = Clock.now()
            model.advance(to: t)
            if frame % 4 == 0 { model.status = StatusLine.compose(model, framesPerSecond: 1 / step) }
            let described = model.frame(recycling: &spare)
            renderer.render(described, into: pixmap)
            spare = previous; previous = described
            r.frameMs.append((Clock.now() - s) * 1000)
            model.model.requestWantedTiles(now: t)      // (as the window does after each frame)
            if !warmMeasured && t >= r.warmUpSeconds { r.rssWarmKB = residentKB(); r.tileBytesWarm = tileBytes(model); warmMeasured = true }
        }
        r.realSeconds = Clock.now() - realStart
        r.rssEndKB = residentKB()
        r.tileBytesEnd = tileBytes(model)
        if !warmMeasured { r.rssWarmKB = r.rssStartKB; r.tileBytesWarm = r.tileBytesEnd }
        r.frameMs.sort()
        r.served = server.servedCounts
        return r
    }

    /// A new camera move: an eased pan, a zoom about a random point, or a glide.
    static func wander(_ model: inout MapApp, _ rng: inout SplitMix64, _ size: ViewportSize, now: Double) {
        func unit() -> Double { Double(rng.next() % 10_000) / 10_000 }
        let w = Double(size.width), h = Double(size.height)
        switch rng.next() % 3 {
        case 0: model.apply(.panEased(dx: (unit() - 0.5) * w, dy: (unit() - 0.5) * h), now: now)
        case 1: model.apply(.zoom(delta: (unit() - 0.5) * 2, aroundX: unit() * w, aroundY: unit() * h, duration: 0.5), now: now)
        default: model.apply(.glide(dx: (unit() - 0.5) * w, dy: (unit() - 0.5) * h, duration: 1.5), now: now)
        }
    }

    /// This process's resident memory in KiB (from /proc), or 0.
    static func residentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}

/// A small, fast, seedable random generator (SplitMix64), so every soak run is the same.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
