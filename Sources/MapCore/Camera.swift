import Foundation

/// The camera controller: a `CameraState` value plus a running animation, always within bounds.
///
/// Every change (jumps, pans, eases, resizes) is clamped by `CameraBounds.clamp`. Time is a
/// parameter: `advance(to:)` moves a running animation to the given instant (seconds).
public struct Camera: Sendable {
    /// A running ease.
    public struct Animation: Sendable {
        public var from: CameraState
        public var to: CameraState
        public var start: Double
        public var duration: Double
        public var curve: Easing
        /// Keep this position under this screen point while zooming (zoom-around animations).
        public var anchor: (screen: (x: Double, y: Double), mercator: MercatorPoint)?
    }

    public private(set) var state: CameraState
    public private(set) var bounds: CameraBounds
    public private(set) var size: ViewportSize
    public private(set) var animation: Animation?
    /// The projection the camera sees the map through (the style's, or `--projection`).
    public var projection: Projection = .mercator {
        didSet { state = clamped(state) }
    }
    /// The camera's zoom less the style's (log2 of the pixel ratio): the projection is the
    /// style's zoom's.
    public var styleZoomShift = 0.0

    public init(state: CameraState, bounds: CameraBounds, size: ViewportSize, projection: Projection = .mercator) {
        self.bounds = bounds
        self.size = size
        self.projection = projection
        self.state = state
        self.state = clamped(state)
    }

    /// `s` within the bounds, by the globe's rules while the projection shows it at `s`'s zoom.
    public func clamped(_ s: CameraState) -> CameraState {
        bounds.clamp(s, size: size, globe: projection.globeness(zoom: s.zoom - styleZoomShift) > 0)
    }

    public var isAnimating: Bool { animation != nil }
    public var view: ViewTransform { view(of: state) }

    /// The view of camera `s` through this camera's projection and viewport.
    public func view(of s: CameraState) -> ViewTransform {
        ViewTransform(camera: s, size: size, globeness: projection.globeness(zoom: s.zoom - styleZoomShift))
    }

    /// Where the running animation will end (or the current state).
    public var target: CameraState { animation?.to ?? state }

    /// Jumps to `camera` (clamped), cancelling any animation.
    public mutating func jump(to camera: CameraState) {
        animation = nil
        state = clamped(camera)
    }

    /// Changes the viewport size and re-clamps.
    public mutating func resize(_ newSize: ViewportSize) {
        size = newSize
        state = clamped(state)
        if var a = animation { a.to = clamped(a.to); animation = a }
    }

    /// Replaces the bounds and re-clamps.
    public mutating func setBounds(_ b: CameraBounds) {
        bounds = b
        state = clamped(state)
        animation = nil
    }

    /// Moves the map by a screen offset immediately (dragging): content follows the pointer.
    public mutating func pan(dx: Double, dy: Double) {
        animation = nil
        state = clamped(shifted(state, dx: dx, dy: dy))
    }

    /// The camera moved so that content shifts by (dx, dy) screen pixels.
    public func shifted(_ s: CameraState, dx: Double, dy: Double) -> CameraState {
        let v = view(of: s)
        let c = v.lngLat(x: Double(size.width) / 2 - dx, y: Double(size.height) / 2 - dy)
        return s.moved(center: c, zoom: s.zoom)
    }

    /// Eases to `camera` over `duration` seconds starting at `now`; a new ease replaces a running
    /// one and starts from the camera shown at `now`.
    public mutating func ease(to camera: CameraState, duration: Double, curve: Easing = .easeOut, now: Double) {
        advance(to: now)
        let to = clamped(camera)
        guard duration > 0 else { jump(to: to); return }
        animation = Animation(from: state, to: to, start: now, duration: duration, curve: curve, anchor: nil)
    }

    /// Eases the zoom to `zoom` keeping the map position under the screen point `(x, y)` fixed.
    public mutating func ease(zoom: Double, around p: (x: Double, y: Double), duration: Double,
                              curve: Easing = .easeOut, now: Double) {
        advance(to: now)
        let z = min(max(zoom, bounds.minZoom), bounds.maxZoom)
        let m = view.mercator(x: p.x, y: p.y)
        let to = clamped(Self.camera(zoom: z, keeping: m, at: p, like: state, size: size))
        guard duration > 0 else { jump(to: to); return }
        animation = Animation(from: state, to: to, start: now, duration: duration, curve: curve, anchor: (p, m))
    }

    /// The camera at `zoom` and `bearing` that shows Mercator point `m` at screen point `p`.
    static func camera(zoom: Double, keeping m: MercatorPoint, at p: (x: Double, y: Double), size: ViewportSize,
                       bearing: Double = 0) -> CameraState {
        let world = WebMercator.worldSize(zoom: zoom)
        let v = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: zoom, bearing: bearing), size: size)
        let d = v.unrotated(p.x - Double(size.width) / 2, p.y - Double(size.height) / 2)
        let cx = m.x * world - d.x
        let cy = m.y * world - d.y
        return CameraState(center: WebMercator.unproject(MercatorPoint(x: cx / world, y: cy / world)), zoom: zoom, bearing: bearing)
    }

    /// The camera like `base` at `zoom` that shows Mercator point `m` at screen point `p`
    /// (pitched: the ground at `m`, through the perspective).
    static func camera(zoom: Double, keeping m: MercatorPoint, at p: (x: Double, y: Double), like base: CameraState,
                       size: ViewportSize) -> CameraState {
        var c = camera(zoom: zoom, keeping: m, at: p, size: size, bearing: base.bearing)
        c.pitch = base.pitch; c.fieldOfView = base.fieldOfView
        return c.pitch == 0 ? c : camera(keeping: m, at: p, like: c, size: size)
    }

    /// Moves a running animation to instant `now`; ends it when its time is up.
    public mutating func advance(to now: Double) {
        guard let a = animation else { return }
        let t = (now - a.start) / a.duration
        if t >= 1 || !t.isFinite {
            state = a.to
            animation = nil
            return
        }
        let k = a.curve.value(max(0, t))
        let zoom = a.from.zoom + (a.to.zoom - a.from.zoom) * k
        // The bearing the short way round (170 to -170 passes through 180).
        let bearing = a.from.bearing + CameraState.normalized(a.to.bearing - a.from.bearing) * k
        let next: CameraState
        if let anchor = a.anchor {
            let like = CameraState(center: a.to.center, zoom: zoom, bearing: bearing, pitch: a.from.pitch + (a.to.pitch - a.from.pitch) * k,
                                   fieldOfView: a.to.fieldOfView)
            next = Self.camera(zoom: zoom, keeping: anchor.mercator, at: anchor.screen, like: like, size: size)
        } else {
            let m0 = WebMercator.project(a.from.center), m1 = WebMercator.project(a.to.center)
            var dx = m1.x - m0.x
            if dx > 0.5 { dx -= 1 } else if dx < -0.5 { dx += 1 }   // the short way round
            let m = MercatorPoint(x: m0.x + dx * k, y: m0.y + (m1.y - m0.y) * k)
            next = CameraState(center: WebMercator.unproject(m), zoom: zoom, bearing: bearing)
        }
        var tilted = next
        tilted.pitch = a.from.pitch + (a.to.pitch - a.from.pitch) * k
        tilted.fieldOfView = a.to.fieldOfView
        state = clamped(tilted)
    }
}
