import Foundation
import MapCore
import MapData

/// The NWS's active alerts kept current off the render thread (WARNINGS.md): one national
/// `/alerts/active?status=actual` request at most once a minute and no sooner than the answer's
/// `Expires` allows, revalidated with `If-Modified-Since` (a 304 keeps what is shown), with an
/// exponential back-off after errors (`RequestBudget`); the zone-based alerts get their zones'
/// shapes (each zone fetched once, cached on disk for a day). The last answer is kept on disk:
/// offline, its alerts show, labelled cached (the model hides those that have expired).
///
/// Every problem is one line through `report`, naming the URL, said once while it stays the same.
public final class WarningsFeed: @unchecked Sendable {
    /// One alert with the shape it is drawn with: its storm polygon, else its zones' shapes
    /// joined (nil while none could be had: listed, not drawn).
    public struct Warning: Sendable {
        public let alert: NWSAlerts.Alert
        public let shape: FeatureGeometry?
        public init(alert: NWSAlerts.Alert, shape: FeatureGeometry?) { self.alert = alert; self.shape = shape }
    }

    /// What the feed publishes.
    public struct Shown: Sendable {
        public enum Origin: String, Sendable { case live, cache }
        public var warnings: [Warning]
        public var origin: Origin
        /// The last problem asking the service (nil after a good answer).
        public var lastError: String?
        /// When the answer shown was fetched (Unix seconds).
        public var fetched: Double
        public init(warnings: [Warning], origin: Origin, lastError: String?, fetched: Double) {
            self.warnings = warnings; self.origin = origin; self.lastError = lastError; self.fetched = fetched
        }
    }

    /// api.weather.gov.
    public static let defaultBase = "https://api.weather.gov"
    /// The path asked for, after the base: every actual alert in force (WORLD-DATA.md, section 3).
    public static let activePath = "/alerts/active?status=actual"
    /// Seconds between polls at least, and at most when the answer's `Expires` says more.
    public static let minimumPause = 60.0, maximumPause = 3600.0
    /// New zones fetched per poll at most (the rest at the next; each is kept a day).
    public static let zonesPerPoll = 300

    public let base: String
    let userAgent: String
    let cache: AlertsCache?
    let timeout: Double
    let clock: @Sendable () -> Double
    let report: @Sendable (String) -> Void

    /// Publishing (`take`), and `stopped`.
    private let lock = NSCondition()
    private var latest: Shown?
    private var generation = 0
    private var stopped = false
    /// The poll's own state: used by one poll at a time (`pollLock`).
    private let pollLock = NSLock()
    private var budget = RequestBudget(perMinute: 1, spacing: WarningsFeed.minimumPause, backoffStart: 60, backoffLimit: 960)
    private var notBefore = -Double.infinity
    private var lastModified: String?
    private var answer: NWSAlerts?
    private var fetched = 0.0
    private var origin = Shown.Origin.cache
    private var lastError: String?
    private var zones: [String: ZoneState] = [:]
    private var reported: [String: String] = [:]
    private var cacheRead = false

    enum ZoneState {
        case shape(FeatureGeometry, fetched: Double)
        case failed(String, at: Double)
    }

    /// `base`: the API's address (`--alerts-url`); `contact`: added to the User-Agent.
    public init(base: String = WarningsFeed.defaultBase, contact: String? = nil, cache: AlertsCache?, timeout: Double = 10,
                clock: @escaping @Sendable () -> Double, report: @escaping @Sendable (String) -> Void) {
        var b = base
        while b.hasSuffix("/") { b.removeLast() }
        self.base = b
        userAgent = HTTPGet.userAgent(contact: contact)
        self.cache = cache; self.timeout = timeout; self.clock = clock; self.report = report
    }

    public var activeURL: String { base + Self.activePath }

    /// The newest alerts when newer than `generation` (0 for the first), with their generation.
    public func take(after generation: Int) -> (shown: Shown, generation: Int)? {
        lock.lock(); defer { lock.unlock() }
        guard let latest, self.generation > generation else { return nil }
        return (latest, self.generation)
    }

    /// Waits until alerts newer than `generation` are published, at most `timeout` seconds;
    /// whether they were (for tests of the background thread).
    public func waitForUpdate(after generation: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock(); defer { lock.unlock() }
        while self.generation <= generation { if !lock.wait(until: deadline) { return self.generation > generation } }
        return true
    }

    /// The earliest instant the next poll asks the service.
    public var nextPoll: Double {
        pollLock.lock(); defer { pollLock.unlock() }
        return max(notBefore, budget.nextAllowed(now: notBefore))
    }

    // MARK: Polling

    /// One poll if its time has come (else nothing): the cached answer first (once), then the
    /// service, then the zones still missing. `deadline` (`ProcessInfo.systemUptime` seconds)
    /// bounds the requests. Returns whether it asked the service.
    @discardableResult
    public func poll(deadline: Double? = nil) -> Bool {
        pollLock.lock(); defer { pollLock.unlock() }
        let now = clock()
        if !cacheRead { cacheRead = true; readCache(now: now) }
        guard now >= notBefore, budget.take(now: now) else { return false }
        func limit() -> Double { deadline.map { min(timeout, $0 - ProcessInfo.processInfo.systemUptime) } ?? timeout }
        let url = activeURL
        guard let address = URL(string: url), limit() > 0.05 else { return false }
        let result = HTTPGet.run(address, timeout: limit(), maxBytes: 32 << 20, maxRedirects: 3, accept: "application/geo+json",
                                 headers: lastModified.map { ["If-Modified-Since: \($0)"] } ?? [], notModified: answer != nil,
                                 userAgent: userAgent)
        switch result {
        case let .failure(f):
            failed("\(url): \(f.reason)", now: now)
        case let .success(r) where r.status == 304:
            budget.succeeded()
            notBefore = now + Self.pause(r.headers, now: now)
            origin = .live; lastError = nil; reported["answer"] = nil
            publish()
        case let .success(r):
            do {
                let alerts = try NWSAlerts(data: r.body, url: url)
                budget.succeeded()
                notBefore = now + Self.pause(r.headers, now: now)
                answer = alerts; fetched = now; origin = .live; lastError = nil; reported["answer"] = nil
                lastModified = r.headers["last-modified"]
                tell(alerts)
                if let cache {
                    do { try cache.writeAnswer(r.body, fetched: now, lastModified: lastModified) } catch { say("cache", "\(error)") }
                }
                forgetZones()
                publish()
                if resolveZones(now: now, limit: limit) { publish() }
            } catch {
                failed("\(error)", now: now)
            }
        }
        return true
    }

    /// A failed poll: one line, the back-off, and what is shown stays (labelled cached).
    private func failed(_ line: String, now: Double) {
        budget.failed(now: now)
        notBefore = now
        lastError = line
        origin = .cache
        say("answer", line)
        publish()
    }

    /// The cached answer, shown (as cached) until the service answers.
    private func readCache(now: Double) {
        guard let cache, let entry = cache.answer() else { return }
        do {
            let alerts = try NWSAlerts(data: entry.data, url: entry.path)
            answer = alerts; fetched = entry.fetched; origin = .cache; lastModified = entry.lastModified
            _ = resolveZones(now: now, limit: { 0 })         // (zones from the disk cache only)
            publish()
        } catch {
            say("cache", "\(error)")
        }
    }

    /// Names the features the answer skipped and its unknown events (each once).
    private func tell(_ alerts: NWSAlerts) {
        for line in alerts.skipped { say("skipped " + line, "\(activeURL): \(line)") }
        for event in alerts.unknownEvents {
            say("event " + event, "\(activeURL): unknown event '\(MessageText.clipped(event, to: 80))', drawn in grey")
        }
    }

    /// Fetches the shapes of the zones the answer's zone-based alerts name and has none of yet
    /// (`limit()` bounds each request; 0: the disk cache only); whether any was added.
    private func resolveZones(now: Double, limit: () -> Double) -> Bool {
        guard let answer else { return false }
        var added = false, asked = 0
        // (The most severe alerts' zones first: a large outbreak takes several polls.)
        for alert in answer.alerts.sorted(by: { WarningsState.rank($0) > WarningsState.rank($1) }) where alert.geometry == nil {
            for zone in alert.zones {
                let url = zoneURL(zone)
                switch zones[url] {
                case let .shape(_, fetched)? where now - fetched < AlertsCache.zoneLifetime: continue
                case let .failed(_, at)? where now - at < 3600: continue
                default: break
                }
                if let entry = cache?.zone(url, now: now), let shape = try? NWSZone.shape(data: entry.data, url: url) {
                    zones[url] = .shape(shape, fetched: entry.fetched); added = true; continue
                }
                guard asked < Self.zonesPerPoll, limit() > 0.05, !isStopped, let address = URL(string: url) else { continue }
                asked += 1
                let result = HTTPGet.run(address, timeout: limit(), maxBytes: 8 << 20, maxRedirects: 3, accept: "application/geo+json",
                                         userAgent: userAgent)
                do {
                    switch result {
                    case let .failure(f): throw NWSZone.Failure(description: "\(url): \(f.reason)")
                    case let .success(r):
                        let shape = try NWSZone.shape(data: r.body, url: url)
                        zones[url] = .shape(shape, fetched: now); added = true
                        reported["zone " + url] = nil
                        if let cache {
                            do { try cache.writeZone(url, data: r.body, fetched: now) } catch { say("cache", "\(error)") }
                        }
                    }
                } catch {
                    zones[url] = .failed("\(error)", at: now)
                    say("zone " + url, "\(error); '\(alert.event)' listed, its zone not drawn")
                }
            }
        }
        return added
    }

    /// A zone's address with this feed's base in place of api.weather.gov's (a mirror or a
    /// stand-in serves the zones too).
    func zoneURL(_ zone: String) -> String {
        let official = Self.defaultBase + "/"
        guard base != Self.defaultBase, zone.hasPrefix(official) else { return zone }
        return base + "/" + zone.dropFirst(official.count)
    }

    /// Forgets the zones no alert of the answer names any more (they stay on disk for a day).
    private func forgetZones() {
        guard let answer else { return }
        let named = Set(answer.alerts.filter { $0.geometry == nil }.flatMap { $0.zones.map(zoneURL) })
        for url in zones.keys where !named.contains(url) { zones[url] = nil }
    }

    /// Publishes the answer with its shapes.
    private func publish() {
        guard let answer else {
            lock.lock(); defer { lock.unlock() }
            // Nothing to show yet: an empty list, so `state` can say why.
            latest = Shown(warnings: [], origin: .cache, lastError: lastError, fetched: fetched)
            generation += 1
            lock.broadcast()
            return
        }
        let warnings = answer.alerts.map { a -> Warning in
            if let g = a.geometry { return Warning(alert: a, shape: g) }
            let shapes = a.zones.compactMap { z -> FeatureGeometry? in
                if case let .shape(g, _)? = zones[zoneURL(z)] { return g }
                return nil
            }
            return Warning(alert: a, shape: NWSZone.merged(shapes))
        }
        lock.lock(); defer { lock.unlock() }
        latest = Shown(warnings: warnings, origin: origin, lastError: lastError, fetched: fetched)
        generation += 1
        lock.broadcast()
    }

    /// Says `line` unless it was the last said under `key`.
    private func say(_ key: String, _ line: String) {
        guard reported[key] != line else { return }
        reported[key] = line
        report(line)
    }

    /// Seconds until the next poll: until the answer's `Expires` (against its `Date`, else
    /// `now`; else `Cache-Control: max-age`), at least a minute, at most an hour.
    static func pause(_ headers: [String: String], now: Double) -> Double {
        var wait = minimumPause
        if let expires = headers["expires"].flatMap(HTTPDate.parse) {
            wait = expires - (headers["date"].flatMap(HTTPDate.parse) ?? now)
        } else if let cc = headers["cache-control"], let r = cc.range(of: "max-age=") {
            wait = Double(cc[r.upperBound...].prefix { $0.isNumber }) ?? wait
        }
        return min(maximumPause, max(minimumPause, wait))
    }

    // MARK: The background thread

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Polls now and whenever the next poll is due until `stop()`.
    public func start() {
        let t = Thread { [self] in
            while !isStopped {
                poll()
                let wait = max(1, min(Self.maximumPause, nextPoll - clock()))
                lock.lock()
                let until = Date().addingTimeInterval(wait)
                while !stopped && Date() < until { _ = lock.wait(until: until) }
                lock.unlock()
            }
        }
        t.name = "nightmap.warnings"
        t.start()
    }

    /// Ends the background thread (a request in flight ends within its time limit).
    public func stop() {
        lock.lock(); stopped = true; lock.broadcast(); lock.unlock()
    }
}
