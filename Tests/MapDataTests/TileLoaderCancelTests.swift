import Foundation
import Testing
import MapCore
import TestSupport
@testable import MapData

/// A web tile the view has left stops loading: its transfer ends within about a second (libcurl
/// asks the loader while it waits), nothing is delivered and no failure is kept, so the tile is
/// loaded anew when the view comes back.
@Suite struct TileLoaderCancelTests {
    /// A web source's reader that counts the loader's answers to "stop this transfer?" (libcurl
    /// asks from its progress callback, about once a second while the server is silent).
    final class WatchedReader: TileReader, @unchecked Sendable {
        let web: WebTiles
        private let lock = NSCondition()
        private var answers: [Bool] = []
        init(_ web: WebTiles) { self.web = web }
        var name: String { web.name }
        func data(_ tile: TileID) throws -> Data? { try web.data(tile) }
        func data(_ tile: TileID, cancelled: @escaping @Sendable () -> Bool) throws -> Data? {
            try web.data(tile) { [self] in
                let stop = cancelled()
                lock.lock(); answers.append(stop); lock.broadcast(); lock.unlock()
                return stop
            }
        }
        /// Waits until `count` more answers than `after` have been given, at most `timeout`
        /// seconds; the new answers.
        func answers(after: Int, count: Int, timeout: Double) -> [Bool] {
            let deadline = Date().addingTimeInterval(timeout)
            lock.lock(); defer { lock.unlock() }
            while answers.count < after + count && lock.wait(until: deadline) {}
            return Array(answers.dropFirst(after))
        }
        var answered: Int { lock.lock(); defer { lock.unlock() }; return answers.count }
    }

    @Test func aTransferTheViewLeftStopsAndTheTileCanLoadAgain() throws {
        let server = try LocalHTTPServer(.silent)            // accepts and reads, never answers
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-cancel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = WatchedReader(WebTiles(templates: TileTemplates(["http://127.0.0.1:\(server.port)/{z}/{x}/{y}.pbf"], scheme: .xyz),
                                            cache: HTTPCache(directory: dir, timeout: 30)))
        let loader = TileLoader(reader: reader, kind: .vector, workers: 1)
        let set = TileSet(definition: TiledSourceDefinition(), kind: .vector, fetcher: loader)
        let tile = try #require(TileID(z: 1, x: 0, y: 0))

        loader.request([tile], into: set, now: 0)
        #expect(server.waitForRequests(1, timeout: 5))
        // The view moves on: nothing is wanted. The transfer stops within about a second (its
        // timeout is 30) and the one worker is free again, so the same tile asked for after that
        // reaches the server again. (Asked for again sooner, the transfer would go on: it is wanted.)
        let left = Date()
        loader.request([], into: set, now: 0)
        #expect(loader.waitUntilNothingIsRead(timeout: 5), "the first transfer did not stop")
        #expect(Date().timeIntervalSince(left) < 5)
        loader.request([tile], into: set, now: 0)
        #expect(server.waitForRequests(2, timeout: 5), "the tile was not asked for again")
        #expect(!set.hasFailed(tile))
        // A tile the ask still holds is not stopped: asked again while it is read, the loader
        // answers "go on" each time the transfer asks, and no third request goes out.
        let before = reader.answered
        loader.request([tile], into: set, now: 0)
        let answers = reader.answers(after: before, count: 2, timeout: 5)
        // (The transfer may ask more than twice while the answers are gathered: all say go on.)
        #expect(answers.count >= 2 && answers.allSatisfy { !$0 }, "answers to the transfer after the same ask: \(answers)")
        #expect(server.requests == 2)
    }
}
