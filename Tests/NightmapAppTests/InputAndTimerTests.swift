import MapCore
import NightmapApp
import Testing

@Suite struct InputControllerTests {
    @Test func smallMovementIsAClickNotADrag() {
        var c = InputController()
        #expect(c.handle(.pointerDown(x: 100, y: 100, modifiers: [], time: 0)) == [])
        #expect(c.handle(.pointerMove(x: 102, y: 101, time: 0.05)) == [])
        #expect(c.handle(.pointerUp(x: 102, y: 101, time: 0.1)) == [.toggleTimer])
    }

    @Test func threePixelsMakeADragThatPansOneToOne() {
        var c = InputController()
        _ = c.handle(.pointerDown(x: 100, y: 100, modifiers: [], time: 0))
        #expect(c.handle(.pointerMove(x: 103, y: 100, time: 0.05)) == [.dragPan(x0: 100, y0: 100, x1: 103, y1: 100)])
        #expect(c.handle(.pointerMove(x: 110, y: 95, time: 0.1)) == [.dragPan(x0: 103, y0: 100, x1: 110, y1: 95)])
        // Coming back near the start does not turn it into a click.
        #expect(c.handle(.pointerMove(x: 100, y: 100, time: 0.15)) == [.dragPan(x0: 110, y0: 95, x1: 100, y1: 100)])
        // Released after holding still for longer than the inertia window: no glide.
        #expect(c.handle(.pointerMove(x: 100, y: 100, time: 0.2)) == [])
        #expect(c.handle(.pointerUp(x: 100, y: 100, time: 0.5)) == [])
    }

    @Test func aFlungDragGlidesOn() {
        var c = InputController()
        _ = c.handle(.pointerDown(x: 100, y: 100, modifiers: [], time: 0))
        for k in 1...10 { _ = c.handle(.pointerMove(x: 100 + Double(k) * 30, y: 100, time: Double(k) * 0.01)) }
        // 300 px in 0.1 s is 3000 px/s, capped at 1400: 1400 / (2500 x 0.3) s = 1.867 s, and
        // velocity x duration / 2 = 1306.7 px further.
        let out = c.handle(.pointerUp(x: 400, y: 100, time: 0.1))
        guard case let .glide(dx, dy, duration)? = out.last else { Issue.record("no glide: \(out)"); return }
        #expect(abs(duration - 1400.0 / 750) < 1e-9 && abs(dx - 1400 * duration / 2) < 1e-6 && dy == 0)
        // A slow drag glides a little, in its own direction.
        var slow = InputController()
        _ = slow.handle(.pointerDown(x: 0, y: 0, modifiers: [], time: 0))
        _ = slow.handle(.pointerMove(x: 0, y: 10, time: 0.1))
        guard case let .glide(sx, sy, sd)? = slow.handle(.pointerUp(x: 0, y: 20, time: 0.2)).last else { Issue.record("no glide"); return }
        #expect(sx == 0 && sy > 0 && abs(sd - 100.0 / 750) < 1e-9)
    }

    @Test func doubleClickZoomsAndLeavesTheTimerAsItWas() {
        var c = InputController()
        _ = c.handle(.pointerDown(x: 50, y: 60, modifiers: [], time: 0))
        #expect(c.handle(.pointerUp(x: 50, y: 60, time: 0.05)) == [.toggleTimer])
        _ = c.handle(.pointerDown(x: 51, y: 60, modifiers: [], time: 0.2))
        #expect(c.handle(.pointerUp(x: 51, y: 60, time: 0.25)) == [.toggleTimer, .zoom(delta: 1, aroundX: 51, aroundY: 60, duration: 0.3)])
        // Shift: out.
        _ = c.handle(.pointerDown(x: 50, y: 60, modifiers: [.shift], time: 5))
        _ = c.handle(.pointerUp(x: 50, y: 60, time: 5.05))
        _ = c.handle(.pointerDown(x: 50, y: 60, modifiers: [.shift], time: 5.2))
        #expect(c.handle(.pointerUp(x: 50, y: 60, time: 5.25)).last == .zoom(delta: -1, aroundX: 50, aroundY: 60, duration: 0.3))
        // Too slow: two clicks.
        _ = c.handle(.pointerDown(x: 50, y: 60, modifiers: [], time: 10))
        _ = c.handle(.pointerUp(x: 50, y: 60, time: 10.05))
        _ = c.handle(.pointerDown(x: 50, y: 60, modifiers: [], time: 11))
        #expect(c.handle(.pointerUp(x: 50, y: 60, time: 11.05)) == [.toggleTimer])
    }

    @Test func keys() {
        var c = InputController()
        func k(_ key: Key, _ m: Modifiers = []) -> [MapCommand] { c.handle(.keyDown(key, modifiers: m, time: 0)) }
        #expect(k(.character("+")) == [.zoomCentered(delta: 1)])
        #expect(k(.character("=")) == [.zoomCentered(delta: 1)])
        #expect(k(.character("="), [.shift]) == [.zoomCentered(delta: 1)])
        #expect(k(.character("-")) == [.zoomCentered(delta: -1)])
        #expect(k(.left) == [.panEased(dx: 100, dy: 0)])
        #expect(k(.down) == [.panEased(dx: 0, dy: -100)])
        #expect(k(.character("0")) == [.resetCamera])
        #expect(k(.character("q")) == [.quit])
        #expect(k(.escape) == [.quit])
        #expect(k(.space) == [.toggleTimer])
        #expect(k(.character("+"), [.control]) == [])
        #expect(k(.left, [.alt]) == [])
    }

    @Test func wheelZoomsAroundTheCursor() {
        var c = InputController()
        #expect(c.handle(.wheel(ticks: 1, x: 10, y: 20, time: 0)) == [.zoom(delta: 0.5, aroundX: 10, aroundY: 20, duration: 0.2)])
        #expect(c.handle(.wheel(ticks: 0, x: 10, y: 20, time: 0)) == [])
    }

    @Test func keyboardMovesAreEasedOver300ms() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 1280, height: 800), scene: .radar)
        m.apply(.zoomCentered(delta: -1), now: 1)
        m.advance(to: 1.15)
        // t(2 - t) at t = 0.5 is 0.75.
        #expect(abs(m.camera.state.zoom - (5 - 0.75)) < 1e-9)
        m.advance(to: 1.3)
        #expect(m.camera.state.zoom == 4 && !m.isAnimating)
        // Arrow: 100 px, exactly, after 300 ms.
        let before = m.camera.view.screen(LngLat(lng: -75, lat: 42))
        m.apply(.panEased(dx: 100, dy: 0), now: 2)
        m.advance(to: 2.3)
        let after = m.camera.view.screen(LngLat(lng: -75, lat: 42))
        #expect(abs(after.x - before.x - 100) < 1e-6 && abs(after.y - before.y) < 1e-6)
    }

    @Test func resetReturnsToTheSceneCamera() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 1280, height: 800), scene: .radar)
        m.apply(.pan(dx: 300, dy: -200), now: 0)
        m.apply(.resetCamera, now: 1)
        m.advance(to: 1.3)
        #expect(abs(m.camera.state.center.lat - 41.874) < 1e-9 && abs(m.camera.state.center.lng - -75.789) < 1e-9)
    }
}

@Suite struct EasingTests {
    @Test func curves() {
        #expect(Easing.linear.value(0.25) == 0.25)
        #expect(Easing.quadraticOut.value(0.5) == 0.75)
        for e in [Easing.ease, .easeOut] {
            #expect(e.value(0) == 0 && abs(e.value(1) - 1) < 1e-9)
        }
        // CSS "ease" at x = 0.5 is 0.8024033877399112 (cubic-bezier(0.25, 0.1, 0.25, 1)).
        #expect(abs(Easing.ease.value(0.5) - 0.8024033877399112) < 1e-6)
    }
}

/// The window's own keys: F11 and Ctrl+S reach the viewer; other Ctrl and Alt chords stay unbound.
@Suite struct WindowKeyTests {
    @Test func f11TogglesFullScreenAndCtrlSSavesTheView() {
        var c = InputController()
        #expect(c.handle(.keyDown(.function(11), modifiers: [], time: 0)) == [.toggleFullscreen])
        #expect(c.handle(.keyDown(.character("s"), modifiers: .control, time: 0)) == [.saveView])
        #expect(c.handle(.keyDown(.character("S"), modifiers: .control, time: 0)) == [.saveView])
        // Not Ctrl+Alt+S, not Ctrl+Q, not F10; a plain s is unbound.
        #expect(c.handle(.keyDown(.character("s"), modifiers: [.control, .alt], time: 0)) == [])
        #expect(c.handle(.keyDown(.character("q"), modifiers: .control, time: 0)) == [])
        #expect(c.handle(.keyDown(.function(10), modifiers: [], time: 0)) == [])
        #expect(c.handle(.keyDown(.character("s"), modifiers: [], time: 0)) == [])
    }

    @Test func theModelLeavesTheWindowsCommandsAlone() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 640, height: 400), scene: .radar)
        let before = m.camera.state
        m.apply(.toggleFullscreen, now: 0)
        m.apply(.saveView, now: 0)
        #expect(m.camera.state == before && !m.wantsQuit)
    }
}
