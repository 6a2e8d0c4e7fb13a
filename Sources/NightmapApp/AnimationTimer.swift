import Foundation

/// The map's repeating animation timer (1 s in the weather example), as a function of time.
///
/// It counts ticks of playing time only. Pausing stops the count; resuming restarts the period,
/// as invalidating and re-creating a repeating timer does, so the next tick comes one full
/// interval after the resume.
public struct AnimationTimer: Equatable, Sendable {
    public let interval: Double
    public private(set) var isPlaying: Bool
    /// Ticks completed before the current playing stretch.
    private var baseTicks: Int
    /// When the current playing stretch began.
    private var playingSince: Double
    /// While paused: the last change of the count (the last tick, or a step) and the count before it.
    private var pausedChange: Change?

    /// When the count last changed, and from what.
    public struct Change: Equatable, Sendable {
        public let time: Double
        public let from: Int
    }

    public init(interval: Double = 1, playing: Bool = true, start: Double = 0) {
        self.interval = interval
        isPlaying = playing
        baseTicks = 0
        playingSince = start
    }

    /// Ticks fired up to `now`.
    public func ticks(at now: Double) -> Int {
        guard isPlaying, now >= playingSince else { return baseTicks }
        return baseTicks + Int(((now - playingSince) / interval).rounded(.down))
    }

    /// Starts or stops the timer at `now`.
    public mutating func toggle(at now: Double) {
        if isPlaying {
            pausedChange = lastChange(at: now)
            baseTicks = ticks(at: now)
            isPlaying = false
        } else {
            playingSince = now
            isPlaying = true
            pausedChange = nil
        }
    }

    /// Moves the count by `delta` while paused (stepping frames); no effect while playing.
    public mutating func step(_ delta: Int, at now: Double) {
        guard !isPlaying, delta != 0 else { return }
        pausedChange = Change(time: now, from: baseTicks)
        baseTicks += delta
    }

    /// The latest change of the count at or before `now`: a tick while playing (computed exactly,
    /// whatever the frame timing), the last tick or step while paused; nil before the first.
    public func lastChange(at now: Double) -> Change? {
        guard isPlaying else { return pausedChange }
        let n = ticks(at: now) - baseTicks
        guard n > 0 else { return nil }
        return Change(time: playingSince + Double(n) * interval, from: baseTicks + n - 1)
    }

    /// The instant of the first tick after `now`, or nil when paused.
    public func nextTick(after now: Double) -> Double? {
        guard isPlaying else { return nil }
        let n = ticks(at: now) - baseTicks + 1
        return playingSince + Double(n) * interval
    }

    public var stateName: String { isPlaying ? "playing" : "paused" }
}
