import Foundation

/// A tiled source's tiles in memory: what loaders delivered (tiles, tiles that do not exist,
/// failures with when to try again), bounded in bytes with the least recently drawn tiles
/// evicted first. Loaders deliver from any thread (it is the inbox between them and the map);
/// a frame reads it through `cover`, and `generation` counts the changes a frame can see.
public final class TileSet: @unchecked Sendable {
    public enum Kind: String, Sendable { case vector, raster }

    public let definition: TiledSourceDefinition
    public let kind: Kind
    /// Bytes of tiles kept; past it the least recently drawn go (never the ones last drawn).
    public let byteLimit: Int

    private enum State {
        case loaded(TileContent, bytes: Int)
        /// No such tile (outside the archive, 404, an empty answer): drawn as nothing.
        case absent
        /// Loading failed; asked for again from `retryAt` on (seconds on the map's clock).
        case failed(retryAt: Double, attempts: Int)
    }
    private struct Entry { var state: State; var used: UInt64 }

    private let lock = NSLock()
    private var entries: [TileID: Entry] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    private var _generation = 0
    private var _lastError: String?
    private var _errorCount = 0

    /// Where its tiles come from (nil: only what is delivered by hand).
    public let fetcher: (any TileFetching)?

    public init(definition: TiledSourceDefinition, kind: Kind, byteLimit: Int = 256 << 20, fetcher: (any TileFetching)? = nil) {
        self.definition = definition; self.kind = kind; self.byteLimit = byteLimit; self.fetcher = fetcher
    }

    /// Counts deliveries: a frame made before the last one may show less than one made now.
    public var generation: Int { lock.lock(); defer { lock.unlock() }; return _generation }
    /// The last failure's message (one line naming the source's URL), and how many there were.
    public var lastError: (message: String, count: Int)? {
        lock.lock(); defer { lock.unlock() }
        return _lastError.map { ($0, _errorCount) }
    }
    public var byteCount: Int { lock.lock(); defer { lock.unlock() }; return bytes }
    public var loadedCount: Int {
        lock.lock(); defer { lock.unlock() }
        return entries.values.reduce(0) { if case .loaded = $1.state { return $0 + 1 } else { return $0 } }
    }

    // MARK: - Delivery (any thread)

    /// A tile arrived.
    public func deliver(_ tile: TileID, _ content: TileContent) {
        lock.lock(); defer { lock.unlock() }
        remove(tile)
        let n = content.byteCount
        clock &+= 1
        entries[tile] = Entry(state: .loaded(content, bytes: n), used: clock)
        bytes += n
        _generation &+= 1
        evict()
    }

    /// The source has no such tile: nothing is drawn there, and it is not asked for again.
    public func deliverAbsent(_ tile: TileID) {
        lock.lock(); defer { lock.unlock() }
        remove(tile)
        entries[tile] = Entry(state: .absent, used: clock)
        _generation &+= 1
    }

    /// Loading failed with `message`: the tile is asked for again after a delay that doubles
    /// with each failure (1 s, 2 s, ... up to 5 min), counted from `now`.
    public func deliverFailure(_ tile: TileID, message: String, now: Double) {
        lock.lock(); defer { lock.unlock() }
        var attempts = 0
        if case let .failed(_, a)? = entries[tile]?.state { attempts = a }
        remove(tile)
        let delay = min(300, pow(2, Double(min(attempts, 9))))
        entries[tile] = Entry(state: .failed(retryAt: now + delay, attempts: attempts + 1), used: clock)
        _lastError = message
        _errorCount += 1
        _generation &+= 1
    }

    private func remove(_ tile: TileID) {
        if case let .loaded(_, n)? = entries.removeValue(forKey: tile)?.state { bytes -= n }
    }

    /// Drops the least recently drawn tiles until the bytes fit (the lock held).
    private func evict() {
        guard bytes > byteLimit else { return }
        let newest = clock
        let order = entries.filter { if case .loaded = $0.value.state { return true } else { return false } }
            .sorted { $0.value.used < $1.value.used }
        for (tile, e) in order where bytes > byteLimit {
            guard e.used < newest else { break }
            remove(tile)
        }
        // Absent and failed marks are small; keep at most a few thousand.
        if entries.count > 8192 {
            for (tile, e) in entries.sorted(by: { $0.value.used < $1.value.used }).prefix(entries.count - 4096) {
                if case .loaded = e.state { continue }
                entries[tile] = nil
            }
        }
    }

    // MARK: - Reading (the frame)

    /// One tile of a frame's cover: the data of `tile`, drawn inside `square` (the tile's own,
    /// or the part of it that stands in for a missing descendant).
    public struct CoverEntry: Equatable, Sendable {
        public let tile: TileID
        public let square: TileID
        public let content: TileContent
        public static func == (a: CoverEntry, b: CoverEntry) -> Bool { a.tile == b.tile && a.square == b.square }
    }

    /// What draws `ideal` (the tiles a view wants, at one zoom): each tile itself when loaded,
    /// else its nearest loaded ancestor (up to `ancestors` zooms out) inside its square, else
    /// its four children when all are loaded. The tiles used count as drawn now (for eviction).
    public func cover(_ ideal: [TileID], ancestors: Int = 8) -> [CoverEntry] {
        lock.lock(); defer { lock.unlock() }
        clock &+= 1
        var out: [CoverEntry] = []
        out.reserveCapacity(ideal.count)
        func loaded(_ t: TileID) -> TileContent? {
            guard let e = entries[t], case let .loaded(c, _) = e.state else { return nil }
            entries[t]?.used = clock
            return c
        }
        for t in ideal {
            if let c = loaded(t) { out.append(CoverEntry(tile: t, square: t, content: c)); continue }
            var a = t.parent, steps = 1
            var found = false
            while let p = a, steps <= ancestors, p.z >= definition.minZoom {
                if let c = loaded(p) { out.append(CoverEntry(tile: p, square: t, content: c)); found = true; break }
                a = p.parent; steps += 1
            }
            if found || t.z >= definition.maxZoom { continue }
            let kids = t.children
            let contents = kids.compactMap { k -> TileContent? in
                guard let e = entries[k], case let .loaded(c, _) = e.state else { return nil }
                return c
            }
            if contents.count == 4 {
                for (k, c) in zip(kids, contents) { entries[k]?.used = clock; out.append(CoverEntry(tile: k, square: k, content: c)) }
            }
        }
        return out
    }

    /// The tiles to ask the loader for at `now`: those of `ideal` not loaded, not known to be
    /// absent and not failed less than their back-off ago; then, for each ideal tile that is
    /// absent or failed, its nearest ancestor not known yet (up to `ancestors` zooms out, none
    /// below `minZoom`), to stand in for it, unless a nearer one is loaded.
    public func missing(_ ideal: [TileID], now: Double, ancestors: Int = 8) -> [TileID] {
        lock.lock(); defer { lock.unlock() }
        func wanted(_ t: TileID) -> Bool {
            switch entries[t]?.state {
            case nil: return true
            case .loaded?, .absent?: return false
            case let .failed(retryAt, _)?: return now >= retryAt
            }
        }
        var out: [TileID] = [], seen = Set<TileID>()
        for t in ideal where wanted(t) && seen.insert(t).inserted { out.append(t) }
        for t in ideal {
            switch entries[t]?.state {
            case .absent?, .failed?: break
            default: continue
            }
            var a = t.parent, steps = 1
            while let p = a, steps <= ancestors, p.z >= definition.minZoom {
                if case .loaded? = entries[p]?.state { break }
                if entries[p] == nil || wanted(p) {
                    if seen.insert(p).inserted { out.append(p) }
                    break
                }
                a = p.parent; steps += 1
            }
        }
        return out
    }

    /// Whether every tile of `ideal` is loaded or known to be absent (a snapshot is complete).
    public func isSettled(_ ideal: [TileID]) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return ideal.allSatisfy { t in
            switch entries[t]?.state {
            case .loaded?, .absent?: return true
            default: return false
            }
        }
    }

    /// Whether the last attempt at `tile` failed (it waits for its back-off).
    public func hasFailed(_ tile: TileID) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if case .failed? = entries[tile]?.state { return true }
        return false
    }
}

/// A tiled source's loader, as the app drives it: after each frame it asks for what the view
/// wants, and the loader delivers into the `TileSet` from its own threads.
public protocol TileFetching: AnyObject, Sendable {
    /// Asks for `tiles` (nearest the view's centre first; empty: nothing is wanted now); asks
    /// made earlier and not yet started are dropped, and transfers of tiles this ask leaves out
    /// may stop (the view has moved on).
    func request(_ tiles: [TileID], into set: TileSet, now: Double)
    /// Loads `tiles` and delivers them before returning (snapshots and render tests draw once
    /// everything is in).
    func load(_ tiles: [TileID], into set: TileSet, now: Double)
    /// Whether the tiles come from this machine's files (an archive, `file://` templates), not
    /// over the network.
    var isLocal: Bool { get }
}

extension TileID {
    /// The four tiles one zoom in, north-west, north-east, south-west, south-east (none past zoom 30).
    public var children: [TileID] {
        guard z < 30 else { return [] }
        return [(0, 0), (1, 0), (0, 1), (1, 1)].compactMap { TileID(z: z + 1, x: 2 * x + $0.0, y: 2 * y + $0.1) }
    }
}
