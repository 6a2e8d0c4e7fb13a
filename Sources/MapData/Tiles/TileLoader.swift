import Foundation
import MapCore

/// Loads a tiled source's tiles off the render thread: a few worker threads take the tiles the
/// view asked for last (nearest its centre first), read them (`TileReader`), decode and prepare
/// them (`TileDecoder`), and deliver them into the source's `TileSet`. A newer ask replaces the
/// tiles not yet started, and stops the transfers of tiles it no longer holds (a web source's:
/// within about a second, nothing delivered, so a later ask loads them anew); a tile being read
/// is not asked for twice.
public final class TileLoader: TileFetching, @unchecked Sendable {
    public let reader: any TileReader
    public let kind: TileSet.Kind
    public let workers: Int

    private let condition = NSCondition()
    private var queue: [(tile: TileID, set: TileSet, now: Double)] = []
    private var inFlight = Set<TileID>()
    /// The tiles of the latest ask (a transfer for any other is stopped).
    private var wanted = Set<TileID>()
    private var started = 0

    public init(reader: any TileReader, kind: TileSet.Kind, workers: Int = 2) {
        self.reader = reader; self.kind = kind; self.workers = max(1, workers)
    }

    public func request(_ tiles: [TileID], into set: TileSet, now: Double) {
        condition.lock()
        if tiles.isEmpty && wanted.isEmpty && queue.isEmpty { condition.unlock(); return }   // (an idle loader, asked for nothing)
        wanted = Set(tiles)
        queue = tiles.filter { !inFlight.contains($0) }.map { ($0, set, now) }
        let threads = min(workers, queue.count)
        while started < threads {
            started += 1
            let thread = Thread { [weak self] in self?.work() }
            thread.name = "nightmap tiles"
            thread.start()
        }
        condition.broadcast()
        condition.unlock()
    }

    public var isLocal: Bool { !(reader is WebTiles) }

    public func load(_ tiles: [TileID], into set: TileSet, now: Double) {
        let list = Array(Set(tiles))
        DispatchQueue.concurrentPerform(iterations: list.count) { i in fetch(list[i], into: set, now: now) }
    }

    /// A worker: takes the first tile asked for, loads it, and so on; it stops after a minute
    /// without work (another starts with the next ask).
    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty {
                if !condition.wait(until: Date().addingTimeInterval(60)) && queue.isEmpty {
                    started -= 1
                    condition.unlock()
                    return
                }
            }
            let job = queue.removeFirst()
            inFlight.insert(job.tile)
            condition.unlock()
            let tile = job.tile
            fetch(tile, into: job.set, now: job.now, cancelled: { [weak self] in self?.isUnwanted(tile) ?? true })
            condition.lock()
            inFlight.remove(job.tile)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until no tile is being read, at most `timeout` seconds; whether none is. (A worker
    /// is free for the next ask once its tile is no longer read: tests wait on this.)
    func waitUntilNothingIsRead(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while !inFlight.isEmpty {
            if !condition.wait(until: deadline) { return inFlight.isEmpty }
        }
        return true
    }

    /// Whether the latest ask left `tile` out.
    private func isUnwanted(_ tile: TileID) -> Bool {
        condition.lock(); defer { condition.unlock() }
        return !wanted.contains(tile)
    }

    /// Reads, decodes and delivers one tile: absent when the source has none (or an empty one),
    /// a failure (with the source's name and what is wrong) when it cannot be read or decoded;
    /// nothing when its transfer was cancelled.
    func fetch(_ tile: TileID, into set: TileSet, now: Double, cancelled: @escaping @Sendable () -> Bool = { false }) {
        do {
            guard let data = try reader.data(tile, cancelled: cancelled), !data.isEmpty else { set.deliverAbsent(tile); return }
            set.deliver(tile, try TileDecoder.content(data, tile: tile, kind: kind, name: reader.name(of: tile)))
        } catch is HTTPCache.Cancelled {
            return
        } catch {
            set.deliverFailure(tile, message: "\(error)", now: now)
        }
    }
}
