import Foundation
import Testing
import MapCore
import TestSupport
@testable import MapData

/// A web tile the view has left stops loading: its transfer ends within about a second (libcurl
/// asks the loader while it waits), nothing is delivered and no failure is kept, so the tile is
/// loaded anew when the view comes back.
@Suite struct TileLoaderCancelTests {
    /// Polls `condition` every 50 ms for up to `seconds`.
    private func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test func aTransferTheViewLeftStopsAndTheTileCanLoadAgain() throws {
        let server = try LocalHTTPServer(.silent)            // accepts and reads, never answers
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-cancel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = WebTiles(templates: TileTemplates(["http://127.0.0.1:\(server.port)/{z}/{x}/{y}.pbf"], scheme: .xyz),
                              cache: HTTPCache(directory: dir, timeout: 30))
        let loader = TileLoader(reader: reader, kind: .vector, workers: 1)
        let set = TileSet(definition: TiledSourceDefinition(), kind: .vector, fetcher: loader)
        let tile = try #require(TileID(z: 1, x: 0, y: 0))

        loader.request([tile], into: set, now: 0)
        #expect(waitFor(5) { server.requests == 1 })
        // The view moves on: nothing is wanted. The one worker is free again within about a
        // second (the transfer's timeout is 30), so the same tile asked for after that reaches
        // the server again. (Asked for again sooner, the transfer would go on: it is wanted.)
        let left = Date()
        loader.request([], into: set, now: 0)
        Thread.sleep(forTimeInterval: 2.5)
        loader.request([tile], into: set, now: 0)
        #expect(waitFor(5) { server.requests == 2 }, "the first transfer did not stop")
        #expect(Date().timeIntervalSince(left) < 8)
        #expect(!set.hasFailed(tile))
        // A tile the ask still holds is not stopped: no third request while it waits.
        loader.request([tile], into: set, now: 0)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(server.requests == 2)
    }
}
