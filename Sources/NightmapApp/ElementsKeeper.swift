import Foundation

/// Runs `ElementsRefresh` off the render thread while the window is open: at start, then every
/// `interval` seconds (the rules themselves decide whether a request goes out: a window left on
/// for a day asks about twice). What each run did waits in an inbox for the run loop.
public final class ElementsKeeper: @unchecked Sendable {
    private let refresh: ElementsRefresh
    private let interval: Double
    /// The wall clock and the instant the map shows, Unix seconds.
    private let clock: @Sendable () -> (now: Double, instant: Double)
    private let lock = NSLock()
    private var newestEpoch: Double?
    private var inbox: [ElementsRefresh.Outcome] = []
    private var timer: DispatchSourceTimer?
    private let queue = DispatchQueue(label: "nightmap.elements")

    public init(refresh: ElementsRefresh, newestEpoch: Double?, interval: Double = 600,
                clock: @escaping @Sendable () -> (now: Double, instant: Double)) {
        self.refresh = refresh; self.newestEpoch = newestEpoch; self.interval = interval; self.clock = clock
    }

    deinit { stop() }

    public func start() {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now(), repeating: interval)
        t.setEventHandler { [weak self] in self?.tick() }
        timer = t
        t.resume()
    }

    public func stop() { timer?.cancel(); timer = nil }

    /// What the runs since the last call did, oldest first.
    public func drain() -> [ElementsRefresh.Outcome] {
        lock.lock(); defer { lock.unlock() }
        let out = inbox
        inbox.removeAll()
        return out
    }

    private func tick() {
        lock.lock(); let epoch = newestEpoch; lock.unlock()
        let (now, instant) = clock()
        let outcome = refresh.run(now: now, instant: instant, newestEpoch: epoch)
        lock.lock()
        if case let .downloaded(orbit) = outcome { newestEpoch = max(epoch ?? orbit.epoch, orbit.epoch) }
        inbox.append(outcome)
        lock.unlock()
    }
}
