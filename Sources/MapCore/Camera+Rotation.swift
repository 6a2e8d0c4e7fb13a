import Foundation

/// Turning the camera about the viewport's centre: the bearing changes, the centre stays.
extension Camera {
    /// The eased turns last this long (MapLibre's keyboard rotation).
    public static let rotateDuration = 0.3
    /// Degrees per Shift+Left / Shift+Right.
    public static let rotateStep = 15.0

    /// Applies a rotation command (`rotate`, `rotateEased`, `rotateDrag`, `resetNorth`) at `now`.
    public mutating func rotate(_ command: MapCommand, now: Double) {
        switch command {
        case let .rotate(degrees):
            turn(by: degrees)
        case let .rotateDrag(x0, y0, x1, y1):
            let cx = Double(size.width) / 2, cy = Double(size.height) / 2
            // The angle swept on screen (clockwise positive, y down); the map follows the
            // pointer, so a clockwise sweep lowers the bearing.
            let swept = atan2(y1 - cy, x1 - cx) - atan2(y0 - cy, x0 - cx)
            guard swept.isFinite else { return }
            turn(by: -swept * 180 / Double.pi)
        case let .rotateEased(degrees):
            advance(to: now)
            var t = target
            t.bearing = t.bearing + degrees
            ease(to: t, duration: Self.rotateDuration, curve: .quadraticOut, now: now)
        case .resetNorth:
            advance(to: now)
            var t = target
            guard t.bearing != 0 || state.bearing != 0 else { return }
            t.bearing = 0
            ease(to: t, duration: Self.rotateDuration, curve: .quadraticOut, now: now)
        default:
            return
        }
    }

    /// Turns the camera by `degrees` at once, cancelling any animation.
    mutating func turn(by degrees: Double) {
        guard degrees != 0, degrees.isFinite else { return }
        var s = state
        s.bearing = s.bearing + degrees
        jump(to: s)
    }
}
