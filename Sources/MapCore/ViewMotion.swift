import Foundation

/// Whether the view has stood still long enough for labels to be drawn exactly where they lie
/// (at their fraction of a pixel, as MapLibre draws them) rather than at whole pixels, where a
/// moving map's labels are drawn so that their cached masks serve every frame of the move. The
/// model asks once per frame with its clock; a view unchanged for `settleDelay` seconds (or the
/// first view seen) is settled.
final class ViewMotion: @unchecked Sendable {
    /// Seconds a view stays the same before its labels are drawn exactly.
    static let settleDelay = 0.15
    private let lock = NSLock()
    private var last: ViewTransform?
    private var changedAt = -Double.infinity

    /// Whether `view` at `now` is settled (and remembers it).
    func isSettled(_ view: ViewTransform, now: Double) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if let last, last != view { changedAt = now }
        last = view
        return now - changedAt >= Self.settleDelay
    }

    /// When the last view seen settles, if it has not yet (the window draws once more then).
    func settlesAt(now: Double) -> Double? {
        lock.lock(); defer { lock.unlock() }
        let t = changedAt + Self.settleDelay
        return t > now ? t : nil
    }
}
