import Foundation
import MapCore
import MapData
import Raster

/// A loop of frames from a tiled weather service (RainViewer's radar, GIBS's clouds) for the part
/// of the world in view, kept current off the render thread and published as `RadarSeries`.
///
/// The service's listing (its `TileLoopSource`) is asked every `listingInterval` seconds and
/// kept on disk; each frame of the loop is the view's `TileMosaic` (at most the source's zoom,
/// stretched beyond), its tiles side by side. Tiles come from memory, then the disk cache, then
/// the service, newest frame first, paced by a `RequestBudget` (60 a minute: a loop's backfill
/// takes minutes, never a burst); a tile two frames share is fetched once. A frame is shown once
/// all its tiles are in; until one is, the newest shows as its tiles arrive.
///
/// When the service gives no listing, the last one on disk stands in and only the disk's tiles
/// are shown (labelled as cached), then the `fallback`. Every problem is one line through
/// `report`, naming the URL, said once while it stays the same. Time comes from `clock`; `step()`
/// does what may be done now, so tests drive it with a simulated clock.
public final class TileLoopFeed: @unchecked Sendable {
    public let source: any TileLoopSource
    let cache: RadarCache?
    let timeout: Double
    let clock: @Sendable () -> Double
    let report: @Sendable (String) -> Void
    let fallback: @Sendable () -> RadarSeries?
    /// Called after frames were composed (the process may give the memory freed back to the system).
    let afterComposing: @Sendable () -> Void

    /// Tiles one frame may take (larger views take a lower zoom).
    public static let tileLimit = 48
    /// Memory for tiles' bytes (beyond it, tiles outside the view go first).
    static let memoryLimit = 24 << 20

    private let lock = NSCondition()
    // Shared with the main thread (under `lock`).
    private var wanted: (visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double)?
    private var wantedTimes: [Double] = []
    private var active = true
    private var stopped = false
    private var latest: RadarSeries?
    private var generation = 0
    private var changed = false
    /// The worker's mosaic and zoom cap, for `want` to tell whether a view needs work.
    private var mosaicInUse: TileMosaic?
    private var zoomInUse = 0

    // The worker's own (one thread at a time runs `step`).
    private var budget: RequestBudget
    private var frames: [TileLoopFrame] = []
    private var framesTimes: [Double]?
    private var listedAt = -Double.infinity
    private var listingRetryAt = -Double.infinity
    /// Whether the listing in use came from the service (else from disk: only the disk's tiles show).
    private var online = false
    private var listed = false
    private var mosaic: TileMosaic?
    /// The zoom asked for at most (lowered when the service refuses one).
    public private(set) var maxZoom: Int
    private var tiles: [TileRequest: TileState] = [:]
    private var tileBytes = 0
    /// Tiles the disk cache was asked for and does not hold.
    private var notOnDisk = Set<TileRequest>()
    private var composed: [Double: (mosaic: TileMosaic, count: Int, frame: any RasterTexture, runs: ImageRuns)] = [:]
    private var reported: [String: String] = [:]
    private var lastError: String?
    private var fallbackSeries: RadarSeries?
    private var partialComposedAt = -Double.infinity
    private var publishedSignature = ""
    private var thread: Thread?
    /// The requests of the frames for a mosaic (`requestLists`), and the frames' generation.
    private var madeRequests: (mosaic: TileMosaic, times: [Double], generation: Int, lists: [(requests: [TileRequest?], tiles: [TileID])])?
    private var framesGeneration = 0

    enum TileState {
        /// A good tile's PNG (kept compressed: a loop of a large view is hundreds of tiles).
        case image(Data)
        /// No tile: why, and when it may be asked again.
        case failed(String, retry: Double)
    }

    /// `budget`: the service's pace (WORLD-DATA.md's: 60 a minute, a quarter of a second apart).
    public init(source: any TileLoopSource, cache: RadarCache?, timeout: Double = 10,
                budget: RequestBudget = RequestBudget(perMinute: 60, spacing: 0.25, backoffStart: 2, backoffLimit: 600),
                clock: @escaping @Sendable () -> Double, report: @escaping @Sendable (String) -> Void,
                afterComposing: @escaping @Sendable () -> Void = {}, fallback: @escaping @Sendable () -> RadarSeries?) {
        self.source = source; self.cache = cache; self.timeout = timeout; self.budget = budget
        self.clock = clock; self.report = report; self.fallback = fallback; self.afterComposing = afterComposing
        maxZoom = source.maxZoom
    }

    /// The provider's name.
    public var provider: String { source.provider }

    /// The disk cache of the tiled services (`$XDG_CACHE_HOME/nightmap/weather-tiles`): one folder
    /// per tile of a service, one file per frame time, and each service's last listing.
    public static func standardCache(environment: [String: String] = ProcessInfo.processInfo.environment) -> RadarCache {
        RadarCache(directory: XDGDirectory.cache(environment).appendingPathComponent("nightmap/weather-tiles"))
    }

    // MARK: The main thread's side

    /// The view to cover (from the camera): the worker fetches what it lacks.
    public func want(visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double) {
        lock.lock(); defer { lock.unlock() }
        if let w = wanted, w.zoom == zoom, w.visible == visible { return }
        wanted = (visible, zoom)
        // (A view the mosaic in use still covers at its zoom needs no work: the worker sleeps on.)
        if let m = mosaicInUse, m.covers(visible), TileMosaic.covering(visible, zoom: zoom, maxZoom: zoomInUse, tileLimit: Self.tileLimit)?.z == m.z {
            return
        }
        changed = true
        lock.broadcast()
    }

    /// The radar's frames' times (for a source whose frames follow them).
    public func want(times: [Double]) {
        lock.lock(); defer { lock.unlock() }
        guard times != wantedTimes else { return }
        wantedTimes = times
        changed = true
        lock.broadcast()
    }

    /// Whether the worker asks the service (its layer is shown); while inactive it waits.
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

    /// Does what may be done at the clock's now (the listing when due, tiles from the disk cache,
    /// one tile from the service when the budget allows) and publishes what changed. Returns
    /// when to come back (nil: nothing to do until the view changes).
    @discardableResult
    public func step() -> Double? {
        let now = clock()
        lock.lock()
        let view = wanted, times = wantedTimes
        changed = false
        lock.unlock()
        var dirty = false
        var wake: Double? = nil
        func soon(_ t: Double) { wake = min(wake ?? t, t) }

        // The listing, when due.
        if now >= max(listedAt + source.listingInterval, listingRetryAt) {
            let allowed = budget.nextAllowed(now: now)
            if allowed <= now, budget.take(now: now) {
                dirty = list(now: now) || dirty
            } else {
                soon(allowed)
            }
        }
        soon(max(listedAt + source.listingInterval, listingRetryAt))
        if listed && (dirty || framesTimes != times) {
            frames = source.frames(times: times)
            framesTimes = times
            framesGeneration += 1
            forgetOthers()
            dirty = true
        }

        guard let view, let wantedMosaic = TileMosaic.covering(view.visible, zoom: view.zoom, maxZoom: maxZoom, tileLimit: Self.tileLimit) else {
            if dirty { publish(now: now) }
            return wake
        }
        // A new mosaic only when the view leaves the old one or wants another zoom.
        if mosaic == nil || mosaic?.z != wantedMosaic.z || !(mosaic?.covers(view.visible) ?? false) {
            mosaic = wantedMosaic
            dirty = true
        }
        lock.lock(); mosaicInUse = mosaic; zoomInUse = maxZoom; lock.unlock()
        // Tiles: memory, then disk (all at once), then one from the service.
        if let mosaic {
            let list = requestLists(mosaic)
            var asked = false
            for (requests, ids) in list.reversed() {
                for (request, tile) in zip(requests, ids) {
                    guard let request else { continue }
                    switch tiles[request] {
                    case .image?: continue
                    case let .failed(_, retry)?:
                        if retry > now { soon(retry); continue }
                    case nil: break
                    }
                    if !notOnDisk.contains(request) {
                        if let data = cachedTile(request) {
                            store(request, .image(data))
                            dirty = true
                            continue
                        }
                        notOnDisk.insert(request)
                    }
                    guard online, !asked else { continue }
                    let allowed = budget.nextAllowed(now: now)
                    if allowed > now || !budget.take(now: now) { soon(allowed); asked = true; continue }
                    asked = true
                    fetchTile(request, tile, now: now)
                    dirty = true
                    soon(now)
                }
            }
        }
        if dirty { publish(now: now) }
        return wake
    }

    /// Each frame's requests for the mosaic's tiles (nil where clear), made once per frames and mosaic.
    private func requestLists(_ mosaic: TileMosaic) -> [(requests: [TileRequest?], tiles: [TileID])] {
        if let made = madeRequests, made.mosaic == mosaic, made.times == frames.map(\.time), made.generation == framesGeneration {
            return made.lists
        }
        let tiles = mosaic.tiles.map(\.tile)
        let lists = frames.map { f in (tiles.map { f.tile($0) }, tiles) }
        madeRequests = (mosaic, frames.map(\.time), framesGeneration, lists)
        return lists
    }

    /// Asks for the listing (else reads the last one from disk); true when the frames may have changed.
    private func list(now: Double) -> Bool {
        do {
            let listing = try source.list(now: now, timeout: timeout)
            budget.succeeded()
            for line in listing.skipped { say("listing " + line, line) }
            say("listing", nil)
            listedAt = now
            let wasOnline = online
            online = true
            listed = true
            if let doc = listing.document, listing.changed || !wasOnline { writeListing(doc) }
            return listing.changed || !wasOnline
        } catch {
            let line = "\(error)"
            budget.failed(now: now)
            listingRetryAt = now + max(budget.backoff, 30)
            lastError = line
            say("listing", line)
            let wasOnline = online
            online = false
            // The last listing on disk stands in (its frames' tiles from the disk only).
            if !listed, let doc = readListing(), (try? source.restore(doc, now: now)) != nil {
                listed = true
                return true
            }
            return wasOnline
        }
    }

    /// Fetches, checks and stores one tile.
    private func fetchTile(_ request: TileRequest, _ t: TileID, now: Double) {
        let url = request.url
        guard let u = URL(string: url) else {
            store(request, .failed("\(url): not a URL", retry: .infinity))
            return
        }
        // A 256-pixel tile is at most its raw pixels (and a little).
        switch HTTPGet.run(u, timeout: timeout, maxBytes: 256 * 256 * 4 + 65536, maxRedirects: 5, accept: "image/png, image/jpeg") {
        case let .failure(f):
            budget.failed(now: now)
            // A 429 is the service asking to slow down: the budget backs off for every request.
            tileFailed(request, "\(url): \(f.reason)", retry: now + max(budget.backoff, f.status == 404 ? source.listingInterval : 60))
        case let .success(r):
            if source.isZoomRefusal(r.body, zoom: t.z) {
                // The service serves less than it says: ask one less from now on.
                maxZoom = max(0, min(maxZoom, t.z - 1))
                mosaic = nil
                tileFailed(request, "\(url): the service refuses zoom \(t.z); asking zoom \(maxZoom) at most", retry: .infinity)
                return
            }
            do {
                _ = try RadarImage.decode(r.body, name: url, size: (TileMosaic.tileSize, TileMosaic.tileSize), needsClearPixels: false)
                budget.succeeded()
                store(request, .image(r.body))
                if let cache {
                    do {
                        try cache.write(key: request.cacheKey, time: request.time, data: r.body, about: "\(source.listingName)\ntile \(t)")
                    } catch {
                        say("cache", "\(error)")
                    }
                }
            } catch {
                budget.failed(now: now)
                tileFailed(request, "\(error)", retry: now + max(budget.backoff, 60))
            }
        }
    }

    private func tileFailed(_ request: TileRequest, _ line: String, retry: Double) {
        store(request, .failed(line, retry: retry))
        lastError = line
        say("tile " + request.url, line)
    }

    /// Keeps a tile's state, dropping the bytes of tiles outside the mosaic beyond the limit.
    private func store(_ request: TileRequest, _ state: TileState) {
        if case let .image(d)? = tiles[request] { tileBytes -= d.count }
        tiles[request] = state
        if case let .image(d) = state { tileBytes += d.count }
        guard tileBytes > Self.memoryLimit, let mosaic else { return }
        let inView = Set(requestLists(mosaic).flatMap { $0.requests.compactMap { $0 } })
        for (k, s) in tiles where !inView.contains(k) {
            guard tileBytes > Self.memoryLimit else { break }
            if case let .image(d) = s { tiles[k] = nil; tileBytes -= d.count }
        }
    }

    /// Forgets tiles and frames no frame of the loop has any more.
    private func forgetOthers() {
        let times = Set(frames.map(\.time))
        composed = composed.filter { times.contains($0.key) }
        if let mosaic {
            // (The times the frames' tiles are of: a tile of no other time is of no frame.)
            let used = Set(frames.flatMap { f in mosaic.tiles.compactMap { f.tile($0.tile)?.time } })
            tiles = tiles.filter { used.contains($0.key.time) }
        }
        tileBytes = tiles.values.reduce(0) { if case let .image(d) = $1 { return $0 + d.count } else { return $0 } }
        notOnDisk = []
    }

    /// A tile from the disk cache, when it decodes (a file that no longer does is removed).
    private func cachedTile(_ request: TileRequest) -> Data? {
        guard let cache, let (data, path) = cache.read(key: request.cacheKey, time: request.time) else { return nil }
        guard (try? RadarImage.decode(data, name: path, size: (TileMosaic.tileSize, TileMosaic.tileSize), needsClearPixels: false)) != nil else {
            cache.remove(key: request.cacheKey, time: request.time)
            return nil
        }
        return data
    }

    /// The last listing, kept beside the tiles.
    private var listingPath: String? { cache?.directory.appendingPathComponent("\(source.cacheName)-listing").path }

    private func writeListing(_ document: Data) {
        guard let cache, let path = listingPath else { return }
        do {
            try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true)
            try AtomicFile.write(document, to: path)
        } catch {
            say("cache", "\(path): \(error)")
        }
    }

    private func readListing() -> Data? { listingPath.flatMap { FileManager.default.contents(atPath: $0) } }

    /// Makes the series of the frames and the mosaic and publishes it when what it shows changed.
    /// Whole frames are composed once; until one is whole, the newest with tiles shows as they
    /// come (composed again at most once a second).
    private func publish(now: Double) {
        guard let mosaic, !frames.isEmpty else {
            publishFallback()
            return
        }
        let lists = requestLists(mosaic)
        let counts = lists.map { list in
            list.requests.reduce(into: (have: 0, need: 0, problem: String?.none)) { r, request in
                guard let request else { return }
                r.need += 1
                switch tiles[request] {
                case .image?: r.have += 1
                case let .failed(why, _)?: r.problem = r.problem ?? why
                case nil: break
                }
            }
        }
        let anyWhole = counts.contains { $0.have == $0.need && $0.need > 0 }
        let partial = anyWhole ? nil : counts.lastIndex { $0.have > 0 }
        var slots: [RadarSeries.Slot] = []
        var madeAny = false
        defer { if madeAny { afterComposing() } }
        for (i, frame) in frames.enumerated() {
            let (have, need, problem) = counts[i]
            let whole = have == need
            let name = "\(source.provider) \(RadarTime.iso(frame.time))"
            guard whole || i == partial else {
                slots.append(.init(time: frame.time, status: have == 0 && problem != nil ? .error : .missing, name: name, problem: problem))
                continue
            }
            var made = composed[frame.time].flatMap { $0.mosaic == mosaic ? $0 : nil }
            if made?.count != have && (whole || made == nil || now >= partialComposedAt + 1) {
                var images: [TileID: Pixmap] = [:]
                for (request, t) in zip(lists[i].requests, lists[i].tiles) {
                    if let request, case let .image(d)? = tiles[request] {
                        images[t] = try? RadarImage.decode(d, name: request.url, size: (TileMosaic.tileSize, TileMosaic.tileSize), needsClearPixels: false)
                    }
                }
                let (image, runs) = RadarFeed.frame(mosaic.compose(images))
                made = (mosaic, have, image, runs)
                madeAny = true
                composed[frame.time] = made
                if !whole { partialComposedAt = now }
            }
            slots.append(.init(time: frame.time, status: whole ? .ok : .missing, image: made?.frame, runs: made?.runs, name: name, problem: problem))
        }
        guard slots.contains(where: { $0.image != nil }) else {
            publishFallback()
            return
        }
        let origin: RadarSeries.Origin = online ? .live : .cache
        // (Published only when it shows something else: new frames, statuses or origin.)
        let signature = slots.map { "\($0.time ?? 0) \($0.status) \($0.image.map { ObjectIdentifier($0).hashValue } ?? 0)" }.joined(separator: ",")
            + " \(origin) \(lastError ?? "")"
        guard signature != publishedSignature else { return }
        publishedSignature = signature
        var series = RadarSeries(origin: origin, slots: slots, lastError: lastError, provider: source.provider, placement: (mosaic.corners, .linear))
        series.legend = source.legend
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
    /// failed, or there is no listing), at most until `deadline` (`ProcessInfo.systemUptime`
    /// seconds), waiting as the budget asks.
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

    /// Whether every tile of the newest frame of the view is in or failed (or offline, where
    /// only the disk's tiles come; or there is nothing to load).
    private var newestSettled: Bool {
        guard let newest = frames.last, let mosaic else { return listingRetryAt > -Double.infinity }
        return !online || mosaic.tiles.allSatisfy { t in newest.tile(t.tile).map { tiles[$0] != nil } ?? true }
    }

    // MARK: The background thread

    /// Steps until `stop()`: as soon as the budget allows while work is left, at the next
    /// listing otherwise, and at once when the view changes.
    public func start(name: String) {
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
        t.name = name
        thread = t
        t.start()
    }

    /// Ends the background thread (a request in flight ends within its time limit).
    public func stop() {
        lock.lock(); stopped = true; lock.broadcast(); lock.unlock()
    }
}
