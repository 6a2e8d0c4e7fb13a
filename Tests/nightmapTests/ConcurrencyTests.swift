import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster
import Testing
@testable import nightmap

/// The threads the window runs, all at once, as `make test-tsan` should see them: the ISS feed
/// (its poller's timer queue, a thread per request and a local server's thread), radar frames
/// decoded on every core (`RadarFrames.load`, `concurrentPerform`) inside a model loaded on a
/// second thread (`BackgroundLoad`, as the window loads while it connects to the display), and
/// the run loop on this thread: drain the feed, advance the model, draw it in two bands
/// (`ParallelRenderer`). Each part must also come out as it does alone.
@Suite struct ConcurrencyTests {
    @Test func feedRadarDecodeAndRunLoopTogether() throws {
        let server = try SoakFeedServer()
        defer { server.stop() }
        let o = try { var o = try Options.parse(["soak", "--size", "320x200", "--iss", "auto", "--time", "2026-11-30T12:00:00Z"]); o.issURL = server.url; return o }()
        var model = try MapSetup.model(o)
        server.set(.good, instant: model.clockOrigin)
        let poller = IssFeedPoller(client: IssFeedClient(url: server.url, timeout: 1), interval: 0.02)
        poller.start()
        defer { poller.stop() }

        // Two loads on other threads while the loop runs: a whole model, and the radar alone.
        let loading = BackgroundLoad { try MapSetup.model(o) }
        let radarPath = try ResourceLocator.resourcesDirectory().appendingPathComponent("radar").path
        let radar = BackgroundLoad { try RadarFrames.load(path: radarPath) }

        let renderer = ParallelRenderer()
        let pixmap = Pixmap(width: 320, height: 200)
        var fixes = 0, failures = 0, frames = 0, t = 0.0
        let behaviours: [SoakFeedServer.Behaviour] = [.good, .garbage, .good, .status500, .good, .truncated]
        let start = Date()
        // Until the feed has both answered and failed, for at least 120 frames, at most 20 s.
        while (frames < 120 || fixes == 0 || failures == 0) && Date().timeIntervalSince(start) < 20 {
            frames += 1; t += 0.1
            if frames % 10 == 0 { server.set(behaviours[(frames / 10) % behaviours.count], instant: model.clockOrigin + t) }
            for event in poller.drain() {
                switch event {
                case let .fix(fix): model.receiveIss(fix); fixes += 1
                case let .failure(time, reason): model.issFeedFailed(at: time, reason: reason); failures += 1
                }
            }
            model.advance(to: t)
            renderer.render(model.frame(), into: pixmap)
        }
        #expect(fixes > 0 && failures > 0, "feed: \(fixes) fixes, \(failures) failures in \(frames) frames")
        #expect(model.iss?.lastLive != nil)

        // What was loaded beside the loop is what a load alone gives.
        let alone = try RadarFrames.load(path: radarPath)
        let together = try radar.wait()
        #expect(together.names == alone.names && together.problems == alone.problems)
        #expect(together.images.count == alone.images.count && !alone.images.isEmpty)
        for (a, b) in zip(together.images, alone.images) {
            let same = a?.width == b?.width && a?.height == b?.height && a.map { Array($0.buffer) } == b.map { Array($0.buffer) }
            #expect(same, "a radar frame decoded beside the loop differs")
        }
        // The model loaded on the other thread draws the same picture as one loaded here.
        var second = try loading.wait(), first = try MapSetup.model(o)
        second.advance(to: 1.5); first.advance(to: 1.5)
        let p1 = Pixmap(width: 320, height: 200), p2 = Pixmap(width: 320, height: 200)
        renderer.render(first.frame(), into: p1)
        renderer.render(second.frame(), into: p2)
        let same = Array(p1.buffer) == Array(p2.buffer), colours = Set(p1.buffer).count
        #expect(same, "the model loaded on another thread draws another picture")
        #expect(colours > 8, "a blank frame")
    }
}
