import MapCore
/// Turns input events into map commands: click versus drag, double-click, wheel and keys.
///
/// Conventions follow MapLibre GL JS: a press that moves 3 px or more is a drag and never a
/// click; a double-click zooms in by one around the pointer (Shift: out) over 300 ms; keys with
/// Control or Alt held are left alone (but Ctrl+S, Alt+Up). Dragging with the secondary button,
/// or with Ctrl held, rotates the map around the viewport's centre (sideways) and tilts it (up
/// raises the pitch); Shift+Left / Shift+Right turn it by 15 degrees, Shift+Up / Shift+Down tilt
/// it by 10, and `n` or Alt+Up turn it back to north and flat, eased. A click toggles the animation timer at once; when it turns
/// out to be the first half of a double-click, the second click toggles it back, so a double-click
/// only zooms.
public struct InputController: Sendable {
    public static let clickTolerance = 3.0
    public static let doubleClickInterval = 0.5
    public static let doubleClickDistance = 5.0
    public static let keyPan = 100.0
    public static let easeDuration = 0.3
    public static let wheelZoomPerTick = 0.5
    public static let wheelDuration = 0.2

    private var pressAt: (x: Double, y: Double)?
    private var pressModifiers: Modifiers = []
    private var lastPointer: (x: Double, y: Double)?
    private var dragging = false
    /// The press rotates instead of panning (secondary button, or Ctrl held).
    private var rotating = false
    /// Where the compass is on screen (set by the window while the map is not north-up): a click
    /// inside it turns the map back to north instead of toggling the timer.
    public var compass: CompassArea?
    /// Pointer positions of the drag's last moments, for inertia.
    private var samples: [(x: Double, y: Double, time: Double)] = []

    /// Inertia after a drag (MapLibre GL JS's): the pointer's velocity over its last 160 ms,
    /// at most 1400 px/s, decelerating at 2500 px/s^2 with linearity 0.3, eased with
    /// cubic-bezier(0, 0, 0.3, 1).
    public static let inertiaWindow = 0.16
    public static let inertiaMaxSpeed = 1400.0
    public static let inertiaDeceleration = 2500.0
    public static let inertiaLinearity = 0.3
    private var lastClick: (x: Double, y: Double, time: Double)?

    public init() {}

    /// True while a button is held and has moved far enough to be a drag.
    public var isDragging: Bool { dragging }

    public mutating func handle(_ event: InputEvent) -> [MapCommand] {
        switch event {
        case let .pointerDown(x, y, mods, button, time):
            pressAt = (x, y); lastPointer = (x, y); pressModifiers = mods; dragging = false
            rotating = button == .secondary || mods.contains(.control)
            samples = [(x, y, time)]
            return []
        case let .pointerMove(x, y, time):
            guard let p = pressAt, let last = lastPointer else { return [] }
            samples.append((x, y, time))
            samples.removeAll { time - $0.time > Self.inertiaWindow }
            if !dragging {
                let d = ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot()
                guard d >= Self.clickTolerance else { return [] }
                dragging = true
            }
            lastPointer = (x, y)
            if x == last.x && y == last.y { return [] }
            return rotating ? [.rotateDrag(x0: last.x, y0: last.y, x1: x, y1: y)] : [.dragPan(x0: last.x, y0: last.y, x1: x, y1: y)]
        case let .pointerUp(x, y, time):
            guard let p = pressAt else { return [] }
            defer { pressAt = nil; lastPointer = nil; dragging = false; rotating = false }
            if rotating {
                // A rotation has no glide; a secondary click does nothing.
                lastClick = nil
                guard dragging, let last = lastPointer, x != last.x || y != last.y else { return [] }
                return [.rotateDrag(x0: last.x, y0: last.y, x1: x, y1: y)]
            }
            if dragging {
                var out: [MapCommand] = []
                if let last = lastPointer, x != last.x || y != last.y { out.append(.dragPan(x0: last.x, y0: last.y, x1: x, y1: y)) }
                lastClick = nil
                samples.append((x, y, time))
                if let glide = Self.inertia(samples.filter { time - $0.time <= Self.inertiaWindow }) { out.append(glide) }
                return out
            }
            let d = ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot()
            if d >= Self.clickTolerance { lastClick = nil; return [.dragPan(x0: p.x, y0: p.y, x1: x, y1: y)] }
            if let c = compass, c.contains(x: x, y: y) { lastClick = nil; return [.resetNorth] }
            if let c = lastClick, time - c.time <= Self.doubleClickInterval,
               abs(x - c.x) <= Self.doubleClickDistance, abs(y - c.y) <= Self.doubleClickDistance {
                lastClick = nil
                let delta: Double = pressModifiers.contains(.shift) ? -1 : 1
                return [.toggleTimer, .zoom(delta: delta, aroundX: x, aroundY: y, duration: Self.easeDuration)]
            }
            lastClick = (x, y, time)
            return [.toggleTimer]
        case let .wheel(ticks, x, y, _):
            guard ticks != 0, ticks.isFinite else { return [] }
            return [.zoom(delta: ticks * Self.wheelZoomPerTick, aroundX: x, aroundY: y, duration: Self.wheelDuration)]
        case let .keyDown(key, mods, _):
            if mods == .control, key == .character("s") || key == .character("S") { return [.saveView] }
            if mods == .alt, key == .up { return [.resetNorth] }
            if mods.contains(.control) || mods.contains(.alt) { return [] }
            if mods.contains(.shift), key == .left { return [.rotateEased(degrees: -Camera.rotateStep)] }
            if mods.contains(.shift), key == .right { return [.rotateEased(degrees: Camera.rotateStep)] }
            if mods.contains(.shift), key == .up { return [.tiltEased(degrees: Camera.tiltStep)] }
            if mods.contains(.shift), key == .down { return [.tiltEased(degrees: -Camera.tiltStep)] }
            return Self.command(for: key)
        case let .resized(w, h, _):
            return [.resize(width: w, height: h)]
        case .quit:
            return [.quit]
        }
    }

    /// The glide after a drag, from its last samples; nil when the pointer had (nearly) stopped.
    static func inertia(_ s: [(x: Double, y: Double, time: Double)]) -> MapCommand? {
        guard let first = s.first, let last = s.last, last.time - first.time > 0 else { return nil }
        let dx = last.x - first.x, dy = last.y - first.y
        guard (dx * dx + dy * dy).squareRoot() >= clickTolerance else { return nil }
        let dt = last.time - first.time
        var vx = dx / dt, vy = dy / dt
        let speed = (vx * vx + vy * vy).squareRoot()
        if speed > inertiaMaxSpeed { vx *= inertiaMaxSpeed / speed; vy *= inertiaMaxSpeed / speed }
        let duration = min(speed, inertiaMaxSpeed) / (inertiaDeceleration * inertiaLinearity)
        return .glide(dx: vx * duration / 2, dy: vy * duration / 2, duration: duration)
    }

    static func command(for key: Key) -> [MapCommand] {
        switch key {
        case .character("+"), .character("="), .keypadPlus: return [.zoomCentered(delta: 1)]
        case .character("-"), .keypadMinus: return [.zoomCentered(delta: -1)]
        case .left: return [.panEased(dx: keyPan, dy: 0)]
        case .right: return [.panEased(dx: -keyPan, dy: 0)]
        case .up: return [.panEased(dx: 0, dy: keyPan)]
        case .down: return [.panEased(dx: 0, dy: -keyPan)]
        case .character("0"): return [.resetCamera]
        case .function(11): return [.toggleFullscreen]
        case .character("q"), .character("Q"), .escape: return [.quit]
        case .space: return [.toggleTimer]
        case .character("p"), .character("P"): return [.togglePulse]
        case .character(","): return [.stepFrame(-1)]
        case .character("."): return [.stepFrame(1)]
        case .home: return [.jumpFrame(oldest: true)]
        case .end: return [.jumpFrame(oldest: false)]
        case .character("["): return [.frameSpeed(factor: 0.5)]
        case .character("]"): return [.frameSpeed(factor: 2)]
        case .character("g"), .character("G"): return [.toggleLegend]
        case .character("r"), .character("R"): return [.cycleRadarProvider]
        case .character("c"), .character("C"): return [.toggleClouds]
        case .character("t"), .character("T"): return [.toggleDaylight]
        case .character("v"), .character("V"): return [.toggleFootprint]
        case .character("w"), .character("W"): return [.toggleWarnings]
        case .character("o"), .character("O"): return [.toggleNextPass]
        case .character("l"), .character("L"): return [.cycleLight]
        case .character("e"), .character("E"): return [.toggleEmissive]
        case .character("1"): return [.switchScene("radar")]
        case .character("2"): return [.switchScene("iss")]
        case .character("3"): return [.switchScene("route")]
        case .character("4"): return [.switchScene("streets")]
        case .character("f"), .character("F"): return [.toggleFollow]
        case .character("h"), .character("H"), .character("?"): return [.toggleHelp]
        case .character("u"), .character("U"): return [.toggleUnits]
        case .character("n"), .character("N"): return [.resetNorth]
        case .character("b"), .character("B"): return [.toggleBuildings]
        default: return []
        }
    }
}

