/// The map's state: style, camera, timer and scene. Commands and time change it; `frame(at:)`
/// describes what to draw. It never reads a clock: every instant is passed in (seconds since
/// the map started).
public struct MapModel: Sendable {
    public private(set) var style: Style
    public private(set) var camera: Camera
    public private(set) var timer: AnimationTimer
    public let scene: Scene
    /// Set by a quit command.
    public private(set) var wantsQuit = false

    public init(scene: Scene, style: Style, size: ViewportSize, start: Double = 0) {
        self.scene = scene
        self.style = style
        camera = Camera(state: scene.camera, bounds: scene.bounds, size: size)
        timer = AnimationTimer(interval: 1, playing: scene.timerStartsPlaying, start: start)
    }

    /// Jumps the camera (clamped like every gesture).
    public mutating func jump(to state: CameraState) { camera.jump(to: state) }

    /// Applies one command at instant `now`.
    public mutating func apply(_ command: MapCommand, now: Double) {
        let ease = InputController.easeDuration
        switch command {
        case let .pan(dx, dy):
            camera.pan(dx: dx, dy: dy)
        case let .panEased(dx, dy):
            camera.advance(to: now)
            let base = camera.target
            camera.ease(to: camera.shifted(base, dx: dx, dy: dy), duration: ease, curve: .quadraticOut, now: now)
        case let .zoom(delta, x, y, duration):
            camera.advance(to: now)
            // Successive steps accumulate on the running target, so fast wheel turns are not lost.
            let base = camera.animation?.anchor != nil ? camera.target.zoom : camera.state.zoom
            camera.ease(zoom: base + delta, around: (x, y), duration: duration, curve: .easeOut, now: now)
        case let .zoomCentered(delta):
            camera.advance(to: now)
            let t = camera.target
            camera.ease(to: CameraState(center: t.center, zoom: t.zoom + delta), duration: ease,
                        curve: .quadraticOut, now: now)
        case .toggleTimer:
            timer.toggle(at: now)
        case .resetCamera:
            camera.ease(to: scene.camera, duration: ease, curve: .quadraticOut, now: now)
        case let .resize(w, h):
            camera.resize(ViewportSize(width: w, height: h))
        case .quit:
            wantsQuit = true
        }
    }

    /// Moves animations to `now`.
    public mutating func advance(to now: Double) { camera.advance(to: now) }

    /// True while something changes from instant to instant (the loop should keep drawing).
    public var isAnimating: Bool { camera.isAnimating }

    /// The layers drawn at the current zoom, in draw order.
    public var visibleLayerIDs: [String] {
        style.layers.filter { $0.isShown(atZoom: camera.state.zoom) }.map(\.id)
    }

    /// What to draw now (call `advance(to:)` first).
    public func frame() -> FrameDescription {
        let zoom = camera.state.zoom
        var out: [FrameDescription.DrawLayer] = []
        out.reserveCapacity(style.layers.count)
        for layer in style.layers where layer.isShown(atZoom: zoom) {
            let geometry = layer.source.flatMap { style.sources[$0] }
            if layer.source != nil && geometry == nil { continue }
            out.append(.init(id: layer.id, paint: layer.paint, geometry: geometry))
        }
        return FrameDescription(view: camera.view, layers: out)
    }
}
