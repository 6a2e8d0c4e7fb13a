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
            baseTicks = ticks(at: now)
            isPlaying = false
        } else {
            playingSince = now
            isPlaying = true
        }
    }

    /// Advances the count by `delta` ticks while paused (stepping); no effect while playing.
    public mutating func step(_ delta: Int) {
        guard !isPlaying else { return }
        baseTicks += delta
    }

    /// The instant of the first tick after `now`, or nil when paused.
    public func nextTick(after now: Double) -> Double? {
        guard isPlaying else { return nil }
        let n = ticks(at: now) - baseTicks + 1
        return playingSince + Double(n) * interval
    }

    public var stateName: String { isPlaying ? "playing" : "paused" }
}
