/// How visible each symbol is while placements come and go: a symbol that placement starts
/// showing fades in, one it stops showing fades out, over `fadeDuration` seconds, instead of
/// popping; and when the next placement may run. Symbols are known by their cross-tile id
/// (`CrossTileSymbolIndex`), so a label handed from a tile to its children keeps its opacity.
/// (MapLibre GL JS's `OpacityState`, `JointOpacityState` and the fade and recency rules of
/// `Placement` in `src/symbol/placement.ts`.)
///
/// The state is kept as MapLibre keeps it: each `commit` of a placement stores, per id and per
/// part (text, icon), whether the placement shows it and its opacity at that instant; between
/// commits the opacity runs linearly toward 1 (shown) or 0 (hidden) by
/// (seconds since the commit) / fadeDuration + the zoom adjustment, clamped to 0...1 (MapLibre's
/// shader adds the same `u_fade_change`). The zoom adjustment, max(0, zoom out since the
/// previous placement / 1.5), is added once from the commit on: zooming out quickly brings
/// labels together, and their collisions show sooner and fade faster. With fadeDuration 0 every
/// opacity is at its target as soon as it is committed. Time is always given (seconds); the
/// fade never reads a clock.
public struct SymbolFade: Sendable {
    /// One part's fade: whether the last placement shows it, and its opacity at that commit.
    struct Part: Equatable, Sendable {
        let placed: Bool
        let opacity: Double

        /// Once fully faded out and not shown, it can be forgotten.
        var isHidden: Bool { opacity == 0 && !placed }

        /// The opacity `change` after the commit, toward the part's target.
        func opacity(after change: Double) -> Double {
            min(1, max(0, opacity + (placed ? change : -change)))
        }

        /// How much change takes it from its opacity at the commit to its target.
        var remaining: Double { placed ? 1 - opacity : opacity }
    }

    /// What a placement did with a symbol: whether it shows its text and its icon, and whether a
    /// newly shown one may skip its fade-in (placed just outside the window, in MapLibre's 100 px
    /// of padding: it is not seen fading, and shows fully when the camera brings it in).
    public struct Placed: Equatable, Sendable {
        public let text: Bool, icon: Bool
        public let skipFade: Bool

        public init(text: Bool, icon: Bool, skipFade: Bool = false) {
            self.text = text; self.icon = icon; self.skipFade = skipFade
        }
    }

    /// A symbol's text and icon opacity at an instant (0...1).
    public struct Opacity: Equatable, Sendable {
        public let text: Double, icon: Double
    }

    /// The fade length for the placements committed from now on (MapLibre's map default 300 ms).
    public var fadeDuration: Double
    private var parts: [Int: (text: Part, icon: Part)] = [:]
    /// The last commit: its time, camera zoom, fade length and zoom adjustment (nil: none yet).
    private var last: (time: Double, zoom: Double, fadeDuration: Double, zoomAdjustment: Double)?
    /// The zoom `placementDue` saw last (the adjustment applies once the zoom holds still).
    private var zoomAtLastCheck = 0.0
    /// When the last commit that changed what is shown was made (MapLibre's
    /// lastPlacementChangeTime: the start of the last fade).
    public private(set) var lastChange = -Double.infinity
    /// When every opacity has reached its target, as of the last commit.
    private var settled = -Double.infinity

    public init(fadeDuration: Double = 0.3) {
        self.fadeDuration = fadeDuration
    }

    /// How many symbols have a fade state (shown, or still fading out).
    public var count: Int { parts.count }

    /// How far every opacity has run since the last commit, at `now`.
    private func change(at now: Double) -> Double {
        guard let last else { return 1 }
        if last.fadeDuration <= 0 { return 1 }
        return max(0, now - last.time) / last.fadeDuration + last.zoomAdjustment
    }

    /// Takes in a placement made at `now` with the camera at `zoom`: `placed` holds what it did
    /// with each symbol it saw. A symbol seen for the first time starts at opacity 0 (1 when
    /// shown with `skipFade`); one seen before continues from its opacity at `now`; one the
    /// placement did not see fades out as if hidden, and is forgotten once at 0.
    /// With `forgetUnseen`, a symbol the placement did not see is forgotten at once instead:
    /// it has left the data, and nothing can draw it fading (MapLibre draws only the symbols
    /// of its tiles' buckets).
    public mutating func commit(_ placed: [Int: Placed], now: Double, zoom: Double, forgetUnseen: Bool = false) {
        let change = change(at: now)
        let adjustment = last.map { max(0, ($0.zoom - zoom) / 1.5) } ?? 0
        var next: [Int: (text: Part, icon: Part)] = [:]
        next.reserveCapacity(placed.count)
        var changed = false
        for (id, p) in placed {
            if let old = parts[id] {
                next[id] = (Part(placed: p.text, opacity: old.text.opacity(after: change)),
                            Part(placed: p.icon, opacity: old.icon.opacity(after: change)))
                changed = changed || p.text != old.text.placed || p.icon != old.icon.placed
            } else {
                next[id] = (Part(placed: p.text, opacity: p.skipFade && p.text ? 1 : 0),
                            Part(placed: p.icon, opacity: p.skipFade && p.icon ? 1 : 0))
                changed = changed || p.text || p.icon
            }
        }
        for (id, old) in parts where next[id] == nil {
            if forgetUnseen { changed = changed || old.text.placed || old.icon.placed; continue }
            let text = Part(placed: false, opacity: old.text.opacity(after: change))
            let icon = Part(placed: false, opacity: old.icon.opacity(after: change))
            if !(text.isHidden && icon.isHidden) { next[id] = (text, icon) }
            changed = changed || old.text.placed || old.icon.placed
        }
        parts = next
        last = (now, zoom, fadeDuration, adjustment)
        zoomAtLastCheck = zoom
        if changed { lastChange = now }
        // Each part reaches its target when the change since this commit covers what is left.
        var end = now
        if fadeDuration > 0 {
            for (text, icon) in parts.values {
                let left = max(text.remaining, icon.remaining) - adjustment
                if left > 0 { end = max(end, now + left * fadeDuration) }
            }
        }
        settled = end
    }

    /// A symbol's text and icon opacity at `now` (nil when it has no fade state: never placed,
    /// or faded out and forgotten).
    public func opacity(of id: Int, now: Double) -> Opacity? {
        guard let p = parts[id] else { return nil }
        let change = change(at: now)
        return Opacity(text: p.text.opacity(after: change), icon: p.icon.opacity(after: change))
    }

    /// Whether some opacity is still on its way at `now`: the window keeps drawing while it is,
    /// and may sleep when it is not.
    public func isFading(now: Double) -> Bool { now < settled }

    /// Whether a new placement may start at `now` with the camera at `zoom` (MapLibre's
    /// `!stillRecent`): always before the first and with a fade length of 0, else once the last
    /// placement is fadeDuration · (1 − a) old, where a = max(0, (its zoom − zoom) / 1.5). The
    /// adjustment a counts only when the zoom is the one of the previous call (the camera has
    /// stopped zooming), so that placements are not made more often during the zoom itself;
    /// a zoom-out of 1.5 or more then lets the next placement start at once.
    public mutating func placementDue(now: Double, zoom: Double) -> Bool {
        guard let last, fadeDuration > 0 else { return true }
        let factor = zoomAtLastCheck == zoom ? 1 - max(0, (last.zoom - zoom) / 1.5) : 1
        zoomAtLastCheck = zoom
        return !(last.time + last.fadeDuration * factor > now)
    }
}
