import Foundation
import NightmapApp
import MapCore
import MapData
import Testing
@testable import nightmap

/// `nightmap soak`, shortened: the scene runs, the local feed both answers and fails, the model
/// keeps the last good position through the failures, and the report says so.
@Suite struct SoakTests {
    @Test func aShortSoakKeepsMemoryAndTheFeedFailsInSeveralWays() throws {
        var o = try Options.parse(["soak", "--minutes", "1.5", "--size", "320x200", "--iss", "tle"])
        o.minutes = 1.5
        let r = try Soak.run(o)
        // Frames were drawn for the whole simulated span, 0.25 s each. (Their times and the
        // process's memory are `nightmap soak`'s figures, a process of its own, in a release
        // build: here other suites run in the same process at the same time.)
        #expect(r.frameMs.count == 360, "\(r.report)")
        #expect(r.rssStartKB > 0 && r.rssEndKB > 0, "\(r.report)")
        // The feed gave fixes and failures of more than one kind, and said what was wrong.
        #expect(r.fixes > 0 && r.failures > 0, "\(r.report)")
        #expect((r.served[.good] ?? 0) > 0 && r.served.count >= 3, "\(r.report)")
        #expect(r.reasons.keys.contains { $0.contains("JSON") || $0.contains("HTTP") || $0.contains("time limit") || $0.contains("reply") },
                "\(r.report)")
    }

    @Test func theLocalFeedAnswersAsTold() throws {
        let server = try SoakFeedServer()
        defer { server.stop() }
        let client = IssFeedClient(url: server.url, timeout: 2)
        server.set(.good, instant: 1_796_040_000)
        let fix = try client.fetchNow().get()
        #expect(fix.time == 1_796_040_000)
        server.set(.html, instant: 1_796_040_000)
        guard case let .failure(e) = client.fetchNow() else { Issue.record("an HTML page was accepted"); return }
        #expect(e.description.contains("HTML"), "\(e)")
        #expect(server.servedCounts[.good] == 1 && server.servedCounts[.html] == 1)
    }
}
