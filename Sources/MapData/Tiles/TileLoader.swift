import Foundation
import MapCore

/// Loads a tiled source's tiles off the render thread: a few worker threads take the tiles the
/// view asked for last (nearest its centre first), read them (`TileReader`), decode and prepare
/// them (`TileDecoder`), and deliver them into the source's `TileSet`. A newer ask replaces the
/// tiles not yet started; a tile being read is not asked for twice.
public final class TileLoader: TileFetching, @unchecked Sendable {
    public let reader: any TileReader
    public let kind: TileSet.Kind
    public let workers: Int

    private let condition = NSCondition()
    private var queue: [(tile: TileID, set: TileSet, now: Double)] = []
    private var inFlight = Set<TileID>()
    private var started = 0

    public init(reader: any TileReader, kind: TileSet.Kind, workers: Int = 2) {
        self.reader = reader; self.kind = kind; self.workers = max(1, workers)
    }

    public func request(_ tiles: [TileID], into set: TileSet, now: Double) {
        condition.lock()
        queue = tiles.filter { !inFlight.contains($0) }.map { ($0, set, now) }
        let wanted = min(workers, queue.count)
        while started < wanted {
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
            fetch(job.tile, into: job.set, now: job.now)
            condition.lock()
            inFlight.remove(job.tile)
            condition.unlock()
        }
    }

    /// Reads, decodes and delivers one tile: absent when the source has none (or an empty one),
    /// a failure (with the source's name and what is wrong) when it cannot be read or decoded.
    func fetch(_ tile: TileID, into set: TileSet, now: Double) {
        do {
            guard let data = try reader.data(tile), !data.isEmpty else { set.deliverAbsent(tile); return }
            set.deliver(tile, try TileDecoder.content(data, tile: tile, kind: kind, name: reader.name(of: tile)))
        } catch {
            set.deliverFailure(tile, message: "\(error)", now: now)
        }
    }
}
