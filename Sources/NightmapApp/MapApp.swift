import Foundation
import MapCore

/// nightmap's demos over the map engine: the scenes, the radar player (its 1-second timer steps
/// the radar's image source through its frames), the route pulse (the snippet's schedule of
/// `setPaintProperty` calls on the route's step layers), the ISS tracker (its GeoJSON source,
/// ground track and follow camera) and the help panel. Commands and time change it; it changes
/// the map only through the engine's public API, and never reads a clock.
public struct MapApp: Sendable {
    /// The map engine the demos drive.
    public var model: MapModel
    public private(set) var scene: Scene
    /// The scenes keys 1, 2, 3 and 4 switch to.
    public private(set) var scenes: [Scene]
    /// `--projection`: what the map is seen through whatever the scene and the style say (nil:
    /// the globe for a scene that opens on it, else the style's projection).
    public var projectionOverride: Projection? {
        didSet { applyProjection() }
    }
    /// The radar loop's clock.
    public internal(set) var loop: RadarLoop
    /// The radar's slots and frames (nil: the map has no radar).
    public internal(set) var radar: RadarSeries?
    /// The radar's colour legend is shown (`g`).
    public internal(set) var showsLegend = true
    /// The attribution's parts other than the radar's (which follows them).
    public var credits: [String] = []
    /// The live radar source the run loop keeps current (nil: frames from files).
    public var radarLive: RadarFeed.Source?
    /// Where the demo frames are (the live radar's last fallback).
    public var radarDemoPath: String?
    /// Which live radar providers a view may get (`--radar-provider`, `r` cycles; nil: the
    /// radar is not live), and the one shown (nil: none yet).
    public var radarChoice: RadarProviderChoice?
    public internal(set) var radarProvider: RadarProvider?
    /// Whether `r` may change the choice (both providers are on).
    public var radarProviderCycles = false
    /// The clouds' frames (nil: none yet, or no clouds layer), and the time of the newest
    /// clouds any satellite has (UTC seconds: the status line says how old they are).
    public internal(set) var clouds: RadarSeries?
    public var cloudsNewest: Double?
    /// The raster layer the timer steps through (the radar), if any.
    public let radarLayerID: String?
    /// Where the style puts the radar's image source: frames that do not say where they go
    /// (files, the demo) go there.
    var radarHome: (corners: ImageCorners, placement: ImagePlacement)?
    public internal(set) var pulse: RoutePulse?
    /// Layer ids of the route steps, in step order.
    public internal(set) var routeLayerIDs: [String] = []
    /// The route pulse's changes due in a frame (storage kept between frames).
    var pulseChanges: [RoutePulse.Change] = []
    /// Unix time (UTC seconds) at map instant 0: `--time`, or the launch time.
    public let clockOrigin: Double
    /// The ISS: its position source and where it is (nil when the map has no ISS).
    public internal(set) var iss: IssTracker?
    /// What keeping the element set current last did, in a few words ("up to date", "no try
    /// before 14:05 UTC: HTTP 403"); nil when it is off.
    public var elementsRefresh: String?
    /// The place passes are predicted for (`--observer`), and whether `o` shows the next one.
    public internal(set) var observer: LngLat?
    public internal(set) var showsNextPass = false
    var passCache: PassCache?
    /// Follow mode: the camera eases to the ISS once a second.
    public private(set) var followsIss = false
    var lastFollow = 0.0
    var trackComputedAt = -Double.infinity
    /// The fit the track was last drawn with, and the track drawn (past and future pieces).
    var trackFitGeneration = 0
    var trackLines: [[LngLat]] = []
    /// The orbit through space over the globe, as the track (see `MapApp+Orbit`).
    var orbitPoints: [SpacePath.Point] = []
    /// When the night shading and the subsolar point were last worked out (map time).
    var skyComputedAt = -Double.infinity
    /// Where the ISS was last put into its source.
    var issShown: (position: LngLat, bearing: Double, time: Double)?
    public private(set) var showsHelp = false
    /// What is drawn over the map: status line, scale bar, the radar's timeline and legend, help.
    public var overlay = AppOverlay()
    /// Set by a quit command.
    public private(set) var wantsQuit = false
    /// The NWS warnings: the alerts, what is drawn of them, the panel under the pointer.
    public internal(set) var warnings = WarningsState()

    /// The source the ISS's position goes into (a Point with its `bearing`), the symbol layer
    /// that draws it, and the sources of its ground track.
    public static let issSourceID = "iss", issLayerID = "iss"
    public static let trackPastID = "iss-track-past", trackFutureID = "iss-track-future"

    /// The demos over a map of `style` in a viewport of `size` device pixels, opening on `scene`.
    public init(style: Style, size: ViewportSize, scene: Scene, scenes: [Scene] = [], start: Double = 0,
                radarLayerID: String? = nil, radarDwell: Double = 2, light: LightPreset = .night, clockOrigin: Double = 0,
                iss: IssTracker? = nil) {
        model = MapModel(style: style, size: size, camera: scene.startCamera(size: size), bounds: scene.bounds, start: start, light: light)
        model.lighting = true               // (nightmap's maps are lit by the light preset)
        if scene.opensOnGlobe { model.setProjection(.globe) }
        self.scene = scene
        self.scenes = scenes.isEmpty ? [scene] : scenes
        self.radarLayerID = radarLayerID
        self.clockOrigin = clockOrigin
        self.iss = iss
        followsIss = scene.followsIss
        lastFollow = start
        loop = RadarLoop(frameSeconds: 1, dwell: radarDwell, playing: scene.timerStartsPlaying, start: start)
        if let id = radarSourceID, let source = style.image(id) { radarHome = (source.corners, source.placement) }
        // A radar image source that already has frames plays them (untimed unless they have times).
        if let id = radarSourceID, let source = style.image(id), !source.frames.isEmpty {
            showRadar(RadarSeries(source: source))
        }
    }

    // The engine's state the run loop and the headless commands read.
    public var camera: Camera { model.camera }
    public var now: Double { model.now }
    public var style: Style { model.style }
    public var lightPreset: LightPreset { model.lightPreset }
    public var status: [StatusPart] {
        get { overlay.status }
        set { overlay.status = newValue }
    }
    public var imperialUnits: Bool { overlay.imperialUnits }
    /// Where the overlay's parts are (nil without a font).
    public var overlayLayout: OverlayLayout? { overlay.layout(over: model, scale: overlay.scaleBar(over: model)) }

    /// The map now, the overlay over it.
    public func frame() -> FrameDescription { model.frame(overlay: overlay.overlay(over: model)) }
    public func frame(recycling spare: inout FrameDescription?) -> FrameDescription {
        model.frame(overlay: overlay.overlay(over: model), recycling: &spare)
    }

    /// Jumps the camera (clamped like every gesture).
    public mutating func jump(to state: CameraState) { model.jump(to: state) }

    // MARK: Commands

    /// Applies one command at instant `now`.
    public mutating func apply(_ command: MapCommand, now: Double) {
        let ease = InputController.easeDuration
        switch command {
        case let .pan(dx, dy):
            model.pan(dx: dx, dy: dy)
            followsIss = false                        // dragging the map ends follow mode
        case let .glide(dx, dy, duration):
            model.glide(dx: dx, dy: dy, duration: duration, now: now)
        case let .panEased(dx, dy):
            model.panEased(dx: dx, dy: dy, duration: ease, now: now)
        case let .zoom(delta, x, y, duration):
            model.zoom(by: delta, around: (x, y), duration: duration, now: now)
        case let .zoomCentered(delta):
            model.zoomCentered(by: delta, duration: ease, now: now)
        case .toggleTimer:
            loop.toggle(at: now)
            showRadarFrame()
        case let .stepFrame(delta):
            loop.step(delta, at: now)
            showRadarFrame()
        case let .jumpFrame(oldest):
            loop.jump(to: oldest ? 0 : loop.count - 1, at: now)
            showRadarFrame()
        case let .frameSpeed(factor):
            loop.setFrameSeconds(loop.frameSeconds * factor, at: now)
            showRadarFrame()
        case .toggleLegend:
            showsLegend.toggle()
            showRadarOverlay()
        case .cycleRadarProvider:
            cycleRadarProvider()
        case .toggleClouds:
            toggleLayers([Self.cloudsID])
            creditClouds()
        case .toggleDaylight:
            toggleLayers([Self.nightID, Self.subsolarID])
        case .toggleFootprint:
            toggleLayers([Self.footprintID, Self.footprintEdgeID])
        case .toggleWarnings:
            toggleWarnings()
        case .toggleNextPass:
            showsNextPass.toggle()
            advanceNextPass()
        case .cycleLight:
            model.setLight(model.lightPreset.next, at: now)
        case .toggleEmissive:
            guard let id = radarLayerID, let e = model.rasterPaint(layer: id)?.emissiveStrength else { return }
            try? model.setPaintProperty(layer: id, "raster-emissive-strength", json: .number(e >= 0.5 ? 0 : 1), at: now)
        case .togglePulse:
            togglePulse(at: now)
        case .toggleHelp:
            showsHelp.toggle()
            overlay.help = showsHelp ? HelpText.lines : nil
        case .toggleUnits:
            overlay.imperialUnits.toggle()
        case .toggleFollow:
            guard iss != nil else { return }
            followsIss.toggle()
            lastFollow = now - 1            // the first ease starts at once
        case let .switchScene(name):
            guard let s = scenes.first(where: { $0.name == name }) else { return }
            scene = s
            model.advance(to: now)
            applyProjection()
            model.setCameraBounds(s.bounds)
            model.ease(to: s.startCamera(size: model.camera.size), duration: 1, curve: .easeOut, now: now)
            followsIss = s.followsIss && iss != nil
            lastFollow = now
        case .resetCamera:
            model.ease(to: scene.startCamera(size: model.camera.size), duration: ease, curve: .quadraticOut, now: now)
        case let .rotate(degrees):
            model.turn(by: degrees)
        case let .rotateDrag(x0, y0, x1, y1):
            model.turnAndTilt(from: (x0, y0), to: (x1, y1))
        case let .rotateEased(degrees):
            model.ease(turningBy: degrees, now: now)
        case .resetNorth:
            model.easeToNorth(now: now)
        case let .resize(w, h):
            model.resize(width: w, height: h)
        case .quit:
            wantsQuit = true
        case .toggleFullscreen, .saveView:
            break                           // the window's (the viewer acts on them)
        case let .tiltEased(degrees):
            model.ease(tiltingBy: degrees, now: now)
        case let .dragPan(x0, y0, x1, y1):
            model.pan(from: (x0, y0), to: (x1, y1))
            followsIss = false                        // dragging the map ends follow mode
        case .toggleBuildings:
            toggleBuildings()
        }
    }

    /// Sets the device pixels per CSS pixel (a HiDPI window: drawable / window size): the
    /// scenes' zooms and the camera shift by log2 of the change, so the same ground shows, in
    /// more pixels.
    public mutating func setPixelRatio(_ ratio: Double) {
        guard ratio > 0, ratio.isFinite, ratio != model.pixelRatio else { return }
        let factor = ratio / model.pixelRatio
        scenes = scenes.map { $0.scaled(by: factor) }
        scene = scene.scaled(by: factor)
        model.setPixelRatio(ratio)
    }

    // MARK: Time

    /// Moves every demo and the map to `now`: the route pulse's scheduled changes (each applied
    /// at its own instant, so frame timing never shifts them), the radar's frame, the ISS and
    /// the follow camera, then the engine's eases and transitions.
    public mutating func advance(to now: Double) {
        model.advance(to: now)
        advancePulse(to: now)
        showRadarFrame()
        advanceIss()
        advanceNextPass()
        advanceSky()
        advanceWarnings()
    }

    /// True while something changes from instant to instant: the loop keeps drawing.
    public var isAnimating: Bool { model.isAnimating || (pulse?.isRunning ?? false) }

    /// When the picture next changes by itself although nothing animates: the next radar tick,
    /// the moment the ISS has moved a quarter of a pixel, or the moment a moved view settles and
    /// its labels are drawn exactly, whichever is first.
    public var nextScheduledChange: Double? {
        let now = model.now
        var next = radarLayerID == nil ? nil : loop.nextChange(after: now)
        if let step = issUpdateInterval { next = min(next ?? .infinity, now + step) }
        if model.style.geojson(Self.nightID) != nil { next = min(next ?? .infinity, max(now, skyComputedAt + 60)) }
        if let settle = model.labelsSettleAt { next = min(next ?? .infinity, settle) }
        if let expiry = nextWarningExpiry { next = min(next ?? .infinity, expiry) }
        return next
    }
}

/// Every key binding, for the help panel.
public enum HelpText {
    public static let lines = [
        "drag: pan    wheel: zoom at the pointer    double-click: zoom in (Shift: out)",
        "+ / =, -: zoom    arrows: pan 100 px    0: back to the scene's start",
        "right-drag, Ctrl+drag: rotate (sideways), tilt (up, down)    Shift+Left/Right: turn 15°    Shift+Up/Down: tilt 10°",
        "n, Alt+Up, the compass: north up and flat",
        "click, space: play / pause the radar    , .: previous / next frame (paused)    Home End: oldest / newest",
        "[ ]: radar frames faster / slower    g: radar legend    r: radar provider (auto, IEM, RainViewer)",
        "l: light preset    e: radar emissive strength 1 / 0    c: clouds",
        "p: route pulse    f: follow the ISS    v: ISS footprint    t: day and night    o: next pass    1 radar, 2 ISS, 3 route, 4 streets",
        "w: NWS warnings (rest the pointer on one for its text)    b: the street map's buildings flat / 3D",
        "u: metric / imperial scale    h, ?: this help    q, Esc: quit",
    ]
}
