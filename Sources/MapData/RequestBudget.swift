/// How often one service may be asked: at most `perMinute` requests in any 60 seconds, at least
/// `spacing` seconds apart, and after errors an exponential back-off (`backoffStart` seconds,
/// doubling per error in a row up to `backoffLimit`) before the next. Time is passed in (Unix or
/// any monotonic seconds), so a simulated hour tests it.
///
/// RainViewer answers 429 beyond 100 requests a minute from one address; the budget a desktop
/// map keeps is 60 (WORLD-DATA.md, section 6), spread at one a second at most so that a loop's
/// backfill takes minutes, not a burst.
public struct RequestBudget: Sendable {
    public let perMinute: Int
    public let spacing: Double
    public let backoffStart: Double
    public let backoffLimit: Double
    /// When the last `perMinute` requests started, oldest first (a ring).
    private var starts: [Double] = []
    private var oldest = 0
    /// Errors in a row, and when the last one came.
    public private(set) var failures = 0
    private var failedAt = -Double.infinity
    /// Requests started so far.
    public private(set) var taken = 0

    public init(perMinute: Int, spacing: Double = 0, backoffStart: Double = 2, backoffLimit: Double = 600) {
        self.perMinute = max(1, perMinute)
        self.spacing = max(0, spacing)
        self.backoffStart = max(0, backoffStart)
        self.backoffLimit = max(self.backoffStart, backoffLimit)
    }

    /// The earliest instant at or after `now` when a request may start.
    public func nextAllowed(now: Double) -> Double {
        var t = now
        if let last = latest { t = max(t, last + spacing) }
        if starts.count == perMinute { t = max(t, starts[oldest] + 60) }
        if failures > 0 { t = max(t, failedAt + backoff) }
        return t
    }

    /// Whether a request may start at `now`; if so it is counted.
    public mutating func take(now: Double) -> Bool {
        guard nextAllowed(now: now) <= now else { return false }
        if starts.count < perMinute {
            starts.append(now)
        } else {
            starts[oldest] = now
            oldest = (oldest + 1) % perMinute
        }
        taken += 1
        return true
    }

    /// The wait after the errors in a row so far (0 without any).
    public var backoff: Double {
        guard failures > 0 else { return 0 }
        return min(backoffLimit, backoffStart * Double(1 << min(failures - 1, 30)))
    }

    /// An answer that failed (an error status, a refused connection, a bad body) at `now`.
    public mutating func failed(now: Double) {
        failures += 1
        failedAt = now
    }

    /// An answer that was good: the back-off is over.
    public mutating func succeeded() { failures = 0 }

    private var latest: Double? {
        guard !starts.isEmpty else { return nil }
        return starts[(oldest + starts.count - 1) % starts.count]
    }
}
