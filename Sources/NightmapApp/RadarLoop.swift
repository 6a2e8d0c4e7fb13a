/// Which radar frame shows at each instant: the loop's clock, as a function of time.
///
/// Frames are numbered oldest first. An untimed loop (the weather example's five frames, a
/// folder of images) plays 0, 1, ..., n-1, 0, ... one frame every `frameSeconds`. A time-stamped
/// loop opens on the newest frame and holds it `dwell` seconds, then plays the oldest to the one
/// before the newest, one every `frameSeconds`, and holds the newest again: a cycle of
/// (n-1) x frameSeconds + dwell, in which [0, dwell) shows frame n-1 and
/// [dwell + i x frameSeconds, dwell + (i+1) x frameSeconds) frame i.
///
/// Pausing freezes the frame; resuming restarts the shown frame's time (as re-creating a
/// repeating timer does: the next change comes one full frame time later). Stepping and jumping
/// start the new frame's time at that instant.
public struct RadarLoop: Equatable, Sendable {
    /// The frame times `[` and `]` may set.
    public static let frameSecondsRange = 0.25...4.0

    public private(set) var frameSeconds: Double
    /// How long a time-stamped loop holds its newest frame.
    public let dwell: Double
    public private(set) var isPlaying: Bool
    public private(set) var count: Int
    public private(set) var timed: Bool
    /// The loop's position `phase` (seconds into the cycle) at instant `anchor`.
    private var anchor: Double
    private var phaseAtAnchor: Double
    /// The change that happened at `anchor` (a step or jump), if one did.
    private var changeAtAnchor: Change?

    /// When the frame last changed, and from which.
    public struct Change: Equatable, Sendable {
        public let time: Double
        public let from: Int
    }

    public init(count: Int = 0, timed: Bool = false, frameSeconds: Double = 1, dwell: Double = 2, playing: Bool = true, start: Double = 0) {
        self.count = max(0, count); self.timed = timed
        self.frameSeconds = frameSeconds; self.dwell = max(0, dwell)
        isPlaying = playing
        anchor = start; phaseAtAnchor = 0
    }

    public var stateName: String { isPlaying ? "playing" : "paused" }

    // MARK: Where the loop is

    /// The cycle's length in seconds.
    var cycle: Double {
        guard count > 0 else { return 0 }
        return timed ? Double(count - 1) * frameSeconds + dwell : Double(count) * frameSeconds
    }

    /// Where frame `f`'s time starts in the cycle, and how long it lasts.
    func segment(_ f: Int) -> (start: Double, length: Double) {
        guard timed else { return (Double(f) * frameSeconds, frameSeconds) }
        return f == count - 1 ? (0, dwell) : (dwell + Double(f) * frameSeconds, frameSeconds)
    }

    /// Seconds into the cycle at `now`.
    func phase(at now: Double) -> Double {
        let c = cycle
        guard c > 0 else { return 0 }
        let p = isPlaying ? phaseAtAnchor + max(0, now - anchor) : phaseAtAnchor
        let r = p.truncatingRemainder(dividingBy: c)
        return r < 0 ? r + c : r
    }

    /// The frame of phase `p`.
    func frame(phase p: Double) -> Int {
        guard count > 1 else { return 0 }
        if timed {
            if p < dwell { return count - 1 }
            return min(count - 2, max(0, Int(((p - dwell) / frameSeconds).rounded(.down))))
        }
        return min(count - 1, max(0, Int((p / frameSeconds).rounded(.down))))
    }

    /// The frame shown at `now` (oldest is 0), or nil when the loop has no frames.
    public func frame(at now: Double) -> Int? {
        count == 0 ? nil : frame(phase: phase(at: now))
    }

    /// The latest change of frame at or before `now`, or nil (none since the loop began playing).
    public func lastChange(at now: Double) -> Change? {
        guard count > 0 else { return nil }
        guard isPlaying else { return changeAtAnchor }
        let p = phase(at: now), f = frame(phase: p)
        let began = now - (p - segment(f).start)
        if began <= anchor + 1e-9 { return changeAtAnchor }
        return Change(time: began, from: (f - 1 + count) % count)
    }

    /// The instant of the next change after `now`, or nil (paused, or a single frame).
    public func nextChange(after now: Double) -> Double? {
        guard isPlaying, count > 1, cycle > 0 else { return nil }
        let p = phase(at: now), s = segment(frame(phase: p))
        return now + max(1e-6, s.start + s.length - p)
    }

    // MARK: Changes

    /// Pauses or resumes at `now`.
    public mutating func toggle(at now: Double) {
        guard count > 0 else { isPlaying.toggle(); anchor = now; return }
        if isPlaying {
            let change = lastChange(at: now)
            phaseAtAnchor = phase(at: now)
            anchor = now
            isPlaying = false
            changeAtAnchor = change
        } else {
            phaseAtAnchor = segment(frame(phase: phaseAtAnchor)).start
            anchor = now
            isPlaying = true
            changeAtAnchor = nil
        }
    }

    /// Shows the frame `delta` frames on (wrapping) while paused; no effect while playing.
    public mutating func step(_ delta: Int, at now: Double) {
        guard !isPlaying, count > 0, delta != 0, let f = frame(at: now) else { return }
        show(((f + delta) % count + count) % count, from: f, at: now)
    }

    /// Shows frame `target` (oldest 0; clamped) from `now`, playing or paused.
    public mutating func jump(to target: Int, at now: Double) {
        guard count > 0, let f = frame(at: now) else { return }
        show(min(max(target, 0), count - 1), from: f, at: now)
    }

    private mutating func show(_ g: Int, from f: Int, at now: Double) {
        phaseAtAnchor = segment(g).start
        anchor = now
        changeAtAnchor = g == f ? changeAtAnchor : Change(time: now, from: f)
    }

    /// Sets the time each frame shows (clamped to `frameSecondsRange`), keeping the frame shown
    /// and how far through its time the loop is.
    public mutating func setFrameSeconds(_ seconds: Double, at now: Double) {
        let s = min(max(seconds, Self.frameSecondsRange.lowerBound), Self.frameSecondsRange.upperBound)
        guard s != frameSeconds else { return }
        guard count > 0 else { frameSeconds = s; return }
        let p = phase(at: now), f = frame(phase: p), old = segment(f)
        let fraction = old.length > 0 ? (p - old.start) / old.length : 0
        let change = lastChange(at: now)
        frameSeconds = s
        let new = segment(f)
        phaseAtAnchor = new.start + fraction * new.length
        anchor = now
        changeAtAnchor = change
    }

    /// The loop now has `count` frames (`timed`: time-stamped); frame `keeping` of the new
    /// frames is the one shown now (nil: it is gone; the loop keeps its place in the cycle).
    public mutating func setFrames(count newCount: Int, timed newTimed: Bool, keeping: Int?, at now: Double) {
        let n = max(0, newCount)
        let p = phase(at: now)
        if n == count && newTimed == timed && (keeping == nil || keeping == frame(phase: p)) { return }
        var fraction = 0.0
        if count > 0 {
            let s = segment(frame(phase: p))
            fraction = s.length > 0 ? (p - s.start) / s.length : 0
        }
        // (From no frames, or between untimed and time-stamped frames: the demo's giving way to
        // live ones, the loop starts over.)
        let wasEmpty = count == 0 || newTimed != timed
        count = n; timed = newTimed
        anchor = now
        changeAtAnchor = nil
        guard n > 0 else { phaseAtAnchor = 0; return }
        if wasEmpty {
            // A loop that gets its first frames opens on its newest (time-stamped) or first frame.
            phaseAtAnchor = 0
        } else if let k = keeping, k >= 0, k < n {
            let s = segment(k)
            phaseAtAnchor = s.start + fraction * s.length
        } else {
            phaseAtAnchor = p
        }
    }
}
