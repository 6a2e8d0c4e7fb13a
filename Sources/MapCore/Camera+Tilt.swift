import Foundation

/// Tilting the camera, and the gestures that must hold the ground under the pointer when it is
/// tilted (MapLibre GL JS's mouse and keyboard handlers).
extension Camera {
    /// Degrees per Shift+Up / Shift+Down (MapLibre's keyboard `pitchStep`).
    public static let tiltStep = 10.0
    /// Degrees of pitch per pixel a right-drag moves up (MapLibre's `pitchDegreesPerPixelMoved`, 0.5).
    public static let tiltPerPixel = 0.5
    /// Degrees of bearing per pixel a right-drag moves sideways near the centre's row (MapLibre's
    /// `rotateDegreesPerPixelMoved`), and how near that is (`minPixelCenterThreshold`).
    public static let turnPerPixel = 0.8
    public static let turnCentreRows = 100.0

    /// Tilts the camera by `degrees` at once (clamped to the bounds' `maxPitch`), cancelling any animation.
    public mutating func tilt(by degrees: Double) {
        guard degrees != 0, degrees.isFinite else { return }
        var s = state
        s.pitch = s.pitch + degrees
        jump(to: s)
    }

    /// Eases the pitch by `degrees` from where a running ease will end (or the camera), over
    /// `rotateDuration` starting at `now` (Shift+Up raises it, Shift+Down lowers it).
    public mutating func ease(tiltingBy degrees: Double, now: Double) {
        advance(to: now)
        var t = target
        t.pitch = t.pitch + degrees
        ease(to: t, duration: Self.rotateDuration, curve: .quadraticOut, now: now)
    }

    /// A right-drag (or Ctrl+drag) from `from` to `to`, screen pixels, as MapLibre's: moving up
    /// raises the pitch by `tiltPerPixel` a pixel; moving sideways turns the map, by the angle
    /// the sideways move sweeps about the viewport's centre (the map follows the pointer) when
    /// the drag is over `turnCentreRows` rows from the centre's, else `turnPerPixel` a pixel
    /// (clockwise on screen below the centre, anticlockwise above it).
    public mutating func turnAndTilt(from: (x: Double, y: Double), to: (x: Double, y: Double)) {
        let cx = Double(size.width) / 2, cy = Double(size.height) / 2
        var degrees: Double
        if abs(from.y - cy) > Self.turnCentreRows {
            let swept = atan2(to.y - cy, to.x - cx) - atan2(to.y - cy, from.x - cx)   // clockwise positive (y down)
            degrees = -CameraState.normalized(swept * 180 / Double.pi)
        } else {
            degrees = (to.x - from.x) * Self.turnPerPixel
            if to.y < cy { degrees = -degrees }
        }
        let pitch = (from.y - to.y) * Self.tiltPerPixel
        guard degrees.isFinite, pitch.isFinite, degrees != 0 || pitch != 0 else { return }
        var s = state
        s.bearing = s.bearing + degrees
        s.pitch = s.pitch + pitch
        jump(to: s)
    }

    /// Moves the map at once so that the ground under screen point `from` comes under `to` (a
    /// drag: at a pitch the grabbed point stays under the pointer; flat, the content shifts by
    /// `to - from` as `pan(dx:dy:)` does).
    public mutating func pan(from: (x: Double, y: Double), to: (x: Double, y: Double)) {
        guard state.pitch != 0 else { pan(dx: to.x - from.x, dy: to.y - from.y); return }
        let grabbed = view.mercator(x: from.x, y: from.y)
        jump(to: Self.camera(keeping: grabbed, at: to, like: state, size: size))
    }

    /// The camera like `base` (its zoom, bearing, pitch and field of view) that shows the ground
    /// at Mercator point `m` under screen point `p`. A view's ground moves with its centre (the
    /// perspective is fixed to the centre in world pixels), so the centre moves by what lies
    /// between `m` and the ground now under `p`.
    static func camera(keeping m: MercatorPoint, at p: (x: Double, y: Double), like base: CameraState,
                       size: ViewportSize) -> CameraState {
        let v = ViewTransform(camera: base, size: size)
        let under = v.mercator(x: p.x, y: p.y)
        let c = WebMercator.project(base.center)
        let centre = MercatorPoint(x: c.x + m.x - under.x, y: c.y + m.y - under.y)
        return base.moved(center: WebMercator.unproject(centre), zoom: base.zoom)
    }
}
