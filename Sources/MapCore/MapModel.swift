import Foundation

/// The map's state: style, camera, timer, transitions, light, the route pulse, the ISS and the
/// overlay's settings. Commands and time change it; `frame()` describes what to draw at the
/// instant the model was advanced to. It never reads a clock: every instant is passed in
/// (seconds since the map started).
public struct MapModel: Sendable {
    public private(set) var style: Style
    public private(set) var camera: Camera
    public private(set) var timer: AnimationTimer
    public private(set) var scene: Scene
    /// The scenes keys 1, 2 and 3 switch to.
    public private(set) var scenes: [Scene]
    public private(set) var pulse: RoutePulse?
    /// Layer ids of the route steps, in step order.
    public let routeLayerIDs: [String]
    /// The instant the model was last advanced to.
    public private(set) var now: Double
    /// Set by a quit command.
    public private(set) var wantsQuit = false
    /// The help panel is shown.
    public private(set) var showsHelp = false
    /// The scale bar is in miles and feet.
    public private(set) var imperialUnits = false
    /// The attribution line (sources of the data shown).
    public var attribution = ""
    /// The status line the run loop composes (frame, ISS, frames per second), in order of
    /// importance; empty: none.
    public var status: [StatusPart] = []
    /// Draw the overlay (attribution, status, scale, help).
    public var overlayEnabled = true
    /// The overlay's text rows, laid out again only when their strings or the size change.
    private let overlayLayoutCache = OverlayLayoutCache()
    /// Light the layers by the light preset (Mapbox Standard); off, colours show as written
    /// (MapLibre styles have no light).
    public var lighting = true
    /// Device pixels per CSS pixel: every length in pixels (lines, text, icons, the overlay) is
    /// scaled by it, and the camera's zoom is the style's zoom plus log2 of it (`setPixelRatio`).
    public private(set) var pixelRatio = 1.0
    /// Paint properties whose value is (or was) transitioning, by layer id then property name.
    private var transitions: [String: [String: TransitioningValue]] = [:]
    /// The route pulse's changes due in a frame (storage kept between frames).
    private var pulseChanges: [RoutePulse.Change] = []
    /// The light preset, and the ground radiance easing between presets.
    public private(set) var lightPreset: LightPreset
    private var radiance: TransitioningValue
    /// The raster layer the timer steps through (the radar), if any.
    public let radarLayerID: String?
    /// Unix time (UTC seconds) at model instant 0: `--time`, or the launch time.
    public let clockOrigin: Double
    /// The ISS: its position source and where it is (nil when the map has no ISS layers).
    public private(set) var iss: IssTracker?
    /// Three one-point arrays taken in turn for the ISS's position: the frame being drawn and
    /// the one handed back for recycling share the last two, so the third is changed in place
    /// and a frame's new position allocates nothing. (Any array still shared is copied on
    /// change, as always; this only spares the allocation.)
    private var issPoints: [[PointFeature]] = []
    private var issTurn = 0
    /// Follow mode: the camera eases to the ISS once a second.
    public private(set) var followsIss = false
    private var lastFollow = 0.0
    private var trackComputedAt = -Double.infinity

    public init(scene: Scene, style: Style, size: ViewportSize, start: Double = 0,
                scenes: [Scene] = [], routeLayerIDs: [String] = [], radarLayerID: String? = nil,
                light: LightPreset = .night, clockOrigin: Double = 0, iss: IssTracker? = nil) {
        self.radarLayerID = radarLayerID
        self.clockOrigin = clockOrigin
        self.iss = iss
        followsIss = scene.followsIss
        lastFollow = start
        lightPreset = light
        radiance = TransitioningValue(constant: .color(light.groundRadiance(zoom: scene.camera.zoom)))
        self.scene = scene
        self.scenes = scenes.isEmpty ? [scene] : scenes
        self.style = style
        now = start
        camera = Camera(state: scene.startCamera(size: size), bounds: scene.bounds, size: size)
        timer = AnimationTimer(interval: 1, playing: scene.timerStartsPlaying, start: start)
        self.routeLayerIDs = routeLayerIDs
        pulse = routeLayerIDs.isEmpty ? nil : RoutePulse(stepCount: routeLayerIDs.count, start: start)
    }

    /// Jumps the camera (clamped like every gesture).
    public mutating func jump(to state: CameraState) { camera.jump(to: state) }

    /// Replaces the camera bounds (the camera is clamped into them at once).
    public mutating func setCameraBounds(_ bounds: CameraBounds) { camera.setBounds(bounds) }

    // MARK: Commands

    /// Applies one command at instant `now`.
    public mutating func apply(_ command: MapCommand, now: Double) {
        let ease = InputController.easeDuration
        switch command {
        case let .pan(dx, dy):
            camera.pan(dx: dx, dy: dy)
            followsIss = false                        // dragging the map ends follow mode
        case let .glide(dx, dy, duration):
            camera.ease(to: camera.shifted(camera.state, dx: dx, dy: dy), duration: duration,
                        curve: .cubicBezier(0, 0, 0.3, 1), now: now)
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
            camera.ease(to: CameraState(center: t.center, zoom: t.zoom + delta, bearing: t.bearing), duration: ease,
                        curve: .quadraticOut, now: now)
        case .toggleTimer:
            timer.toggle(at: now)
        case let .stepFrame(delta):
            timer.step(delta, at: now)
        case .cycleLight:
            setLight(lightPreset.next, at: now)
        case .toggleEmissive:
            guard let id = radarLayerID, let e = rasterPaint(layer: id)?.emissiveStrength else { return }
            if layerDefinition(id) != nil {
                try? setPaintProperty(layer: id, "raster-emissive-strength", json: .number(e >= 0.5 ? 0 : 1))
            } else {
                try? setPaintProperty(layer: id, "raster-emissive-strength", .number(e >= 0.5 ? 0 : 1), at: now)
            }
        case .togglePulse:
            togglePulse(at: now)
        case .toggleHelp:
            showsHelp.toggle()
        case .toggleUnits:
            imperialUnits.toggle()
        case .toggleFollow:
            guard iss != nil else { return }
            followsIss.toggle()
            lastFollow = now - 1            // the first ease starts at once
        case let .switchScene(name):
            guard let s = scenes.first(where: { $0.name == name }) else { return }
            scene = s
            camera.advance(to: now)
            camera.setBounds(s.bounds)
            camera.ease(to: s.startCamera(size: camera.size), duration: 1, curve: .easeOut, now: now)
            followsIss = s.followsIss && iss != nil
            lastFollow = now
        case .resetCamera:
            camera.ease(to: scene.startCamera(size: camera.size), duration: ease, curve: .quadraticOut, now: now)
        case let .rotate(degrees):
            camera.turn(by: degrees)
        case let .rotateDrag(x0, y0, x1, y1):
            camera.turn(from: (x0, y0), to: (x1, y1))
        case let .rotateEased(degrees):
            camera.ease(turningBy: degrees, now: now)
        case .resetNorth:
            camera.easeToNorth(now: now)
        case let .resize(w, h):
            camera.resize(ViewportSize(width: w, height: h))
        case .quit:
            wantsQuit = true
        case .toggleFullscreen, .saveView:
            break                           // the window's (the viewer acts on them)
        }
    }

    /// Sets the device pixels per CSS pixel (a HiDPI window: drawable / window size): the
    /// scenes' zooms and the camera shift by log2 of the change, so the same ground shows, in
    /// more pixels.
    public mutating func setPixelRatio(_ ratio: Double) {
        guard ratio > 0, ratio.isFinite, ratio != pixelRatio else { return }
        let factor = ratio / pixelRatio, shift = log2(factor)
        pixelRatio = ratio
        scenes = scenes.map { $0.scaled(by: factor) }
        scene = scene.scaled(by: factor)
        camera.setBounds(scene.bounds)
        let target = camera.target
        camera.jump(to: CameraState(center: target.center, zoom: target.zoom + shift, bearing: target.bearing))
    }

    // MARK: Style changes

    /// Applies a change to the style (the style API's extension uses this).
    mutating func mutateStyle(_ change: (inout Style) -> Void) { change(&style) }

    /// Sets a paint property at instant `at`, animated by the layer's `<name>-transition` or the
    /// style's transition; retargeting a running transition continues from the value shown then.
    public mutating func setPaintProperty(layer id: String, _ name: String, _ value: PaintValue, at time: Double) throws {
        guard let index = style.layerIndex(id) else { throw StyleError("layers.\(id): no such layer") }
        let layer = style.layers[index]
        try PaintProperty.validate(name, value, layer: layer)
        guard let current = transitions[id]?[name] ?? PaintProperty.get(name, of: layer.paint).map(TransitioningValue.init(constant:)) else {
            throw StyleError("layers.\(id).paint.\(name): not a property of this layer")
        }
        let options = layer.transitions[name] ?? style.transition
        transitions[id, default: [:]][name] = current.retargeted(to: value, options: options, now: time)
        PaintProperty.set(name, value, in: &style.layers[index].paint)
    }

    // MARK: The ISS

    /// A fix from the live feed (delivered by the run loop from the feed's inbox).
    public mutating func receiveIss(_ fix: IssFix) { iss?.receive(fix) }

    /// A failed request of the live feed, with a one-line reason.
    public mutating func issFeedFailed(at time: Double, reason: String) { iss?.failed(at: time, reason: reason) }

    /// The orbit's element set epoch (Unix seconds), when the ISS has one.
    public var issOrbitEpoch: Double? { iss?.orbitEpoch }

    /// The ISS as shown now: position, heading, source and data age.
    public var issNow: (fix: IssFix, bearing: Double, ageSeconds: Double)? { iss?.position(at: clockOrigin + now) }

    private mutating func advanceIss() {
        guard let tracker = iss else { return }
        let utc = clockOrigin + now
        if let p = tracker.position(at: utc) {
            let feature = PointFeature(position: p.fix.position, bearing: p.bearing)
            if issPoints.count < 3 {
                issPoints.append([feature])
                issTurn = issPoints.count - 1
            } else {
                issTurn = issTurn == 2 ? 0 : issTurn + 1
                issPoints[issTurn][0] = feature
            }
            style.points["iss"] = issPoints[issTurn]
        }
        // Follow mode: once a second, a 1 s ease to where the ISS is then (as the example's timer
        // does). Each ease starts at its own whole second, so a snapshot at any instant shows what
        // the window shows; only the last few matter, as each ease starts from the previous one.
        if followsIss {
            // `lastFollow` is the last ease (or when follow mode began): eases fall 1 s apart after it.
            if now - lastFollow > 6 { lastFollow += ((now - lastFollow) - 5).rounded(.down) }
            while lastFollow + 1 <= now {
                let t = lastFollow + 1
                lastFollow = t
                guard let q = tracker.position(at: clockOrigin + t) else { break }
                let zoom = scene.followZoom ?? camera.target.zoom
                camera.ease(to: CameraState(center: q.fix.position, zoom: zoom, bearing: camera.target.bearing), duration: 1, curve: .easeOut, now: t)
            }
            camera.advance(to: now)
        }
        // The ground track: the last 45 minutes and the next 90, redrawn once a minute.
        if tracker.orbit != nil && (now - trackComputedAt >= 60 || now < trackComputedAt) {
            trackComputedAt = now
            style.sources["iss-track-past"] = GeometrySet.lines(name: "iss-track-past", tracker.groundTrack(from: utc - 45 * 60, to: utc))
            style.sources["iss-track-future"] = GeometrySet.lines(name: "iss-track-future", tracker.groundTrack(from: utc, to: utc + 90 * 60))
        }
    }

    /// What labels keep clear of: the ISS icon, the compass and the overlay's strip along the
    /// bottom (status, scale bar, attribution). One array a frame, shared by its label layers.
    private func labelAvoidBoxes(into boxes: inout [FrameDescription.ScreenBox]) {
        boxes.reserveCapacity(3)
        if let iss = issBox() { boxes.append(iss) }
        if overlayEnabled, let c = compassArea { boxes.append(.init(minX: c.x - c.radius, minY: c.y - c.radius, maxX: c.x + c.radius, maxY: c.y + c.radius)) }
        if overlayEnabled {
            // The strip along the bottom, taller when a narrow window stacks the overlay's rows.
            let w = Double(camera.size.width), h = Double(camera.size.height)
            let strip = 46 * pixelRatio
            let top = overlayLayout(scale: nil)?.top.map { $0 - 24 * pixelRatio } ?? h - strip
            boxes.append(.init(minX: 0, minY: min(h - strip, top), maxX: w, maxY: h))
        }
    }

    /// The ISS icon's box on screen (labels keep clear of it), with every world copy in view.
    private func issBox() -> FrameDescription.ScreenBox? {
        guard let f = style.points["iss"]?.first,
              let layer = style.layers.first(where: { if case .symbol = $0.paint { return $0.source == "iss" } else { return false } }),
              case let .symbol(y) = layer.paint, let icon = style.icons[y.iconImage] else { return nil }
        let view = camera.view
        let r = (icon.width * icon.width + icon.height * icon.height).squareRoot() * y.iconSize * pixelRatio / 2
        let s = view.nearestScreen(f.position)
        // Out of the window it cannot overlap a label (and the labels need not be placed again).
        guard s.x + r > 0, s.x - r < Double(view.size.width), s.y + r > 0, s.y - r < Double(view.size.height) else { return nil }
        return .init(minX: s.x - r, minY: s.y - r, maxX: s.x + r, maxY: s.y + r)
    }

    /// Shows or hides a layer (`layout.visibility`).
    public mutating func setVisibility(layer id: String, _ visible: Bool) {
        guard let i = style.layerIndex(id) else { return }
        style.layers[i].visible = visible
    }

    /// Replaces the features of a point source in place (`updateGeoJSONSource`).
    public mutating func updatePointSource(_ id: String, _ features: [PointFeature]) {
        style.points[id] = features
    }

    /// Sets a layer's own transition for one property (`<name>-transition`).
    public mutating func setTransition(layer id: String, _ name: String, _ options: TransitionOptions) throws {
        guard let index = style.layerIndex(id) else { throw StyleError("layers.\(id): no such layer") }
        guard PaintProperty.get(name, of: style.layers[index].paint) != nil else {
            throw StyleError("layers.\(id).paint.\(name)-transition: unknown property for a \(style.layers[index].paint.typeName) layer")
        }
        style.layers[index].transitions[name] = options
    }

    /// The value a paint property shows at the model's current instant.
    public func paintValue(layer id: String, _ name: String) -> PaintValue? {
        if let t = transitions[id]?[name] { return t.value(at: now) }
        guard let layer = style.layers.first(where: { $0.id == id }) else { return nil }
        return PaintProperty.get(name, of: layer.paint)
    }

    /// Changes the light preset at `time`, the ground radiance easing over 300 ms.
    public mutating func setLight(_ preset: LightPreset, at time: Double) {
        lightPreset = preset
        radiance = radiance.retargeted(to: .color(preset.groundRadiance(zoom: camera.state.zoom)),
                                       options: TransitionOptions(duration: 0.3), now: time)
    }

    /// The ground radiance now.
    public var groundRadiance: Color {
        guard lighting else { return .white }
        if case let .color(c) = radiance.value(at: now) { return c }
        return .white
    }

    // MARK: Radar frames

    /// The radar frame the timer points at now, the number of frames, and whether it plays.
    public var radarFrame: (index: Int, count: Int, playing: Bool)? {
        guard let id = radarLayerID, let layer = style.layers.first(where: { $0.id == id }),
              let source = layer.source.flatMap({ style.images[$0] }), !source.frames.isEmpty else { return nil }
        let n = source.frames.count
        return (((timer.ticks(at: now) % n) + n) % n, n, timer.isPlaying)
    }

    // MARK: Time

    /// Moves every animation to `now`: camera eases, the route pulse's scheduled changes (each
    /// applied at its own instant, so frame timing never shifts them), transitions.
    public mutating func advance(to now: Double) {
        camera.advance(to: now)
        if var p = pulse {
            var changes = pulseChanges
            pulseChanges = []
            let resetAll = p.advance(to: now, into: &changes)
            pulse = p
            if resetAll { for id in routeLayerIDs { setStepOpacity(id, 0, at: now, immediately: true) } }
            for c in changes where c.step < routeLayerIDs.count {
                setStepOpacity(routeLayerIDs[c.step], c.opacity, at: c.time, immediately: false)
            }
            pulseChanges = changes
        }
        self.now = max(self.now, now)
        advanceIss()
        // Drop transitions that have ended: their layers hold the targets already. (Only when
        // one has, and in place: a layer keeps its emptied dictionary for its next transition,
        // so the route's steps make no dictionaries.)
        if transitions.values.contains(where: { $0.values.contains { !$0.isRunning(at: self.now) } }) {
            var i = transitions.startIndex
            while i != transitions.endIndex {
                while let ended = transitions.values[i].firstIndex(where: { !$0.value.isRunning(at: self.now) }) {
                    transitions.values[i].remove(at: ended)
                }
                i = transitions.index(after: i)
            }
        }
    }

    private mutating func setStepOpacity(_ id: String, _ v: Double, at time: Double, immediately: Bool) {
        if immediately {
            transitions[id]?["line-opacity"] = nil
            if let i = style.layerIndex(id) { PaintProperty.set("line-opacity", .number(v), in: &style.layers[i].paint) }
        } else {
            try? setPaintProperty(layer: id, "line-opacity", .number(v), at: time)
        }
    }

    /// Starts the pulse from a new cycle, or stops it and fades every step out.
    public mutating func togglePulse(at now: Double) {
        guard var p = pulse else { return }
        p.toggle(at: now)
        pulse = p
        if !p.isRunning { for id in routeLayerIDs { setStepOpacity(id, 0, at: now, immediately: false) } }
        advance(to: now)
    }

    /// True while something changes from instant to instant: the loop keeps drawing, even when
    /// a transitioning layer is fully transparent at this moment.
    public var isAnimating: Bool {
        camera.isAnimating || (pulse?.isRunning ?? false) || radiance.isRunning(at: now) || isFading
            || transitions.values.contains { $0.values.contains { $0.isRunning(at: now) } }
    }

    /// True while a raster layer cross-fades between two frames.
    private var isFading: Bool {
        guard let id = radarLayerID, let p = rasterPaint(layer: id), p.fadeDuration > 0,
              let change = timer.lastChange(at: now) else { return false }
        return now - change.time < p.fadeDuration
    }

    /// A raster layer's paint as drawn now: a typed layer's (transitions applied), a document
    /// layer's evaluated at the current zoom.
    public func rasterPaint(layer id: String) -> RasterPaint? {
        guard let layer = style.layers.first(where: { $0.id == id }) else { return nil }
        switch layer.paint {
        case var .raster(p):
            if let running = transitions[id] {
                var paint = LayerPaint.raster(p)
                for (name, value) in running { PaintProperty.set(name, value.value(at: now), in: &paint) }
                if case let .raster(q) = paint { p = q }
            }
            return p
        case let .styled(s) where s.definition.type == .raster:
            return s.rasterPaint(zoom: camera.state.zoom - log2(pixelRatio))
        default:
            return nil
        }
    }

    /// When the picture next changes by itself although nothing animates: the next radar tick,
    /// or the moment the ISS has moved a quarter of a pixel (it moves continuously, slowly on
    /// screen: about 3 px/s at zoom 5), whichever is first.
    public var nextScheduledChange: Double? {
        var next = radarLayerID == nil ? nil : timer.nextTick(after: now)
        if let p = issNow {
            let view = camera.view
            let metresPerPixel = 40_075_016.686 * cos(p.fix.position.lat * Double.pi / 180) / view.worldSize
            let pixelsPerSecond = 7_660 / max(metresPerPixel, 1e-6)
            var step = min(1, max(1.0 / 60, 0.25 / pixelsPerSecond))
            // Out of sight only the edge marker moves, and slowly: once a second is plenty.
            let s = view.nearestScreen(p.fix.position)
            if s.x < -60 || s.x > Double(view.size.width) + 60 || s.y < -60 || s.y > Double(view.size.height) + 60 { step = 1 }
            next = min(next ?? .infinity, now + step)
        }
        return next
    }

    // MARK: Frames

    /// The layers drawn at the current zoom, in draw order.
    public var visibleLayerIDs: [String] {
        style.layers.filter { $0.isShown(atZoom: camera.state.zoom) }.map(\.id)
    }

    /// What to draw at the instant the model was advanced to.
    public func frame() -> FrameDescription {
        var none: FrameDescription? = nil
        return frame(recycling: &none)
    }

    /// The same, in the storage of `spare`, a description the caller no longer needs (taken, and
    /// left nil). A run loop that hands back the frame before the last one (the renderer keeps
    /// the last) describes a warm frame without allocating; storage still shared elsewhere is
    /// copied first, as any array is.
    public func frame(recycling spare: inout FrameDescription?) -> FrameDescription {
        let zoom = camera.state.zoom
        var out: [FrameDescription.DrawLayer] = []
        // What labels keep clear of, shared by every label layer of the frame.
        var avoid: [FrameDescription.ScreenBox] = []
        if let old = spare {
            spare = nil
            out = old.layers
            avoid = old.layers.lazy.compactMap { $0.labels?.avoid }.first ?? []
        }
        out.removeAll(keepingCapacity: true)
        avoid.removeAll(keepingCapacity: true)
        out.reserveCapacity(style.layers.count)
        var avoidReady = false
        let light = groundRadiance
        let styleZoom = zoom - log2(pixelRatio)
        for layer in style.layers where layer.isShown(atZoom: styleZoom) {
            var paint = layer.paint
            if let running = transitions[layer.id] {
                for (name, value) in running { PaintProperty.set(name, value.value(at: now), in: &paint) }
            }
            switch paint {
            case .background:
                out.append(.init(id: layer.id, paint: paint, geometry: nil))
            case var .fill(f):
                guard let g = layer.source.flatMap({ style.sources[$0] }) else { continue }
                f.color = f.color.lit(by: light, emissive: f.emissiveStrength)
                out.append(.init(id: layer.id, paint: .fill(f), geometry: g))
            case var .line(l):
                guard let g = layer.source.flatMap({ style.sources[$0] }) else { continue }
                l.color = l.color.lit(by: light, emissive: l.emissiveStrength)
                if pixelRatio != 1 { l.scale(by: pixelRatio) }
                out.append(.init(id: layer.id, paint: .line(l), geometry: g))
            case let .raster(r):
                guard let source = layer.source.flatMap({ style.images[$0] }),
                      let draw = imageDraw(source, r, light: light) else { continue }
                out.append(.init(id: layer.id, paint: paint, geometry: nil, image: draw))
            case var .labels(l):
                guard let places = layer.source.flatMap({ style.places[$0] }), let font = style.font else { continue }
                if !avoidReady { labelAvoidBoxes(into: &avoid); avoidReady = true }
                if pixelRatio != 1 { l.scale(by: pixelRatio) }
                out.append(.init(id: layer.id, paint: .labels(l), geometry: nil,
                                 labels: .init(places: places, font: font, avoid: avoid,
                                               light: Color.white.lit(by: light, emissive: l.emissiveStrength))))
            case let .styled(s):
                let e = StyleEvaluation(zoom: styleZoom, pixelRatio: pixelRatio, light: light,
                                        worldSize: camera.view.worldSize, bearing: camera.state.bearing)
                if let draw = s.drawLayer(style, e, image: { imageDraw($0, $1, light: light) }) { out.append(draw) }
            case var .symbol(y):
                guard let features = layer.source.flatMap({ style.points[$0] }), !features.isEmpty,
                      let icon = style.icons[y.iconImage] else { continue }
                y.iconSize *= pixelRatio
                let draw = FrameDescription.SymbolDraw(icon: icon, features: features,
                                                       light: Color.white.lit(by: light, emissive: y.emissiveStrength),
                                                       pixelRatio: pixelRatio)
                out.append(.init(id: layer.id, paint: .symbol(y), geometry: nil, symbols: draw))
            }
        }
        return FrameDescription(view: camera.view, layers: out, overlay: overlayEnabled ? overlay() : nil)
    }

    private func overlay() -> Overlay {
        let view = camera.view
        let metresPerPixel = 40_075_016.686 * cos(camera.state.center.lat * Double.pi / 180) / view.worldSize
        let scale = Overlay.scaleBar(metresPerPixel: metresPerPixel, imperial: imperialUnits, maxPixels: 110 * pixelRatio)
        return Overlay(attribution: attribution, status: status, help: showsHelp ? Overlay.helpLines : nil,
                       scale: scale, font: style.font, layout: overlayLayout(scale: scale),
                       compass: compassArea.map { ($0, camera.state.bearing) })
    }

    /// Where the overlay's parts go at this window size (nil without a font).
    public func overlayLayout(scale: (pixels: Double, label: String)?) -> OverlayLayout? {
        guard let font = style.font else { return nil }
        let w = Double(camera.size.width), h = Double(camera.size.height)
        let text = overlayLayoutCache.text(attribution: attribution, status: status, font: font, width: w, height: h, ratio: pixelRatio)
        return OverlayLayout(text: text, scale: scale.flatMap {
            OverlayLayout.scale(pixels: $0.pixels, label: $0.label, over: text, font: font, width: w, height: h, ratio: pixelRatio)
        })
    }

    /// The frame the timer points at (or the last good one before it) and, during a cross-fade,
    /// the one it replaces.
    private func imageDraw(_ source: ImageSource, _ paint: RasterPaint, light: Color) -> FrameDescription.ImageDraw? {
        let ticks = timer.ticks(at: now)
        guard let image = source.image(at: ticks) else { return nil }
        var previous: (any RasterImage)? = nil
        var fade = 1.0
        if paint.fadeDuration > 0, let change = timer.lastChange(at: now), now - change.time < paint.fadeDuration,
           let before = source.image(at: change.from), before !== image {
            previous = before
            fade = max(0, (now - change.time) / paint.fadeDuration)
        }
        let multiplier = Color.white.lit(by: light, emissive: paint.emissiveStrength)
        return .init(image: image, previous: previous, fade: fade, corners: source.corners,
                     placement: source.placement, light: multiplier, pixelAligned: !camera.isAnimating)
    }
}
