/// The Mapbox "pulsing line" snippet as a schedule: route step i is set to opacity 0.95 at
/// i x 0.075 s after a cycle starts and back to 0 at i x 0.075 + 0.3 s; a cycle lasts
/// count x 0.075 + 2 x 0.3 s and repeats. The opacity changes are ordinary paint property
/// changes, animated by the layers' 0.3 s opacity transition.
public struct RoutePulse: Equatable, Sendable {
    public static let stepDelay = 0.075
    public static let fade = 0.3
    public static let peakOpacity = 0.95

    /// One scheduled `setPaintProperty(line-opacity)`.
    public struct Change: Equatable, Sendable {
        public let time: Double
        public let step: Int
        public let opacity: Double
    }

    public let stepCount: Int
    public private(set) var isRunning: Bool
    /// When cycle 0 started.
    public private(set) var start: Double
    /// The next change to apply: cycle and index into `changesPerCycle`.
    private var cycle = 0
    private var next = 0
    private let schedule: [(offset: Double, step: Int, opacity: Double)]

    public init(stepCount: Int, start: Double, running: Bool = true) {
        self.stepCount = max(0, stepCount)
        self.start = start
        isRunning = running && stepCount > 0
        var s: [(offset: Double, step: Int, opacity: Double)] = []
        for i in 0..<self.stepCount {
            s.append((Double(i) * Self.stepDelay, i, Self.peakOpacity))
            s.append((Double(i) * Self.stepDelay + Self.fade, i, 0))
        }
        schedule = s.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }

    public static func == (a: RoutePulse, b: RoutePulse) -> Bool {
        a.stepCount == b.stepCount && a.isRunning == b.isRunning && a.start == b.start && a.cycle == b.cycle && a.next == b.next
    }

    /// Seconds per cycle.
    public var period: Double { Double(stepCount) * Self.stepDelay + 2 * Self.fade }

    /// The changes due up to and including `now`, in order, consumed. When `now` is more than a
    /// cycle ahead, whole cycles are skipped: every step is back at 0 (and its fade has ended)
    /// before a cycle ends, so only the current cycle's changes matter; `resetAll` is then true.
    public mutating func advance(to now: Double) -> (changes: [Change], resetAll: Bool) {
        var out: [Change] = []
        let resetAll = advance(to: now, into: &out)
        return (out, resetAll)
    }

    /// `advance(to:)` into `out` (emptied first, its storage kept); returns `resetAll`.
    public mutating func advance(to now: Double, into out: inout [Change]) -> Bool {
        out.removeAll(keepingCapacity: true)
        guard isRunning, !schedule.isEmpty else { return false }
        var resetAll = false
        let current = Int(((now - start) / period).rounded(.down))
        if current > cycle {
            if current > cycle + 1 || next < schedule.count {
                // Finish nothing of the skipped cycles: jump to the start of the current one.
                resetAll = true
            }
            cycle = current; next = 0
        }
        while next < schedule.count {
            let e = schedule[next]
            let t = start + Double(cycle) * period + e.offset
            guard t <= now else { break }
            out.append(Change(time: t, step: e.step, opacity: e.opacity))
            next += 1
        }
        return resetAll
    }

    /// Starts (at `now`, from a new cycle) or stops the pulse.
    public mutating func toggle(at now: Double) {
        isRunning.toggle()
        if isRunning { start = now; cycle = 0; next = 0 }
    }
}
