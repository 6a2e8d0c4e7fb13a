import CSDL2
import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster

/// The SDL window and its run loop: events -> commands -> model -> frame -> pixels -> window.
/// Nothing is drawn unless the frame description changed (or the window needs repainting);
/// with nothing animating the loop sleeps in `SDL_WaitEventTimeout`.
final class Viewer {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let options: Options
    private var model: MapApp
    private var input = InputController()
    private let renderer = ParallelRenderer()
    private var window: OpaquePointer?
    private var sdlRenderer: OpaquePointer?
    private var texture: OpaquePointer?
    private var pixmap: Pixmap
    private var lastFrame: FrameDescription?
    /// A described frame no longer needed, whose storage the next one reuses.
    private var spare: FrameDescription?
    private var needsPresent = true
    private var title = ""
    private let clockStart = Clock.now()
    private var pixelScale = 1.0
    private var lastLoggedCamera: CameraState?
    /// The live ISS feed, polled off this thread; nil with `--iss tle`.
    private var feed: IssFeedPoller?
    private var lastFeedProblem: String?
    /// The live radar, kept current off this thread; nil for frames from files.
    private var radar: RadarProviders?
    /// The NWS warnings, kept current off this thread; nil with `--alerts-url none`.
    private var warningsFeed: WarningsFeed?
    private var warningsGeneration = 0
    /// Keeps the ISS element set current off this thread; nil with `--tle`, `--tle-url none`.
    private var elements: ElementsKeeper?
    private var lastElementsProblem: String?
    /// Full screen at the desktop's resolution (F11), and the window's size before it.
    private var fullscreen: Bool
    private var windowedSize: ViewportSize
    /// The pointer over the map, in drawable pixels (nil when it is outside the window).
    private var pointer: (x: Double, y: Double)?
    /// A message the status line shows first until `noticeUntil` (where Ctrl+S saved the view).
    private var notice: StatusPart?
    private var noticeUntil = 0.0

    init(options: Options, model: MapApp, fullscreen: Bool = false) {
        self.options = options
        self.model = model
        // (Labels fade in and out over MapLibre's default 300 ms in the window.)
        self.model.model.symbolFadeDuration = 0.3
        self.fullscreen = fullscreen
        windowedSize = options.size
        pixmap = Pixmap(width: options.size.width, height: options.size.height)
        if options.issMode != .tle && model.iss != nil {
            feed = IssFeedPoller(client: IssFeedClient(url: options.issURL ?? IssFeedClient.defaultURL))
        }
        // The radar's clock: the instant the map shows (`--time` moves it, the wall clock runs it).
        let offset = (options.time.map { $0 - Date().timeIntervalSince1970 } ?? 0) + options.elapsed
        radar = MapSetup.radarProviders(model, options, clock: { Date().timeIntervalSince1970 + offset }, report: warn)
        warningsFeed = MapSetup.warningsFeed(model, options, clock: { Date().timeIntervalSince1970 }, report: warn)
        if let refresh = MapSetup.elementsRefresh(model, options) {
            elements = ElementsKeeper(refresh: refresh, newestEpoch: model.issOrbitEpoch) {
                let now = Date().timeIntervalSince1970
                return (now, now + offset)
            }
        }
    }

    deinit {
        feed?.stop()
        radar?.stop()
        warningsFeed?.stop()
        elements?.stop()
        if let t = texture { SDL_DestroyTexture(t) }
        if let r = sdlRenderer { SDL_DestroyRenderer(r) }
        if let w = window { SDL_DestroyWindow(w) }
        SDL_Quit()
    }

    /// Seconds since the viewer started: the model's clock (shifted by `--elapsed`).
    private func now() -> Double { Clock.now() - clockStart + options.elapsed }

    /// Checks that a display is there before SDL silently falls back to an offscreen driver.
    static func checkDisplay() throws {
        let env = ProcessInfo.processInfo.environment
        let hasDisplay = !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        if !hasDisplay && (env["SDL_VIDEODRIVER"] ?? "").isEmpty {
            throw Failure(description: "no display: DISPLAY is not set; use `nightmap snapshot -o map.png` or run under Xvfb (xvfb-run nightmap)")
        }
    }

    /// Connects to the display (SDL's video subsystem, with nightmap's hints): `main` calls it
    /// while the map's data loads on another thread, and `open` again (SDL counts the calls).
    static func initialiseVideo() throws {
        try checkDisplay()
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // The frame is drawn on the CPU: present it through SDL's software renderer and the
        // window's shared-memory framebuffer. On a machine without a GPU the OpenGL renderer
        // goes through llvmpipe, which costs more than drawing the map (measured: 58 % of a core
        // against 18 % for a pulsing route, and 150 MB against 64 MB). SDL_RENDER_DRIVER overrides it.
        if ProcessInfo.processInfo.environment["SDL_RENDER_DRIVER"] == nil {
            SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software")
        }
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            throw Failure(description: "cannot open a window: \(String(cString: SDL_GetError())); use `nightmap snapshot -o map.png` or run under Xvfb")
        }
    }

    func open() throws {
        try Self.initialiseVideo()
        let pos = Int32(nm_windowpos_centered())
        guard let w = SDL_CreateWindow(windowTitle(), pos, pos, Int32(options.size.width), Int32(options.size.height),
                                       SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue) else {
            throw Failure(description: "cannot create the window: \(String(cString: SDL_GetError()))")
        }
        window = w
        if fullscreen { SDL_SetWindowFullscreen(w, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue) }
        guard let r = SDL_CreateRenderer(w, -1, 0) ?? SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            throw Failure(description: "cannot create an SDL renderer: \(String(cString: SDL_GetError()))")
        }
        sdlRenderer = r
        try resizeBuffers()
    }

    /// Matches the pixmap, texture and camera viewport to the window's drawable size.
    private func resizeBuffers() throws {
        guard let w = window, let r = sdlRenderer else { return }
        var ww: Int32 = 0, wh: Int32 = 0, dw: Int32 = 0, dh: Int32 = 0
        SDL_GetWindowSize(w, &ww, &wh)
        SDL_GetRendererOutputSize(r, &dw, &dh)
        if dw <= 0 || dh <= 0 { dw = ww; dh = wh }
        pixelScale = ww > 0 ? Double(dw) / Double(ww) : 1
        model.setPixelRatio(pixelScale)
        if !fullscreen { windowedSize = ViewportSize(width: Int(ww), height: Int(wh)) }
        if let t = texture { SDL_DestroyTexture(t) }
        guard let t = SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        max(1, dw), max(1, dh)) else {
            throw Failure(description: "cannot create a \(dw)x\(dh) texture: \(String(cString: SDL_GetError()))")
        }
        texture = t
        pixmap = Pixmap(width: Int(max(1, dw)), height: Int(max(1, dh)))
        model.apply(.resize(width: pixmap.width, height: pixmap.height), now: now())
        lastFrame = nil
        needsPresent = true
    }

    /// `nightmap - playing`, then the radar frame (its time when it has one) and the light preset.
    private func windowTitle() -> String {
        var t = "nightmap - \(model.loop.stateName)"
        if let f = model.radarFrame {
            t += f.time.map { " - \(StatusLine.radarName(f.origin)) \(RadarTime.hourMinute($0)) UTC \(f.slot + 1)/\(f.slots)" } ?? " - frame \(f.slot + 1)/\(f.slots)"
        }
        t += " - \(model.lightPreset.rawValue)"
        return t + (StatusLine.iss(model).map { " - " + $0 } ?? "")
    }

    /// Some tile the view wants is not in yet (the loop wakes to look for it).
    private var tilesPending = false
    /// Failures reported per tiled source (by their count).
    private var tileErrorsReported: [String: Int] = [:]

    /// Runs until quit. Returns normally on `q`, Esc, window close or SIGTERM/SIGINT.
    func run() throws {
        var event = SDL_Event()
        feed?.start()
        radar?.start()
        warningsFeed?.start()
        elements?.start()
        while !model.wantsQuit {
            // Sleep until the next event, the next animation frame or the next timer tick.
            var timeout: Int32 = 1000
            if model.isAnimating || needsPresent || lastFrame == nil {
                timeout = 0
            } else if renderer.symbolsFading {
                timeout = 16                    // (labels fading: about one frame a display refresh)
            } else if let due = renderer.symbolPassDueAt {
                // (A placement waits for its turn: one frame then, or sooner for a timer.)
                let wait = min(due, model.nextScheduledChange ?? .infinity) - now()
                timeout = Int32(max(0, min(1000, (wait * 1000).rounded(.up))))
            } else if tilesPending {
                timeout = 30                    // (tiles arrive from the loaders' threads)
            } else if let tick = model.nextScheduledChange {
                timeout = Int32(max(0, min(1000, ((tick - now()) * 1000).rounded(.up))))
            }
            if SDL_WaitEventTimeout(&event, timeout) != 0 {
                try handle(event)
                while SDL_PollEvent(&event) != 0 { try handle(event) }
            }
            drainFeed()
            drainElements()
            if let radar {
                model.advance(to: now())
                if radar.update(&model), let series = model.radar {
                    statusUpdated = -.infinity
                    if options.verbose { log("\(series.attribution): \(series.frameSlots.count) of \(series.slots.count) frames") }
                }
            }
            if let (shown, generation) = warningsFeed?.take(after: warningsGeneration) {
                warningsGeneration = generation
                model.advance(to: now())
                model.showWarnings(shown)
            }
            let t = now()
            model.advance(to: t)
            updateStatus(t)
            updateTitle()
            let frame = model.frame(recycling: &spare)
            if frame != lastFrame || renderer.symbolsFading || renderer.symbolPassDueAt.map({ t >= $0 }) == true {
                renderer.render(frame, into: pixmap); frameTimes.append(t)
                present()
                // The renderer now keeps this frame: the one before lends its storage to the next.
                spare = lastFrame
                lastFrame = frame
                needsPresent = false
                if model.isAnimating { pace() }
            } else {
                if needsPresent { present(); needsPresent = false; if model.isAnimating { pace() } }
                spare = frame           // the same picture: its storage serves the next one
            }
            requestTiles(t)
            logCameraIfSettled()
        }
    }

    /// Asks each tiled source's loader for what the view wants, and reports a source's failures
    /// once each time their count grows past a power of two (not per tile).
    private func requestTiles(_ t: Double) {
        var pending = false
        for r in model.model.requestWantedTiles(now: t) {
            pending = pending || !r.tiles.isSettled(r.ideal)
            if let e = r.tiles.lastError, e.count > (tileErrorsReported[r.sourceID] ?? 0), e.count & (e.count - 1) == 0 {
                tileErrorsReported[r.sourceID] = e.count
                let text = "\(e.message)\(e.count > 1 ? " (\(e.count) tiles failed)" : "")"
                log(text)
                notice = StatusPart("tiles: \(text)", short: "tiles of \(r.sourceID) failed", essential: true)
                noticeUntil = t + 10
                statusUpdated = -.infinity
            }
        }
        // (Glyph ranges arrive from the glyph source's threads as tiles do.)
        tilesPending = pending || model.model.style.glyphs?.isLoading == true
    }

    private func handle(_ e: SDL_Event) throws {
        if e.type == SDL_WINDOWEVENT.rawValue {
            let kind = UInt32(e.window.event)
            if kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue { try resizeBuffers(); return }
            if kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SHOWN.rawValue { needsPresent = true }
            if kind == SDL_WINDOWEVENT_LEAVE.rawValue { pointer = nil; statusUpdated = -.infinity; model.setWarningPointer(nil) }
        }
        if e.type == SDL_MOUSEMOTION.rawValue {
            pointer = (Double(e.motion.x) * pixelScale, Double(e.motion.y) * pixelScale)
            statusUpdated = -.infinity          // the coordinates follow the pointer
            // (The warnings panel follows a resting pointer, not a drag.)
            model.setWarningPointer(e.motion.state == 0 ? .init(x: Double(e.motion.x) * pixelScale, y: Double(e.motion.y) * pixelScale) : nil)
        }
        // Pointer timing (double-clicks, inertia) uses when SDL saw the event, not when it is handled.
        guard let ev = SDLInput.translate(e, time: Double(e.common.timestamp) / 1000, scale: pixelScale) else { return }
        input.compass = model.model.compassArea
        for c in input.handle(ev) {
            switch c {
            case .resize: continue              // handled through resizeBuffers
            case .toggleFullscreen: toggleFullscreen(); continue
            case .saveView: saveView(); continue
            default: break
            }
            model.apply(c, now: now())
            if options.verbose {
                if case .toggleTimer = c { log("timer \(model.loop.stateName)") }
                if case .togglePulse = c { log("pulse \(model.pulse?.isRunning == true ? "running" : "stopped")") }
                if case let .switchScene(name) = c { log("scene \(name)") }
                if case .stepFrame = c, let f = model.radarFrame { log("radar frame \(f.slot)") }
                if case .jumpFrame = c, let f = model.radarFrame { log("radar frame \(f.slot)") }
                if case .frameSpeed = c { log("radar frame time \(model.loop.frameSeconds) s") }
                if case .toggleLegend = c { log("legend \(model.showsLegend ? "shown" : "hidden")") }
                if case .cycleLight = c { log("light \(model.lightPreset.rawValue)") }
                if case .toggleEmissive = c { log("radar emissive toggled") }
                if case .toggleFollow = c { log("follow \(model.followsIss ? "on" : "off")") }
                if case .toggleHelp = c { log("help \(model.showsHelp ? "shown" : "hidden")") }
                if case .toggleWarnings = c { log("warnings \(model.showsWarnings ? "shown" : "hidden")") }
                if case .toggleBuildings = c { log("buildings \(model.buildings.rawValue)") }
            }
        }
    }

    /// Frames drawn in the last second, for the status line (changed at most once a second, and
    /// "idle" when nothing was drawn, so the status itself never keeps the window busy).
    private var frameTimes: [Double] = []
    private var statusUpdated = -Double.infinity
    private func updateStatus(_ t: Double) {
        frameTimes.removeAll { $0 < t - 1 }
        guard t - statusUpdated >= 1 || model.status.isEmpty else { return }
        statusUpdated = t
        let fps = frameTimes.count > 1 ? Double(frameTimes.count) : 0
        if notice != nil && t >= noticeUntil { notice = nil }
        let under = pointer.flatMap { p in model.camera.view.ground(x: p.x, y: p.y).map(WebMercator.unproject) }
        model.status = StatusLine.compose(model, framesPerSecond: fps, pointer: under, notice: notice)
    }

    /// F11: full screen at the desktop's resolution, or back to the window's size; the map keeps
    /// its centre (a resize keeps the camera's centre).
    private func toggleFullscreen() {
        guard let w = window else { return }
        fullscreen.toggle()
        SDL_SetWindowFullscreen(w, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
        if options.verbose { log("fullscreen \(fullscreen ? "on" : "off")") }
    }

    /// Ctrl+S: the view as shown, as a PNG in the pictures folder (else the working directory),
    /// named by the local time; the status line says where (or why not).
    private func saveView() {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss"
        f.locale = Locale(identifier: "en_US_POSIX")
        let folder = XDGDirectory.pictures() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let path = folder.appendingPathComponent("nightmap-\(f.string(from: Date())).png").path
        do {
            try PNGCodec.write(pixmap, to: path)
            notice = StatusPart("saved \(path)", short: "saved \(URL(fileURLWithPath: path).lastPathComponent)", essential: true)
            if options.verbose { log("saved the view to \(path)") }
        } catch {
            notice = StatusPart("cannot save: \(error)", essential: true)
            FileHandle.standardError.write(Data("nightmap: \(error)\n".utf8))
        }
        noticeUntil = now() + 6
        statusUpdated = -.infinity
    }

    /// What the next window restores: the model's view and this window's size (the size before
    /// full screen when it is full screen).
    func savedState() -> SavedState {
        var size = windowedSize
        if !fullscreen, let w = window {
            var ww: Int32 = 0, wh: Int32 = 0
            SDL_GetWindowSize(w, &ww, &wh)
            if ww > 0 && wh > 0 { size = ViewportSize(width: Int(ww), height: Int(wh)) }
        }
        return SavedState(model: model, window: .init(width: size.width, height: size.height, fullscreen: fullscreen))
    }

    /// Hands a new element set to the model (the track is redrawn with it); a failure is
    /// reported once until it changes.
    private func drainElements() {
        guard let elements else { return }
        for outcome in elements.drain() {
            model.advance(to: now())
            MapSetup.apply(outcome, to: &model) { reason in
                if reason != lastElementsProblem { warn(reason) }
            }
            if case let .failed(reason) = outcome { lastElementsProblem = reason } else { lastElementsProblem = nil }
            if case .downloaded = outcome, options.verbose, let epoch = model.issOrbitEpoch {
                log("ISS element set of \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: epoch))) downloaded")
            }
            statusUpdated = -.infinity
        }
    }

    /// Hands what the feed delivered to the model; a failure is reported once until it changes.
    private func drainFeed() {
        guard let feed else { return }
        for event in feed.drain() {
            switch event {
            case let .fix(fix):
                model.receiveIss(fix)
                if lastFeedProblem != nil { log("ISS feed answers again"); lastFeedProblem = nil }
            case let .failure(time, reason):
                model.issFeedFailed(at: time, reason: reason)
                if reason != lastFeedProblem {
                    FileHandle.standardError.write(Data("nightmap: \(reason); keeping the last ISS position\(options.issMode == .auto ? ", using the orbit" : "")\n".utf8))
                    lastFeedProblem = reason
                }
            }
        }
    }

    private func updateTitle() {
        let t = windowTitle()
        if t != title, let w = window { SDL_SetWindowTitle(w, t); title = t }
    }

    /// When the process started (main sets it), for the first-frame time `--verbose` logs.
    var processStart = Clock.now()
    private var presentedOnce = false

    private func present() {
        guard let r = sdlRenderer, let t = texture else { return }
        SDL_UpdateTexture(t, nil, pixmap.pixels, Int32(pixmap.width * 4))
        SDL_RenderClear(r)
        SDL_RenderCopy(r, t, nil, nil)
        SDL_RenderPresent(r)
        if !presentedOnce {
            presentedOnce = true
            if options.verbose { log(String(format: "first frame on screen %.0f ms after process start", (Clock.now() - processStart) * 1000)) }
        }
    }

    /// Keeps animation near 60 frames per second without spinning faster than the display.
    private var lastPresent = 0.0
    private func pace() {
        let budget = 1.0 / 60
        let elapsed = Clock.now() - lastPresent
        if elapsed < budget { SDL_Delay(UInt32((budget - elapsed) * 1000)) }
        lastPresent = Clock.now()
    }

    private func logCameraIfSettled() {
        guard options.verbose, !model.camera.isAnimating, !input.isDragging else { return }
        let c = model.camera.state
        if c != lastLoggedCamera {
            lastLoggedCamera = c
            log(String(format: "camera lat=%.5f lon=%.5f zoom=%.3f", c.center.lat, c.center.lng, c.zoom)
                + (c.bearing == 0 ? "" : String(format: " bearing=%.1f", c.bearing)) + (c.pitch == 0 ? "" : String(format: " pitch=%.1f", c.pitch)))
        }
    }

    private func log(_ s: String) {
        print("nightmap: \(s)")
        fflush(nil)
    }
}
