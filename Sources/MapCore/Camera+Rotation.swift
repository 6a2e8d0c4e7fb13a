import Foundation

/// Turning the camera about the viewport's centre: the bearing changes, the centre stays.
extension Camera {
    /// The eased turns last this long (MapLibre's keyboard rotation).
    public static let rotateDuration = 0.3
    /// Degrees per Shift+Left / Shift+Right.
    public static let rotateStep = 15.0

    /// Turns the camera by `degrees` at once, cancelling any animation.
    public mutating func turn(by degrees: Double) {
        guard degrees != 0, degrees.isFinite else { return }
        var s = state
        s.bearing = s.bearing + degrees
        jump(to: s)
    }

    /// Turns the camera at once by the angle a pointer swept around the viewport's centre from
    /// `from` to `to` (screen pixels): the map follows the pointer, so a clockwise sweep lowers
    /// the bearing.
    public mutating func turn(from: (x: Double, y: Double), to: (x: Double, y: Double)) {
        let cx = Double(size.width) / 2, cy = Double(size.height) / 2
        let swept = atan2(to.y - cy, to.x - cx) - atan2(from.y - cy, from.x - cx)    // clockwise positive (y down)
        guard swept.isFinite else { return }
        turn(by: -swept * 180 / Double.pi)
    }

    /// Eases the bearing by `degrees` from where a running ease will end (or the camera),
    /// over `rotateDuration` starting at `now`.
    public mutating func ease(turningBy degrees: Double, now: Double) {
        advance(to: now)
        var t = target
        t.bearing = t.bearing + degrees
        ease(to: t, duration: Self.rotateDuration, curve: .quadraticOut, now: now)
    }

    /// Eases back to north up, and level (pitch 0, as MapLibre's compass resets both), over
    /// `rotateDuration` starting at `now`.
    public mutating func easeToNorth(now: Double) {
        advance(to: now)
        var t = target
        guard t.bearing != 0 || state.bearing != 0 || t.pitch != 0 || state.pitch != 0 else { return }
        t.bearing = 0
        t.pitch = 0
        ease(to: t, duration: Self.rotateDuration, curve: .quadraticOut, now: now)
    }
}
