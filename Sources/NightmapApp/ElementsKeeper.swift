import Foundation

/// Runs `ElementsRefresh` off the render thread while the window is open: at start, then every
/// `interval` seconds (the rules themselves decide whether a request goes out: a window left on
/// for a day asks about twice). What each run did waits in an inbox for the run loop.
public final class ElementsKeeper: @unchecked Sendable {
    private let refresh: ElementsRefresh
    /// The wall clock and the instant the map shows, Unix seconds.
    private let clock: @Sendable () -> (now: Double, instant: Double)
    private let lock = NSLock()
    private var newestEpoch: Double?
    private var inbox: [ElementsRefresh.Outcome] = []
    private let worker: RepeatingWorker

    public init(refresh: ElementsRefresh, newestEpoch: Double?, interval: Double = 600,
                clock: @escaping @Sendable () -> (now: Double, instant: Double)) {
        self.refresh = refresh; self.newestEpoch = newestEpoch; self.clock = clock
        worker = RepeatingWorker(name: "nightmap.elements", interval: interval)
    }

    public func start() { worker.start { [weak self] in self?.tick() } }

    public func stop() { worker.stop() }

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
