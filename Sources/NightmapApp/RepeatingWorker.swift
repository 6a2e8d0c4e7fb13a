import Foundation

/// Runs one piece of work off the render thread: at once when started, then every `interval`
/// seconds, on a serial queue of its own (so runs never overlap), until stopped. The ISS feed's
/// poller and the element-set keeper each own one; what a run finds goes to its owner's inbox.
public final class RepeatingWorker: @unchecked Sendable {
    public let interval: Double
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?

    /// `name` labels the queue (seen in a debugger and in thread dumps).
    public init(name: String, interval: Double) {
        self.interval = interval
        queue = DispatchQueue(label: name)
    }

    deinit { stop() }

    /// Starts the runs; the work should hold its owner weakly (the worker holds the work until
    /// stopped). A second start replaces the first one's work.
    public func start(_ work: @escaping @Sendable () -> Void) {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now(), repeating: interval)
        t.setEventHandler(handler: work)
        lock.lock()
        let old = timer
        timer = t
        lock.unlock()
        old?.cancel()
        t.resume()
    }

    /// No run starts after this returns (one already running finishes).
    public func stop() {
        lock.lock()
        let t = timer
        timer = nil
        lock.unlock()
        t?.cancel()
    }
}
