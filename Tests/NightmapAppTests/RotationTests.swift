import Foundation
import MapCore
import MapData
import NightmapApp
import Testing

/// The camera's bearing: the view transform, eases, clamping of the rotated viewport, input.
@Suite struct RotationTests {
    let size = ViewportSize(width: 1280, height: 800)

    /// A small deterministic generator (SplitMix64), so failures repeat.
    struct SeededRNG: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func bearingIsNormalised() {
        #expect(CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1, bearing: 190).bearing == -170)
        #expect(CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1, bearing: -180).bearing == 180)
        #expect(CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1, bearing: 720 + 30).bearing == 30)
        var c = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1)
        c.bearing = 350
        #expect(c.bearing == -10)
    }

    /// North up the transform is the plain one; at a bearing a point north of the centre turns
    /// counter-clockwise on screen (bearing 90: north is to the left, east up).
    @Test func theMapTurnsCounterClockwise() {
        let centre = LngLat(lng: 10, lat: 0)
        let v = ViewTransform(camera: CameraState(center: centre, zoom: 3, bearing: 90), size: size)
        let east = v.screen(LngLat(lng: 20, lat: 0))
        #expect(abs(east.x - 640) < 1e-6 && east.y < 400 - 100)
        let north = v.screen(LngLat(lng: 10, lat: 10))
        #expect(north.x < 640 - 100 && abs(north.y - 400) < 1e-6)
    }

    /// screen -> Mercator -> screen comes back, at many bearings, and the visible box holds the
    /// four rotated corners.
    @Test(arguments: [0.0, 15, 30, 45, 90, 135, 179.9, 180, -30, -120])
    func viewTransformRoundTrips(bearing: Double) {
        let v = ViewTransform(camera: CameraState(center: LngLat(lng: -75.8, lat: 41.9), zoom: 5, bearing: bearing), size: size)
        for (x, y) in [(0.0, 0.0), (1280, 0), (1280, 800), (0, 800), (640, 400), (123.4, 567.8), (-300, 1500)] {
            let m = v.mercator(x: x, y: y)
            let s = v.screen(m)
            #expect(abs(s.x - x) < 1e-6 && abs(s.y - y) < 1e-6, "bearing \(bearing): (\(x), \(y)) came back as \(s)")
            let box = v.visibleMercator
            if (0...1280).contains(x) && (0...800).contains(y) {
                #expect(m.x >= box.minX - 1e-12 && m.x <= box.maxX + 1e-12 && m.y >= box.minY - 1e-12 && m.y <= box.maxY + 1e-12)
            }
        }
        // The centre stays the centre.
        let c = v.screen(LngLat(lng: -75.8, lat: 41.9))
        #expect(abs(c.x - 640) < 1e-6 && abs(c.y - 400) < 1e-6)
    }

    /// An ease from 170 to -170 goes the short way, through 180, not through 0.
    @Test func easesTakeTheShortWayRound() {
        let start = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3, bearing: 170)
        var cam = Camera(state: start, bounds: CameraBounds(minZoom: 0, maxZoom: 8), size: size)
        var to = start
        to.bearing = -170
        cam.ease(to: to, duration: 1, curve: .linear, now: 0)
        cam.advance(to: 0.5)
        #expect(abs(cam.state.bearing - 180) < 1e-9, "half way: \(cam.state.bearing)")
        cam.advance(to: 0.25)
        #expect(abs(cam.state.bearing - 175) < 1e-9)
        cam.advance(to: 0.75)
        #expect(abs(cam.state.bearing - -175) < 1e-9)
        cam.advance(to: 2)
        #expect(cam.state.bearing == -170 && !cam.isAnimating)
    }

    /// The four corners of the viewport in normalised Mercator.
    func corners(_ c: CameraState, _ s: ViewportSize) -> [MercatorPoint] {
        let v = ViewTransform(camera: c, size: s)
        let w = Double(s.width), h = Double(s.height)
        return [v.mercator(x: 0, y: 0), v.mercator(x: w, y: 0), v.mercator(x: w, y: h), v.mercator(x: 0, y: h)]
    }

    /// Hundreds of random rotate, pan and zoom gestures (a seeded generator) in a box smaller
    /// than the world: after each, all four corners of the rotated viewport are inside the box
    /// (a right-drag tilts the map as well: then its centre is).
    @Test func clampingHoldsTheRotatedViewportInsideTheBounds() {
        var rng = SeededRNG(state: 19)
        let box = LngLatBounds(west: -90, south: 30, east: -60, north: 50)
        let bounds = CameraBounds(bounds: box, minZoom: 3, maxZoom: 9)
        var model = MapApp(style: Style(), size: size, scene: Scene(name: "box", camera: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5),
                                          bounds: bounds, timerStartsPlaying: false))
        var input = InputController()
        let x0 = WebMercator.x(lng: box.west), x1 = WebMercator.x(lng: box.east)
        let y0 = WebMercator.y(lat: box.north), y1 = WebMercator.y(lat: box.south)
        var now = 0.0
        for step in 0..<400 {
            now += 0.05
            let x = Double.random(in: 0...1280, using: &rng), y = Double.random(in: 0...800, using: &rng)
            let events: [InputEvent]
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:     // a right-drag around the centre
                let x2 = Double.random(in: 0...1280, using: &rng), y2 = Double.random(in: 0...800, using: &rng)
                events = [.pointerDown(x: x, y: y, modifiers: [], button: .secondary, time: now),
                          .pointerMove(x: x2, y: y2, time: now), .pointerUp(x: x2, y: y2, time: now)]
            case 1:     // a drag (pan), sometimes violent
                let k = Bool.random(using: &rng) ? 1.0 : 50
                events = [.pointerDown(x: x, y: y, modifiers: [], time: now),
                          .pointerMove(x: x + 200 * k, y: y - 150 * k, time: now), .pointerUp(x: x + 200 * k, y: y - 150 * k, time: now + 1)]
            case 2: events = [.wheel(ticks: Double.random(in: -6...6, using: &rng), x: x, y: y, time: now)]
            case 3: events = [.keyDown(Bool.random(using: &rng) ? .left : .right, modifiers: [.shift], time: now)]
            case 4: events = [.keyDown([Key.left, .right, .up, .down, .character("-")].randomElement(using: &rng)!, modifiers: [], time: now)]
            default: events = [.resized(width: Int.random(in: 200...2000, using: &rng), height: Int.random(in: 200...1500, using: &rng), time: now)]
            }
            for e in events { for c in input.handle(e) { model.apply(c, now: now) } }
            // Half way through any ease, and at its end.
            for t in [now + 0.15, now + 2] {
                model.advance(to: t)
                let tilted = model.camera.state.pitch != 0
                let points = tilted ? [WebMercator.project(model.camera.state.center)] : corners(model.camera.state, model.camera.size)
                for (i, m) in points.enumerated() {
                    let e = 1e-9
                    #expect(m.x >= x0 - e && m.x <= x1 + e && m.y >= y0 - e && m.y <= y1 + e,
                            "step \(step): corner \(i) \(m) outside the box at bearing \(model.camera.state.bearing)")
                }
            }
            now += 2
        }
    }

    /// A wrapping world box constrains only latitude, rotated corners included.
    @Test func theWorldStillWrapsAtABearing() {
        var cam = Camera(state: CameraState(center: LngLat(lng: 179, lat: 84), zoom: 3, bearing: 40),
                         bounds: CameraBounds(minZoom: 0, maxZoom: 8), size: size)
        for m in corners(cam.state, size) { #expect(m.y >= -1e-9 && m.y <= 1 + 1e-9) }
        cam.pan(dx: -900, dy: 0)
        #expect(abs(cam.state.center.lng) <= 180)
        for m in corners(cam.state, size) { #expect(m.y >= -1e-9 && m.y <= 1 + 1e-9) }
    }

    /// Dragging at a bearing moves the map with the pointer: the point under the press stays
    /// under the pointer.
    @Test func panningAtABearingFollowsThePointer() {
        var cam = Camera(state: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, bearing: 60),
                         bounds: CameraBounds(minZoom: 0, maxZoom: 8), size: size)
        let grabbed = cam.view.mercator(x: 300, y: 200)
        cam.pan(dx: 150, dy: -80)
        let s = cam.view.screen(grabbed)
        #expect(abs(s.x - 450) < 1e-6 && abs(s.y - 120) < 1e-6)
    }

    /// Zooming around the pointer at a bearing keeps the map point under it, through the ease.
    @Test func zoomAroundThePointerAtABearing() {
        var cam = Camera(state: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, bearing: -140),
                         bounds: CameraBounds(minZoom: 0, maxZoom: 8), size: size)
        let under = cam.view.mercator(x: 1000, y: 150)
        cam.ease(zoom: 6.5, around: (1000, 150), duration: 0.2, now: 0)
        for t in [0.05, 0.1, 0.3] {
            cam.advance(to: t)
            let s = cam.view.screen(under)
            #expect(abs(s.x - 1000) < 1e-6 && abs(s.y - 150) < 1e-6 && cam.state.bearing == -140, "at \(t): \(s)")
        }
        #expect(cam.state.zoom == 6.5)
    }

    /// Every other camera change keeps the bearing: keyboard zoom and pans, wheel zoom, a flung
    /// drag's glide, a resize, the pixel ratio.
    @Test func otherCameraChangesKeepTheBearing() {
        var model = MapApp(style: Style(), size: size, scene: .radar)
        model.apply(.rotate(degrees: 40), now: 0)
        var now = 0.0
        for c in [MapCommand.zoomCentered(delta: -1), .panEased(dx: 100, dy: 0), .zoom(delta: 0.5, aroundX: 100, aroundY: 700, duration: 0.2),
                  .glide(dx: 300, dy: -200, duration: 0.5), .pan(dx: -30, dy: 12), .resize(width: 900, height: 700)] {
            model.apply(c, now: now)
            now += 1
            model.advance(to: now)
            #expect(abs(model.camera.state.bearing - 40) < 1e-9, "after \(c): \(model.camera.state.bearing)")
        }
        model.setPixelRatio(2)
        #expect(abs(model.camera.state.bearing - 40) < 1e-9)
    }

    @Test func keysRotateAndResetNorth() {
        var input = InputController()
        #expect(input.handle(.keyDown(.left, modifiers: [.shift], time: 0)) == [.rotateEased(degrees: -15)])
        #expect(input.handle(.keyDown(.right, modifiers: [.shift], time: 0)) == [.rotateEased(degrees: 15)])
        #expect(input.handle(.keyDown(.character("n"), modifiers: [], time: 0)) == [.resetNorth])
        #expect(input.handle(.keyDown(.up, modifiers: [.alt], time: 0)) == [.resetNorth])
        #expect(input.handle(.keyDown(.left, modifiers: [], time: 0)) == [.panEased(dx: 100, dy: 0)])
        #expect(input.handle(.keyDown(.left, modifiers: [.alt], time: 0)) == [])

        var model = MapApp(style: Style(), size: size, scene: .radar)
        model.apply(.rotateEased(degrees: 15), now: 0)
        model.advance(to: 0.15)
        #expect(model.camera.state.bearing > 0 && model.camera.state.bearing < 15)
        model.advance(to: 0.4)
        #expect(model.camera.state.bearing == 15)
        model.apply(.rotateEased(degrees: -15), now: 1)
        model.apply(.rotateEased(degrees: -15), now: 1.1)      // from the first's target on
        model.advance(to: 2)
        #expect(abs(model.camera.state.bearing - -15) < 1e-9)
        model.apply(.resetNorth, now: 3)
        model.advance(to: 3.15)
        #expect(model.camera.state.bearing < 0 && model.camera.state.bearing > -15)
        model.advance(to: 3.4)
        #expect(model.camera.state.bearing == 0)
    }

    /// Right-drag or Ctrl+drag sideways turns the map by the angle the move sweeps around the
    /// centre (moving up or down tilts it instead: TiltTests).
    @Test func rightDragRotatesAroundTheCentre() {
        for (button, mods) in [(PointerButton.secondary, Modifiers()), (.primary, [.control])] {
            var input = InputController()
            var model = MapApp(style: Style(), size: size, scene: .radar)
            let centre = model.camera.state.center
            var commands: [MapCommand] = []
            // A quarter turn clockwise on screen, 200 px below the centre from 200 px right of it to 200 px left.
            commands += input.handle(.pointerDown(x: 840, y: 600, modifiers: mods, button: button, time: 0))
            commands += input.handle(.pointerMove(x: 780, y: 600, time: 0.1))
            commands += input.handle(.pointerUp(x: 440, y: 600, time: 0.2))
            #expect(!commands.contains { if case .dragPan = $0 { return true } else { return false } })
            #expect(!commands.contains(.toggleTimer))
            for c in commands { model.apply(c, now: 0.2) }
            // The map followed the pointer clockwise: the bearing fell by 90.
            #expect(abs(model.camera.state.bearing - -90) < 1e-9, "\(model.camera.state.bearing)")
            #expect(abs(model.camera.state.center.lng - centre.lng) < 1e-9 && abs(model.camera.state.center.lat - centre.lat) < 1e-9)
        }
    }

    /// The compass shows only while the map is not north-up, and a click on it turns north up
    /// (a click elsewhere still toggles the timer).
    @Test func theCompassShowsAndResetsNorth() throws {
        var style = Style()
        style.font = BundledAssets.overlayFont(BundledAssets.localGlyphs(resources: try ResourceLocator.resourcesDirectory()))
        var model = MapApp(style: style, size: size, scene: .radar)
        /// The compass the frame's overlay draws.
        func compass() -> (area: CompassArea, bearing: Double)? {
            for case let .compass(area, bearing, _) in model.frame().overlay?.items ?? [] { return (area, bearing) }
            return nil
        }
        #expect(model.model.compassArea == nil && compass() == nil)
        model.apply(.rotate(degrees: 30), now: 0)
        let area = try #require(model.model.compassArea)
        #expect(area.x > 1200 && area.y < 60)
        #expect(compass()?.area == area && compass()?.bearing == 30)
        var input = InputController()
        input.compass = model.model.compassArea
        _ = input.handle(.pointerDown(x: area.x, y: area.y, modifiers: [], time: 0))
        #expect(input.handle(.pointerUp(x: area.x, y: area.y, time: 0.05)) == [.resetNorth])
        _ = input.handle(.pointerDown(x: 300, y: 300, modifiers: [], time: 2))
        #expect(input.handle(.pointerUp(x: 300, y: 300, time: 2.05)) == [.toggleTimer])
    }
}
