import Foundation
import MapCore
import MapData
import Raster

/// A live radar source kept current off the render thread: every slot of the schedule is
/// fetched once (the disk cache first), checked, decoded, cached and published as a new
/// `RadarSeries`; a refresh after each new slot fetches only what is new or still missing, and
/// slots older than the window drop out.
///
/// When nothing of the current window can be had, the series is the last loop in the disk cache
/// (labelled as cached), then the bundled demo frames (`fallback`). Every problem is one line
/// through `report`, naming the URL, once per slot and reason.
public final class RadarFeed: @unchecked Sendable {
    /// What to fetch.
    public struct Source: Sendable {
        public var template: RadarURLTemplate
        public var box: LngLatBounds
        public var width: Int, height: Int
        public var schedule: RadarSchedule
        /// Who makes the frames, for the attribution ("IEM NEXRAD").
        public var provider: String

        public init(template: RadarURLTemplate, box: LngLatBounds, width: Int, height: Int, schedule: RadarSchedule, provider: String) {
            self.template = template; self.box = box; self.width = width; self.height = height
            self.schedule = schedule; self.provider = provider
        }

        /// The pixels to ask for: the box's size on screen at zoom `maxZoom` (each side 1...4096).
        public static func requestSize(box: LngLatBounds, maxZoom: Double) -> (width: Int, height: Int) {
            let world = WebMercator.tileSize * pow(2, maxZoom)
            let w = (WebMercator.x(lng: box.east) - WebMercator.x(lng: box.west)) * world
            let h = (WebMercator.y(lat: box.south) - WebMercator.y(lat: box.north)) * world
            func side(_ v: Double) -> Int { v.isFinite ? min(4096, max(1, Int(v.rounded(.up)))) : 1 }
            return (side(w), side(h))
        }

        /// The IEM mosaic's name as a provider.
        public static let iemProvider = "IEM NEXRAD"

        /// The IEM mosaic's provider name, else the template's host.
        public static func provider(for template: RadarURLTemplate) -> String {
            template == .iem ? iemProvider : template.host
        }
    }

    public let source: Source
    let cache: RadarCache?
    /// Each request's time limit in seconds.
    let timeout: Double
    /// Requests at once.
    let concurrency: Int
    let clock: @Sendable () -> Double
    let report: @Sendable (String) -> Void
    let fallback: @Sendable () -> RadarSeries?
    /// Called after a refresh that fetched slots (the process may give the memory decoding
    /// freed back to the system).
    let afterFetching: @Sendable () -> Void
    let cacheKey: String

    private let lock = NSCondition()
    private var states: [Double: SlotState] = [:]
    private var window: [Double] = []
    private var reported: [Double: String] = [:]
    /// The slots that failed in the refresh under way, and why.
    private var failures: [(time: Double, line: String)] = []
    /// The last problem of the latest refresh that asked the source.
    private var lastError: String?
    /// Whether the latest refresh that asked the source got a frame from it (false before the
    /// first): the current window's loop is `live` only then, `cache` otherwise, so a loop read
    /// back from disk while the source does not answer is never called live.
    private var reachedSource = false
    private var latest: RadarSeries?
    private var generation = 0
    private var stopped = false
    /// Whether the background thread refreshes (its provider is shown).
    private var active = true
    /// Set when the thread is made active again: it refreshes at once.
    private var kicked = false
    private var thread: Thread?
    /// The frames of the last fallback (an older cached loop or the demo), kept while nothing
    /// current can be had.
    private var fallbackSeries: RadarSeries?
    /// World files found beside image URLs, by folder (a nil value: looked for, none there).
    private var worldGrids: [String: RadarImage.Grid?] = [:]
    private let worldLock = NSLock()

    enum SlotState {
        case ok(any RasterTexture, ImageRuns)
        case missing(String?)
        case error(String)
        var isOK: Bool { if case .ok = self { return true } else { return false } }
    }

    public init(source: Source, cache: RadarCache?, timeout: Double = 10, concurrency: Int = 3,
                clock: @escaping @Sendable () -> Double, report: @escaping @Sendable (String) -> Void,
                afterFetching: @escaping @Sendable () -> Void = {},
                fallback: @escaping @Sendable () -> RadarSeries?) {
        self.source = source; self.cache = cache; self.timeout = timeout; self.concurrency = max(1, concurrency)
        self.clock = clock; self.report = report; self.afterFetching = afterFetching; self.fallback = fallback
        cacheKey = RadarCache.key(template: source.template, box: source.box, width: source.width, height: source.height)
    }

    // MARK: Publishing

    /// The newest series when it is newer than `generation` (0 for the first), with its generation.
    public func take(after generation: Int) -> (series: RadarSeries, generation: Int)? {
        lock.lock(); defer { lock.unlock() }
        guard let latest, self.generation > generation else { return nil }
        return (latest, self.generation)
    }

    /// The series for the current window (lock held). While the window has no frame yet, a
    /// refresh in progress publishes nothing, so the loop shown stays on screen; at its end the
    /// fallback (`fallbackSeries`, found beforehand) is published instead.
    private func publishLocked(final: Bool) {
        if let current = currentLocked() {
            latest = current
            fallbackSeries = nil
        } else if final, var f = fallbackSeries {
            f.lastError = lastError
            latest = f
        } else {
            return
        }
        generation += 1
    }

    /// The current window's series, when it has a frame (lock held).
    private func currentLocked() -> RadarSeries? {
        guard window.contains(where: { states[$0]?.isOK ?? false }) else { return nil }
        let slots = window.map { t -> RadarSeries.Slot in
            let name = source.template.url(time: t, box: source.box, width: source.width, height: source.height)?.absoluteString ?? source.template.text
            switch states[t] ?? .missing(nil) {
            case let .ok(image, runs): return .init(time: t, status: .ok, image: image, runs: runs, name: name)
            case let .missing(why): return .init(time: t, status: .missing, name: name, problem: why)
            case let .error(why): return .init(time: t, status: .error, name: name, problem: why)
            }
        }
        return RadarSeries(origin: reachedSource ? .live : .cache, slots: slots, lastError: lastError, provider: source.provider, placement: placement)
    }

    /// Where the frames go: the box asked for, each row at its latitude.
    private var placement: (corners: ImageCorners, placement: ImagePlacement) { (ImageCorners(source.box), .lonlat) }

    /// The newest `count` cached frames at or before `now` (an earlier loop), or nil.
    private func offlineLoop(now: Double) -> RadarSeries? {
        guard let cache else { return nil }
        var slots: [RadarSeries.Slot] = []
        for t in cache.times(key: cacheKey).reversed() {
            guard slots.count < source.schedule.count else { break }
            if t > now + 60 {
                note(t, "\(cache.directory.path)/\(cacheKey): cached frame for \(RadarTime.iso(t)) is later than now (\(RadarTime.iso(now))); skipped")
                continue
            }
            guard let (frame, runs, path) = cachedFrame(cache, t) else { continue }
            slots.append(.init(time: t, status: .ok, image: frame, runs: runs, name: path))
        }
        guard !slots.isEmpty else { return nil }
        return RadarSeries(origin: .cache, slots: slots.reversed(), lastError: nil, provider: source.provider, placement: placement)
    }

    /// This refresh's failures, one line for each reason (slots that failed alike are counted
    /// in the line of the newest), each slot's reason said once while it stays the same.
    private func reportFailuresLocked() {
        var groups: [(reason: String, slots: [(time: Double, line: String)])] = []
        for (t, line) in failures.sorted(by: { $0.time > $1.time }) {
            let url = source.template.url(time: t, box: source.box, width: source.width, height: source.height)?.absoluteString ?? ""
            let reason = line.hasPrefix(url + ": ") ? String(line.dropFirst(url.count + 2)) : line
            if let k = groups.firstIndex(where: { $0.reason == reason }) { groups[k].slots.append((t, line)) } else { groups.append((reason, [(t, line)])) }
        }
        for g in groups {
            let new = g.slots.filter { reported[$0.time] != $0.line }
            guard !new.isEmpty else { continue }
            for s in g.slots { reported[s.time] = s.line }
            if g.slots.count == 1 { report(g.slots[0].line); continue }
            let times = g.slots.map(\.time)
            report("\(g.slots[0].line) (and \(g.slots.count - 1) more slots, \(RadarTime.hourMinute(times.min()!))-\(RadarTime.hourMinute(times.max()!)) UTC)")
        }
        failures = []
    }

    /// Slot `t`'s frame from the disk cache, decoded and kept as the loop keeps frames; a file
    /// that no longer decodes is removed.
    private func cachedFrame(_ cache: RadarCache, _ t: Double) -> (any RasterTexture, ImageRuns, String)? {
        guard let (data, path) = cache.read(key: cacheKey, time: t) else { return nil }
        guard let image = try? RadarImage.decode(data, name: path, size: (source.width, source.height)) else {
            cache.remove(key: cacheKey, time: t)
            return nil
        }
        let (frame, runs) = Self.frame(image)
        return (frame, runs, path)
    }

    private func note(_ slot: Double, _ line: String) {
        lock.lock(); defer { lock.unlock() }
        reportLocked(slot, line)
    }

    private func reportLocked(_ slot: Double, _ line: String) {
        lastError = line
        guard reported[slot] != line else { return }
        reported[slot] = line
        report(line)
    }

    // MARK: Refreshing

    /// One refresh, waited for: the window of slots for now, the cache, then every slot still
    /// missing from the source (newest first, `concurrency` at once). `deadline`
    /// (`ProcessInfo.systemUptime` seconds) bounds the whole refresh.
    public func refresh(deadline: Double? = nil) {
        let now = clock()
        let slots = source.schedule.slots(at: now)
        lock.lock()
        window = slots
        for t in states.keys where !slots.contains(t) { states[t] = nil; reported[t] = nil }
        let unknown = slots.reversed().filter { !(states[$0]?.isOK ?? false) }
        lock.unlock()
        // The disk cache first: a slot fetched by an earlier run is not asked for again.
        var fromDisk: [Double: SlotState] = [:]
        if let cache {
            for t in unknown {
                if let (frame, runs, _) = cachedFrame(cache, t) { fromDisk[t] = .ok(frame, runs) }
            }
        }
        let todo = WorkList(unknown.filter { fromDisk[$0] == nil })
        // (The workers empty `todo`: whether this refresh asks the source is known only now.)
        let asks = !todo.isEmpty
        lock.lock()
        for (t, s) in fromDisk where window.contains(t) { states[t] = s }
        if asks { lastError = nil }
        publishLocked(final: false)
        // Nothing shown yet and nothing current on disk: the fallback shows while the source is
        // asked (a source that does not answer takes its time limit to say so).
        let showFallbackFirst = latest == nil && fallbackSeries == nil && asks
        lock.unlock()
        if showFallbackFirst {
            let found = offlineLoop(now: now) ?? fallback()
            lock.lock()
            if latest == nil, let found {
                fallbackSeries = found
                latest = found
                generation += 1
            }
            lock.unlock()
        }

        let answered = Counter()
        failures = []
        if asks {
            // Workers take slots from the list, newest first.
            let group = DispatchGroup()
            for _ in 0..<min(concurrency, todo.count) {
                group.enter()
                let worker = Thread { [self] in
                    defer { group.leave() }
                    while !isStopped, let t = todo.next() {
                        var limit = timeout
                        if let deadline { limit = min(limit, deadline - ProcessInfo.processInfo.systemUptime) }
                        let state = limit > 0.05 ? fetch(t, timeout: limit) : .missing(nil)
                        lock.lock()
                        if window.contains(t) {
                            states[t] = state
                            switch state {
                            case .ok: answered.add(); reachedSource = true
                            case let .missing(why?), let .error(why): failures.append((t, why)); lastError = why
                            case .missing(nil): break
                            }
                            publishLocked(final: false)
                        }
                        lock.unlock()
                    }
                }
                worker.name = "nightmap.radar.request"
                worker.start()
            }
            group.wait()
        }
        lock.lock()
        reportFailuresLocked()
        // Nothing current: the last loop on disk, else the fallback, found outside the lock.
        let needsFallback = currentLocked() == nil && fallbackSeries == nil
        lock.unlock()
        let found = needsFallback ? (offlineLoop(now: now) ?? fallback()) : nil
        lock.lock()
        if let found { fallbackSeries = found }
        // A refresh that asked nothing (every slot on hand) leaves the verdict of the last one that did.
        if asks { reachedSource = answered.value > 0 }
        publishLocked(final: true)
        lock.unlock()
        if asks { afterFetching() }
    }

    /// Fetches, checks and decodes one slot; a good image is cached before it counts.
    func fetch(_ t: Double, timeout: Double) -> SlotState {
        guard let url = source.template.url(time: t, box: source.box, width: source.width, height: source.height) else {
            return .error("\(source.template): cannot make a URL for \(RadarTime.iso(t))")
        }
        let name = url.absoluteString
        // Nothing legitimate is larger than the raw pixels (and a little).
        let maxBytes = min(32 << 20, source.width * source.height * 4 + (1 << 20))
        let body: Data
        switch HTTPGet.run(url, timeout: timeout, maxBytes: maxBytes, maxRedirects: 5, accept: "image/png, image/gif") {
        case let .failure(f):
            let missing = f.reason.hasPrefix("HTTP 404") || f.reason.hasPrefix("HTTP 410") || f.reason.hasPrefix("no answer")
                || f.reason.hasPrefix("connection refused") || f.reason.hasPrefix("unknown host")
            return missing ? .missing("\(name): \(f.reason)") : .error("\(name): \(f.reason)")
        case let .success(r):
            if r.status == 204 { return .missing("\(name): HTTP 204 (No Content)") }
            body = r.body
        }
        do {
            var image: Pixmap
            var keep = body
            if let declared = RadarImage.declaredSize(body), declared != (source.width, source.height),
               let grid = worldGrid(beside: url, timeout: timeout) {
                // A whole mosaic placed by the world file beside it (IEM's archive): cropped and
                // sampled to the box as it is read; the cache keeps the box only.
                image = try RadarImage.decode(body, name: name, grid: grid, box: source.box, width: source.width, height: source.height)
                guard RadarImage.hasClearPixels(image) else { throw RadarImage.Failure(description: "\(name): image has no transparent pixels in the box") }
                keep = try PNGCodec.encode(image)
            } else {
                image = try RadarImage.decode(body, name: name, size: (source.width, source.height))
            }
            let (frame, runs) = Self.frame(image)
            if let cache {
                do {
                    try cache.write(key: cacheKey, time: t, data: keep,
                                    about: "\(source.template.text)\nbox \(source.box.west),\(source.box.south),\(source.box.east),\(source.box.north) size \(source.width)x\(source.height)")
                } catch {
                    report("\(error)")
                }
            }
            return .ok(frame, runs)
        } catch {
            return .error("\(error)")
        }
    }

    /// The world file beside an image URL (its extension replaced by `.wld`), asked once per
    /// image directory and remembered (nil when there is none).
    private func worldGrid(beside url: URL, timeout: Double) -> RadarImage.Grid? {
        let wld = url.deletingPathExtension().appendingPathExtension("wld")
        let folder = wld.deletingLastPathComponent().absoluteString
        // (One lookup at a time: the workers that need it wait for the first one's answer.)
        worldLock.lock(); defer { worldLock.unlock() }
        lock.lock()
        if let known = worldGrids[folder] { lock.unlock(); return known }
        lock.unlock()
        var grid: RadarImage.Grid?
        if case let .success(r) = HTTPGet.run(wld, timeout: timeout, maxBytes: 4096, maxRedirects: 5, accept: "text/plain") {
            grid = try? WorldFile.grid(String(decoding: r.body, as: UTF8.self), origin: wld.absoluteString)
        }
        lock.lock(); worldGrids[folder] = grid; lock.unlock()
        return grid
    }

    /// A decoded image as the loop keeps it: as palette indices when it has at most 256 colours
    /// (a radar frame's are its ramp's: a quarter of the memory), with its clear runs.
    public static func frame(_ image: Pixmap) -> (any RasterTexture, ImageRuns) {
        let kept: any RasterTexture = IndexedImage(image) ?? image
        return (kept, ImageRuns(kept))
    }

    // MARK: The background thread

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Refreshes now and after every new slot (a fifth of a step after it, at most a minute, as
    /// the mosaic takes a while to appear) until `stop()`.
    public func start() {
        let t = Thread { [self] in
            while true {
                lock.lock()
                while !stopped && !active { lock.wait() }
                let quit = stopped
                lock.unlock()
                if quit { return }
                refresh()
                let now = clock()
                let next = source.schedule.nextSlot(after: now) + min(60, source.schedule.step / 5)
                lock.lock()
                let until = Date().addingTimeInterval(max(0.5, next - now))
                kicked = false
                while !stopped && !kicked && Date() < until { _ = lock.wait(until: until) }
                lock.unlock()
            }
        }
        t.name = "nightmap.radar"
        thread = t
        t.start()
    }

    /// Whether the background thread refreshes: off while another provider is shown (it then
    /// asks nothing), on again at once.
    public func setActive(_ on: Bool) {
        lock.lock(); defer { lock.unlock() }
        guard active != on else { return }
        active = on
        if on { kicked = true }
        lock.broadcast()
    }

    /// Ends the background thread (a request in flight ends within its time limit).
    public func stop() {
        lock.lock(); stopped = true; lock.broadcast(); lock.unlock()
    }
}

/// Slots still to fetch, taken by several workers.
private final class WorkList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Double]
    init(_ items: [Double]) { self.items = items }
    var isEmpty: Bool { lock.lock(); defer { lock.unlock() }; return items.isEmpty }
    var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
    func next() -> Double? { lock.lock(); defer { lock.unlock() }; return items.isEmpty ? nil : items.removeFirst() }
}

/// A count several threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
