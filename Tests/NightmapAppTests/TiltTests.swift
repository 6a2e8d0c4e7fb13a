import Foundation
import MapCore
import MapData
import NightmapApp
import Testing

/// The camera's pitch under the window's input: Shift+Up / Shift+Down, right-drag up and down,
/// `n` and the compass, dragging and zooming around the pointer with the ground held under it,
/// and the bounds of a tilted camera.
@Suite struct TiltTests {
    let size = ViewportSize(width: 1280, height: 800)

    /// The radar scene tilted to `pitch` (its bounds allowing up to `maxPitch`).
    func model(pitch: Double = 0, maxPitch: Double = 60) -> MapApp {
        MapApp(style: Style(), size: size, scene: Scene.radar.limitingPitch(to: maxPitch).tilted(to: pitch))
    }

    @Test func shiftUpAndDownTiltByTenDegreesEased() {
        var input = InputController()
        #expect(input.handle(.keyDown(.up, modifiers: [.shift], time: 0)) == [.tiltEased(degrees: 10)])
        #expect(input.handle(.keyDown(.down, modifiers: [.shift], time: 0)) == [.tiltEased(degrees: -10)])
        #expect(input.handle(.keyDown(.up, modifiers: [], time: 0)) == [.panEased(dx: 0, dy: 100)])

        var m = model()
        for c in input.handle(.keyDown(.up, modifiers: [.shift], time: 0)) { m.apply(c, now: 0) }
        m.advance(to: 0.15)
        #expect(m.camera.state.pitch > 0 && m.camera.state.pitch < 10, "half way: \(m.camera.state.pitch)")
        m.advance(to: 0.4)
        #expect(m.camera.state.pitch == 10)
        // A second press during the ease goes on from its target; the bearing and centre stay.
        let centre = m.camera.state.center
        m.apply(.tiltEased(degrees: 10), now: 1)
        m.apply(.tiltEased(degrees: 10), now: 1.1)
        m.advance(to: 2)
        #expect(abs(m.camera.state.pitch - 30) < 1e-9 && m.camera.state.bearing == 0)
        #expect(abs(m.camera.state.center.lng - centre.lng) < 1e-9 && abs(m.camera.state.center.lat - centre.lat) < 1e-9)
        // Never past the bounds' maximum (60), nor below 0.
        for k in 0..<5 { m.apply(.tiltEased(degrees: 10), now: 3 + Double(k)) }
        m.advance(to: 9)
        #expect(m.camera.state.pitch == 60)
        for k in 0..<8 { m.apply(.tiltEased(degrees: -10), now: 10 + Double(k)) }
        m.advance(to: 19)
        #expect(m.camera.state.pitch == 0)
    }

    /// `n` (and Alt+Up, and the compass) eases both the bearing and the pitch back to 0.
    @Test func nResetsTheBearingAndThePitch() throws {
        var input = InputController()
        var m = model(pitch: 40)
        m.apply(.rotate(degrees: 30), now: 0)
        #expect(m.camera.state.bearing == 30 && m.camera.state.pitch == 40)
        for c in input.handle(.keyDown(.character("n"), modifiers: [], time: 1)) { m.apply(c, now: 1) }
        m.advance(to: 1.15)
        #expect(m.camera.state.pitch > 0 && m.camera.state.pitch < 40 && m.camera.state.bearing > 0 && m.camera.state.bearing < 30)
        m.advance(to: 1.4)
        #expect(m.camera.state.pitch == 0 && m.camera.state.bearing == 0)
        // Tilted but north up: the compass shows, and a click on it levels the map.
        var tilted = model(pitch: 20)
        let area = try #require(tilted.model.compassArea)
        input.compass = area
        _ = input.handle(.pointerDown(x: area.x, y: area.y, modifiers: [], time: 5))
        for c in input.handle(.pointerUp(x: area.x, y: area.y, time: 5.05)) { tilted.apply(c, now: 5.05) }
        tilted.advance(to: 6)
        #expect(tilted.camera.state.pitch == 0 && tilted.model.compassArea == nil)
    }

    /// A right-drag (or Ctrl+drag) up raises the pitch by half a degree a pixel (MapLibre's
    /// rate), down lowers it; moving straight up it does not turn the map.
    @Test func rightDragUpTiltsHalfADegreeAPixel() {
        for (button, mods) in [(PointerButton.secondary, Modifiers()), (.primary, [.control])] {
            var input = InputController()
            var m = model()
            let centre = m.camera.state.center
            var commands: [MapCommand] = []
            commands += input.handle(.pointerDown(x: 640, y: 600, modifiers: mods, button: button, time: 0))
            commands += input.handle(.pointerMove(x: 640, y: 560, time: 0.1))
            commands += input.handle(.pointerMove(x: 640, y: 520, time: 0.15))
            commands += input.handle(.pointerUp(x: 640, y: 500, time: 0.2))
            #expect(!commands.contains(.toggleTimer))
            for c in commands { m.apply(c, now: 0.2) }
            #expect(abs(m.camera.state.pitch - 50) < 1e-9, "100 px up: pitch \(m.camera.state.pitch)")
            #expect(m.camera.state.bearing == 0)
            #expect(abs(m.camera.state.center.lng - centre.lng) < 1e-9 && abs(m.camera.state.center.lat - centre.lat) < 1e-9)
            // 30 px down: 15 degrees less.
            _ = input.handle(.pointerDown(x: 300, y: 200, modifiers: mods, button: button, time: 1))
            for c in input.handle(.pointerMove(x: 300, y: 230, time: 1.1)) { m.apply(c, now: 1.1) }
            _ = input.handle(.pointerUp(x: 300, y: 230, time: 1.2))
            #expect(abs(m.camera.state.pitch - 35) < 1e-9 && m.camera.state.bearing == 0, "\(m.camera.state)")
        }
    }

    /// Sideways, a right-drag still turns the map: far from the centre's row by the angle the
    /// sideways move sweeps about the centre (here a quarter turn clockwise: the bearing falls
    /// by 90), near it by 0.8 degrees a pixel.
    @Test func rightDragSidewaysTurns() {
        var input = InputController()
        var m = model(pitch: 30)
        var commands = input.handle(.pointerDown(x: 940, y: 700, modifiers: [], button: .secondary, time: 0))
        commands += input.handle(.pointerMove(x: 340, y: 700, time: 0.1))
        commands += input.handle(.pointerUp(x: 340, y: 700, time: 0.2))
        for c in commands { m.apply(c, now: 0.2) }
        #expect(abs(m.camera.state.bearing - -90) < 1e-9 && m.camera.state.pitch == 30, "\(m.camera.state)")
        // On the centre's row, 10 px right below it turns the map 8 degrees anticlockwise (bearing up).
        var near = model()
        near.apply(.rotateDrag(x0: 600, y0: 400, x1: 610, y1: 400), now: 0)
        #expect(abs(near.camera.state.bearing - 8) < 1e-9 && near.camera.state.pitch == 0)
        near.apply(.rotateDrag(x0: 600, y0: 390, x1: 610, y1: 390), now: 0)
        #expect(abs(near.camera.state.bearing - 0) < 1e-9)
    }

    /// Dragging at pitch 60 (and turned) keeps the ground point under the press under the
    /// pointer, move after move, to within half a pixel.
    @Test(arguments: [0.0, 35])
    func draggingAtPitch60KeepsTheGrabbedGroundUnderThePointer(bearing: Double) {
        var m = model(pitch: 60)
        if bearing != 0 { m.apply(.rotate(degrees: bearing), now: 0) }
        #expect(m.camera.state.pitch == 60)
        var input = InputController()
        let path: [(Double, Double)] = [(500, 600), (520, 590), (600, 540), (700, 480), (650, 700), (400, 650)]
        let grabbed = m.camera.view.mercator(x: path[0].0, y: path[0].1)
        _ = input.handle(.pointerDown(x: path[0].0, y: path[0].1, modifiers: [], time: 0))
        for (i, p) in path.enumerated().dropFirst() {
            for c in input.handle(.pointerMove(x: p.0, y: p.1, time: Double(i) * 0.5)) { m.apply(c, now: Double(i) * 0.5) }
            let s = m.camera.view.screen(grabbed)
            #expect(abs(s.x - p.0) < 0.5 && abs(s.y - p.1) < 0.5, "move \(i): the grabbed ground is at \(s), the pointer at \(p)")
        }
        #expect(m.camera.state.pitch == 60 && abs(m.camera.state.bearing - bearing) < 1e-9)
    }

    /// Zooming around the pointer at a pitch keeps the ground under it there, through the ease.
    @Test func zoomAroundThePointerWhenTilted() {
        var cam = Camera(state: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, bearing: 30, pitch: 50),
                         bounds: CameraBounds(minZoom: 0, maxZoom: 8), size: size)
        let p = (x: 1000.0, y: 620.0)
        let under = cam.view.mercator(x: p.x, y: p.y)
        cam.ease(zoom: 6.5, around: p, duration: 0.2, now: 0)
        for t in [0.05, 0.1, 0.3] {
            cam.advance(to: t)
            let s = cam.view.screen(under)
            #expect(abs(s.x - p.x) < 0.5 && abs(s.y - p.y) < 0.5, "at \(t): \(s)")
            #expect(cam.state.pitch == 50 && cam.state.bearing == 30)
        }
        #expect(cam.state.zoom == 6.5)
        // The wheel, through the app: the same.
        var m = model(pitch: 45)
        let q = m.camera.view.mercator(x: 200, y: 500)
        m.apply(.zoom(delta: 0.5, aroundX: 200, aroundY: 500, duration: 0.2), now: 0)
        m.advance(to: 1)
        let s = m.camera.view.screen(q)
        #expect(abs(s.x - 200) < 0.5 && abs(s.y - 500) < 0.5 && m.camera.state.zoom > 5.4, "\(s)")
    }

    /// Over a tilted view's sky there is no ground under the pointer (no coordinates, no
    /// warnings); below the horizon there is, and flat there is everywhere.
    @Test func noGroundUnderTheSky() throws {
        let steep = ViewTransform(camera: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, pitch: 80), size: size)
        let top = try #require(steep.perspective).groundTopY
        #expect(top > 100 && top < 400)
        #expect(steep.ground(x: 640, y: 10) == nil && steep.ground(x: 640, y: top - 1) == nil)
        let below = try #require(steep.ground(x: 640, y: 600))
        #expect(below == steep.mercator(x: 640, y: 600))
        let flat = ViewTransform(camera: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5), size: size)
        #expect(flat.ground(x: 640, y: -50) == flat.mercator(x: 640, y: -50))
    }

    /// Tilted, the bounds keep only the centre inside a box (flat, the whole viewport), and the
    /// pitch within `maxPitch`.
    @Test func boundsKeepATiltedCamerasCentreInside() {
        let box = LngLatBounds(west: -90, south: 30, east: -60, north: 50)
        let bounds = CameraBounds(bounds: box, minZoom: 3, maxZoom: 9)
        // Near the west edge: flat, the viewport's half width pushes the centre east; tilted it stays.
        let nearEdge = CameraState(center: LngLat(lng: -89, lat: 40), zoom: 5, pitch: 40)
        #expect(bounds.clamp(nearEdge, size: size) == nearEdge)
        var flat = nearEdge
        flat.pitch = 0
        #expect(bounds.clamp(flat, size: size).center.lng > -85)
        // Outside: the centre comes to the box's edge.
        let outside = bounds.clamp(CameraState(center: LngLat(lng: -100, lat: 55), zoom: 5, bearing: 20, pitch: 30), size: size)
        #expect(abs(outside.center.lng - -90) < 1e-9 && abs(outside.center.lat - 50) < 1e-9 && outside.pitch == 30 && outside.bearing == 20)
        // A small box at a low zoom: no zoom is forced in when tilted.
        #expect(bounds.clamp(CameraState(center: LngLat(lng: -75, lat: 40), zoom: 3, pitch: 10), size: size).zoom == 3)
        // The pitch stops at maxPitch: 60 by default, up to 85 when raised.
        #expect(bounds.clamp(CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, pitch: 80), size: size).pitch == 60)
        let steep = CameraBounds(bounds: box, minZoom: 3, maxZoom: 9, maxPitch: 85)
        #expect(steep.clamp(CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, pitch: 80), size: size).pitch == 80)
        // Through a drag at pitch 60: the centre never leaves the box.
        var m = MapApp(style: Style(), size: size, scene: Scene(name: "box", camera: CameraState(center: LngLat(lng: -75, lat: 40), zoom: 5, pitch: 60),
                                                              bounds: bounds, timerStartsPlaying: false))
        m.apply(.dragPan(x0: 640, y0: 700, x1: 640, y1: 100), now: 0)
        m.apply(.dragPan(x0: 100, y0: 700, x1: 1200, y1: 700), now: 0)
        let c = m.camera.state.center
        #expect(c.lng >= -90 - 1e-9 && c.lng <= -60 + 1e-9 && c.lat >= 30 - 1e-9 && c.lat <= 50 + 1e-9, "\(c)")
        #expect(m.camera.state.pitch == 60)
    }
}
