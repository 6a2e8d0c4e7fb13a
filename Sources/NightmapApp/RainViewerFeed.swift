import Foundation
import MapCore
import MapData
import Raster

/// RainViewer's global radar (or a server speaking its API, such as LibreWXR) for the part of
/// the world in view, kept current off the render thread and published as `RadarSeries`.
///
/// Its index (`weather-maps.json`) is asked every `indexInterval` seconds; each of its newest
/// `loopLength` frames is a template of 256-pixel XYZ tiles, and a frame of the loop is the
/// `TileMosaic` of the view (zoom 7 at most, stretched beyond), its tiles side by side. Tiles
/// come from memory, then the disk cache, then the service, newest frame first, paced by a
/// `RequestBudget` (60 a minute: the loop's backfill takes minutes, never a burst). A frame is
/// shown once all its tiles are in; until one is, the newest shows as its tiles arrive.
///
/// When the index cannot be had, the frames of the view that the disk cache holds whole are
/// the loop (labelled as cached), then the `fallback` (the demo frames). Every problem is one
/// line through `report`, naming the URL, said once while it stays the same. Time comes from
/// `clock`; `step()` does what may be done now, so tests drive it with a simulated clock.
public final class RainViewerFeed: @unchecked Sendable {
    public let indexURL: URL
    /// The provider's name (attribution, status line): "RainViewer", or the index's host.
    public let provider: String
    let cache: RadarCache?
    let timeout: Double
    let clock: @Sendable () -> Double
    let report: @Sendable (String) -> Void
    let fallback: @Sendable () -> RadarSeries?

    /// Frames in the loop (the index's newest).
    public static let loopLength = 13
    /// Seconds between index requests (RainViewer makes a frame every 10 minutes).
    public static let indexInterval = 600.0
    /// Tiles one frame may take (larger views take a lower zoom).
    public static let tileLimit = 48
    /// Memory for tiles' bytes (beyond it, tiles outside the view go first).
    static let memoryLimit = 24 << 20

    /// The default index.
    public static let rainViewerIndex = "https://api.rainviewer.com/public/weather-maps.json"

    private let lock = NSCondition()
    // Shared with the main thread (under `lock`).
    private var wanted: (visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double)?
    private var active = true
    private var stopped = false
    private var latest: RadarSeries?
    private var generation = 0
    private var changed = false

    // The worker's own (one thread at a time runs `step`).
    private var budget: RequestBudget
    private var frames: [Frame] = []
    private var generated: Double?
    private var indexAt = -Double.infinity
    private var indexRetryAt = -Double.infinity
    private var indexFromSource = false
    private var mosaic: TileMosaic?
    /// The zoom asked for at most (lowered when the service refuses one).
    public private(set) var maxZoom = RainViewerIndex.maxZoom
    private var tiles: [TileKey: TileState] = [:]
    private var tileBytes = 0
    /// Tiles the disk cache was asked for and does not hold.
    private var notOnDisk = Set<TileKey>()
    private var composed: [Double: (mosaic: TileMosaic, count: Int, frame: any RasterTexture, runs: ImageRuns)] = [:]
    private var reported: [String: String] = [:]
    private var lastError: String?
    private var fallbackSeries: RadarSeries?
    private var partialComposedAt = -Double.infinity
    private var publishedSignature = ""
    private var thread: Thread?

    /// One frame of the loop: its time and tile template (nil for a frame only the disk cache holds).
    struct Frame: Equatable {
        let time: Double
        let template: String?
    }

    struct TileKey: Hashable {
        let time: Double
        let tile: TileID
    }

    enum TileState {
        /// A good tile's PNG (kept compressed: a loop of a large view is hundreds of tiles).
        case image(Data)
        /// No tile: why, and when it may be asked again.
        case failed(String, retry: Double)
    }

    /// `indexURL`: the index (`--rainviewer-url`). `budget`: the service's pace (defaults to
    /// WORLD-DATA.md's: 60 a minute, a quarter of a second apart).
    public init(indexURL: URL, cache: RadarCache?, timeout: Double = 10,
                budget: RequestBudget = RequestBudget(perMinute: 60, spacing: 0.25, backoffStart: 2, backoffLimit: 600),
                clock: @escaping @Sendable () -> Double, report: @escaping @Sendable (String) -> Void,
                fallback: @escaping @Sendable () -> RadarSeries?) {
        self.indexURL = indexURL; self.cache = cache; self.timeout = timeout; self.budget = budget
        self.clock = clock; self.report = report; self.fallback = fallback
        let host = indexURL.host ?? indexURL.absoluteString
        provider = host == "api.rainviewer.com" ? RadarProvider.rainviewer.name : host
    }

    /// The disk cache's folder for this service's tiles (`$XDG_CACHE_HOME/nightmap/rainviewer`).
    public static func standardCache(environment: [String: String] = ProcessInfo.processInfo.environment) -> RadarCache {
        RadarCache(directory: XDGDirectory.cache(environment).appendingPathComponent("nightmap/rainviewer"))
    }

    // MARK: The main thread's side

    /// The view to cover (from the camera): the worker fetches what it lacks.
    public func want(visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double) {
        lock.lock(); defer { lock.unlock() }
        if let w = wanted, w.zoom == zoom, w.visible == visible { return }
        wanted = (visible, zoom)
        changed = true
        lock.broadcast()
    }

    /// Whether the worker asks the service (the provider is shown); while inactive it waits.
    public func setActive(_ on: Bool) {
        lock.lock(); defer { lock.unlock() }
        guard active != on else { return }
        active = on
        changed = true
        lock.broadcast()
    }

    /// The newest series when it is newer than `generation` (0 for the first), with its generation.
    public func take(after generation: Int) -> (series: RadarSeries, generation: Int)? {
        lock.lock(); defer { lock.unlock() }
        guard let latest, self.generation > generation else { return nil }
        return (latest, self.generation)
    }

    // MARK: Work

    /// Does what may be done at the clock's now (the index when due, tiles from the disk cache,
    /// one tile from the service when the budget allows) and publishes what changed. Returns
    /// when to come back (nil: nothing to do until the view changes).
    @discardableResult
    public func step() -> Double? {
        let now = clock()
        lock.lock()
        let view = wanted
        changed = false
        lock.unlock()
        var dirty = false
        var wake: Double? = nil
        func soon(_ t: Double) { wake = min(wake ?? t, t) }

        // The index, when due.
        if now >= max(indexAt + Self.indexInterval, indexRetryAt) {
            let allowed = budget.nextAllowed(now: now)
            if allowed <= now, budget.take(now: now) {
                dirty = fetchIndex(now: now) || dirty
            } else {
                soon(allowed)
            }
        }
        soon(max(indexAt + Self.indexInterval, indexRetryAt))

        guard let view, let wantedMosaic = TileMosaic.covering(view.visible, zoom: view.zoom, maxZoom: maxZoom, tileLimit: Self.tileLimit) else {
            if dirty { publish(now: now) }
            return wake
        }
        // A new mosaic only when the view leaves the old one or wants another zoom.
        if mosaic == nil || mosaic?.z != wantedMosaic.z || !(mosaic?.covers(view.visible) ?? false) {
            mosaic = wantedMosaic
            dirty = true
        }
        if frames.isEmpty && !indexFromSource, let offline = offlineFrames(now: now), offline != frames {
            frames = offline
            dirty = true
        }
        // Tiles: memory, then disk (all at once), then one from the service.
        if let mosaic {
            let list = mosaic.tiles.map(\.tile)
            var asked = false
            for frame in frames.reversed() {
                for tile in list {
                    let key = TileKey(time: frame.time, tile: tile)
                    switch tiles[key] {
                    case .image?: continue
                    case let .failed(_, retry)?:
                        if retry > now { soon(retry); continue }
                    case nil: break
                    }
                    if !notOnDisk.contains(key) {
                        if let data = cachedTile(key) {
                            store(key, .image(data))
                            dirty = true
                            continue
                        }
                        notOnDisk.insert(key)
                    }
                    guard let template = frame.template, !asked else { continue }
                    let allowed = budget.nextAllowed(now: now)
                    if allowed > now || !budget.take(now: now) { soon(allowed); asked = true; continue }
                    asked = true
                    fetchTile(key, template: template, now: now)
                    dirty = true
                    soon(now)
                }
            }
        }
        if dirty { publish(now: now) }
        return wake
    }

    /// Asks for the index; true when the frames changed.
    private func fetchIndex(now: Double) -> Bool {
        let url = indexURL.absoluteString
        var failure: String?
        switch HTTPGet.run(indexURL, timeout: timeout, maxBytes: 1 << 20, maxRedirects: 5, accept: "application/json") {
        case let .failure(f):
            failure = "\(url): \(f.reason)"
        case let .success(r):
            do {
                let index = try RainViewerIndex(data: r.body, url: url, now: now)
                budget.succeeded()
                for line in index.skipped { say("index " + line, line) }
                indexAt = now
                indexFromSource = true
                say("index", nil)
                guard index.generated != generated || frames.contains(where: { $0.template == nil }) else { return false }
                generated = index.generated
                let newest = index.frames.suffix(Self.loopLength).map { Frame(time: $0.time, template: $0.template) }
                let keep = Set(newest.map(\.time))
                tiles = tiles.filter { keep.contains($0.key.time) }
                notOnDisk = notOnDisk.filter { keep.contains($0.time) }
                tileBytes = tiles.values.reduce(0) { if case let .image(d) = $1 { return $0 + d.count } else { return $0 } }
                composed = composed.filter { keep.contains($0.key) }
                frames = newest
                return true
            } catch {
                failure = "\(error)"
            }
        }
        budget.failed(now: now)
        indexRetryAt = now + max(budget.backoff, 30)
        indexFromSource = false
        lastError = failure
        say("index", failure)
        return true
    }

    /// Fetches, checks and stores one tile.
    private func fetchTile(_ key: TileKey, template: String, now: Double) {
        let t = key.tile
        let url = RainViewerIndex.url(RainViewerIndex.Frame(time: key.time, template: template), z: t.z, x: t.x, y: t.y)
        guard let u = URL(string: url) else {
            store(key, .failed("\(url): not a URL", retry: .infinity))
            return
        }
        // A 256-pixel tile is at most its raw pixels (and a little).
        switch HTTPGet.run(u, timeout: timeout, maxBytes: 256 * 256 * 4 + 65536, maxRedirects: 5, accept: "image/png") {
        case let .failure(f):
            budget.failed(now: now)
            // A 429 is the service asking to slow down: the budget backs off for every request.
            tileFailed(key, "\(url): \(f.reason)", retry: now + max(budget.backoff, f.status == 404 ? Self.indexInterval : 60))
        case let .success(r):
            if RainViewerIndex.isZoomRefusal(r.body, zoom: t.z) {
                // The service serves less than its documented zoom: ask one less from now on.
                maxZoom = max(0, min(maxZoom, t.z - 1))
                mosaic = nil
                tileFailed(key, "\(url): the service refuses zoom \(t.z); asking zoom \(maxZoom) at most", retry: .infinity)
                return
            }
            do {
                _ = try RadarImage.decode(r.body, name: url, size: (TileMosaic.tileSize, TileMosaic.tileSize))
                budget.succeeded()
                store(key, .image(r.body))
                say(url, nil)
                if let cache {
                    do {
                        try cache.write(key: cacheKey(t), time: key.time, data: r.body, about: "\(indexURL.absoluteString)\ntile \(t)")
                    } catch {
                        say("cache", "\(error)")
                    }
                }
            } catch {
                budget.failed(now: now)
                tileFailed(key, "\(error)", retry: now + max(budget.backoff, 60))
            }
        }
    }

    private func tileFailed(_ key: TileKey, _ line: String, retry: Double) {
        store(key, .failed(line, retry: retry))
        lastError = line
        say("tile \(key.tile) \(Int(key.time))", line)
    }

    /// Keeps a tile's state, dropping the bytes of tiles outside the mosaic beyond the limit.
    private func store(_ key: TileKey, _ state: TileState) {
        if case let .image(d)? = tiles[key] { tileBytes -= d.count }
        tiles[key] = state
        if case let .image(d) = state { tileBytes += d.count }
        guard tileBytes > Self.memoryLimit, let mosaic else { return }
        let inView = Set(mosaic.tiles.map(\.tile))
        for (k, s) in tiles where !inView.contains(k.tile) {
            guard tileBytes > Self.memoryLimit else { break }
            if case let .image(d) = s { tiles[k] = nil; tileBytes -= d.count }
        }
    }

    /// The disk cache's folder of one tile of this service.
    private func cacheKey(_ t: TileID) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in indexURL.absoluteString.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return String(format: "%08llx-%d-%d-%d", h >> 32, t.z, t.x, t.y)
    }

    /// A tile from the disk cache, when it decodes (a file that no longer does is removed).
    private func cachedTile(_ key: TileKey) -> Data? {
        guard let cache, let (data, path) = cache.read(key: cacheKey(key.tile), time: key.time) else { return nil }
        guard (try? RadarImage.decode(data, name: path, size: (TileMosaic.tileSize, TileMosaic.tileSize))) != nil else {
            cache.remove(key: cacheKey(key.tile), time: key.time)
            return nil
        }
        return data
    }

    /// Without an index: the newest times for which the disk cache holds every tile of the view.
    private func offlineFrames(now: Double) -> [Frame]? {
        guard let cache, let mosaic else { return nil }
        var common: Set<Double>?
        for (_, _, t) in mosaic.tiles {
            let times = Set(cache.times(key: cacheKey(t)).filter { $0 <= now + RainViewerIndex.futureSlack })
            common = common.map { $0.intersection(times) } ?? times
            if common?.isEmpty ?? true { return nil }
        }
        guard let common else { return nil }
        return common.sorted().suffix(Self.loopLength).map { Frame(time: $0, template: nil) }
    }

    /// Makes the series of the frames and the mosaic and publishes it when what it shows changed.
    /// Whole frames are composed once; until one is whole, the newest with tiles shows as they
    /// come (composed again at most once a second).
    private func publish(now: Double) {
        guard let mosaic, !frames.isEmpty else {
            publishFallback()
            return
        }
        let list = mosaic.tiles
        let counts = frames.map { frame in
            list.reduce(into: (have: 0, problem: String?.none)) { r, p in
                switch tiles[TileKey(time: frame.time, tile: p.tile)] {
                case .image?: r.have += 1
                case let .failed(why, _)?: r.problem = r.problem ?? why
                case nil: break
                }
            }
        }
        let anyWhole = counts.contains { $0.have == list.count }
        let partial = anyWhole ? nil : counts.lastIndex { $0.have > 0 }
        var slots: [RadarSeries.Slot] = []
        for (i, frame) in frames.enumerated() {
            let (have, problem) = counts[i]
            let whole = have == list.count
            let name = frame.template ?? "\(cache?.directory.path ?? "cache") \(RadarTime.iso(frame.time))"
            guard whole || i == partial else {
                slots.append(.init(time: frame.time, status: have == 0 && problem != nil ? .error : .missing, name: name, problem: problem))
                continue
            }
            var made = composed[frame.time].flatMap { $0.mosaic == mosaic ? $0 : nil }
            if made?.count != have && (whole || made == nil || now >= partialComposedAt + 1) {
                var images: [TileID: Pixmap] = [:]
                for (_, _, t) in list {
                    if case let .image(d)? = tiles[TileKey(time: frame.time, tile: t)] {
                        images[t] = try? RadarImage.decode(d, name: "", size: (TileMosaic.tileSize, TileMosaic.tileSize))
                    }
                }
                let (image, runs) = RadarFeed.frame(mosaic.compose(images))
                made = (mosaic, have, image, runs)
                composed[frame.time] = made
                if !whole { partialComposedAt = now }
            }
            slots.append(.init(time: frame.time, status: whole ? .ok : .missing, image: made?.frame, runs: made?.runs, name: name, problem: problem))
        }
        composed = composed.filter { c in frames.contains { $0.time == c.key } }
        guard slots.contains(where: { $0.image != nil }) else {
            publishFallback()
            return
        }
        let origin: RadarSeries.Origin = indexFromSource ? .live : .cache
        // (Published only when it shows something else: new frames, statuses or origin.)
        let signature = slots.map { "\($0.time ?? 0) \($0.status) \($0.image.map { ObjectIdentifier($0).hashValue } ?? 0)" }.joined(separator: ",")
            + " \(origin) \(lastError ?? "")"
        guard signature != publishedSignature else { return }
        publishedSignature = signature
        var series = RadarSeries(origin: origin, slots: slots, lastError: lastError, provider: provider, placement: (mosaic.corners, .linear))
        series.legend = RadarLegend.universalBlue
        lock.lock()
        latest = series
        generation += 1
        lock.unlock()
        fallbackSeries = nil
    }

    /// Nothing of the view to show: the fallback, once.
    private func publishFallback() {
        guard fallbackSeries == nil, var f = fallback() else { return }
        publishedSignature = ""
        f.lastError = lastError
        fallbackSeries = f
        lock.lock()
        latest = f
        generation += 1
        lock.unlock()
    }

    /// Reports `line` for `topic` once while it stays the same (nil: the topic is fine again).
    private func say(_ topic: String, _ line: String?) {
        guard reported[topic] != line else { return }
        reported[topic] = line
        if let line { report(line) }
    }

    /// For `snapshot` and `state`: steps until the newest frame of the view is in (or its tiles
    /// failed, or there is no index and nothing cached), at most until `deadline`
    /// (`ProcessInfo.systemUptime` seconds), waiting as the budget asks.
    public func loadNewest(deadline: Double) {
        while true {
            let next = step()
            if newestSettled { return }
            let now = clock()
            let wait = min((next ?? now + 3600) - now, deadline - ProcessInfo.processInfo.systemUptime)
            if wait <= 0 && ProcessInfo.processInfo.systemUptime >= deadline { return }
            if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 1)) }
        }
    }

    /// Whether every tile of the newest frame of the view is in or failed (or there is nothing
    /// to load: no index and no cached frames).
    private var newestSettled: Bool {
        guard let newest = frames.last, let mosaic else { return indexRetryAt > -Double.infinity }
        return mosaic.tiles.allSatisfy { tiles[TileKey(time: newest.time, tile: $0.tile)] != nil || newest.template == nil }
    }

    // MARK: The background thread

    /// Steps until `stop()`: as soon as the budget allows while work is left, at the next index
    /// time otherwise, and at once when the view changes.
    public func start() {
        let t = Thread { [self] in
            while true {
                lock.lock()
                while !stopped && !active { lock.wait() }
                if stopped { lock.unlock(); return }
                lock.unlock()
                let next = step()
                let now = clock()
                lock.lock()
                let until = Date().addingTimeInterval(min(3600, max(0.05, (next ?? now + 3600) - now)))
                while !stopped && !changed && Date() < until { _ = lock.wait(until: until) }
                lock.unlock()
            }
        }
        t.name = "nightmap.rainviewer"
        thread = t
        t.start()
    }

    /// Ends the background thread (a request in flight ends within its time limit).
    public func stop() {
        lock.lock(); stopped = true; lock.broadcast(); lock.unlock()
    }
}
