import Foundation
import MapCore
import NightmapApp
import Testing

/// The camera under the app's input: every gesture the input controller turns into commands
/// keeps the camera inside the scene's bounds.
@Suite struct GestureBoundsTests {
    let size = ViewportSize(width: 1280, height: 800)

    func viewportInWorld(_ c: CameraState, _ size: ViewportSize) -> (top: Double, bottom: Double, world: Double) {
        let v = ViewTransform(camera: c, size: size)
        return (v.centerPixel.y - Double(size.height) / 2, v.centerPixel.y + Double(size.height) / 2, v.worldSize)
    }

    /// Thousands of random gestures never leave the bounds: zoom in range, latitude inside the
    /// world, viewport edges inside the square world vertically.
    @Test func randomGesturesNeverLeaveTheBounds() {
        var rng = SystemRandomNumberGenerator()
        var model = MapApp(style: Style(), size: size, scene: .radar)
        var input = InputController()
        var now = 0.0
        for step in 0..<20_000 {
            now += Double.random(in: 0...0.05, using: &rng)
            let x = Double.random(in: -50...1330, using: &rng), y = Double.random(in: -50...850, using: &rng)
            let event: InputEvent
            switch Int.random(in: 0..<9, using: &rng) {
            case 0: event = .pointerDown(x: x, y: y, modifiers: Bool.random(using: &rng) ? [.shift] : [], time: now)
            case 1, 2: event = .pointerMove(x: x, y: y, time: now)
            case 3: event = .pointerUp(x: x, y: y, time: now)
            case 4: event = .wheel(ticks: Double.random(in: -6...6, using: &rng), x: x, y: y, time: now)
            case 5: event = .keyDown([Key.character("+"), .character("-"), .left, .right, .up, .down, .character("0")]
                                        .randomElement(using: &rng)!, modifiers: [], time: now)
            case 6: event = .resized(width: Int.random(in: 1...3000, using: &rng), height: Int.random(in: 1...3000, using: &rng), time: now)
            case 7: event = .pointerMove(x: x * 1000, y: -y * 1000, time: now)   // violent drags
            default: event = .keyDown(.up, modifiers: [], time: now)
            }
            for c in input.handle(event) { model.apply(c, now: now) }
            model.advance(to: now)
            let c = model.camera.state
            let s = model.camera.size
            #expect(c.zoom >= 4 - 1e-9 && c.zoom <= 5.99 + 1e-9, "step \(step): zoom \(c.zoom)")
            #expect(abs(c.center.lat) <= WebMercator.maxLatitude && abs(c.center.lng) <= 180, "step \(step): \(c.center)")
            let w = viewportInWorld(c, s)
            if Double(s.height) < w.world {
                #expect(w.top >= -1e-6 && w.bottom <= w.world + 1e-6, "step \(step): viewport \(w) outside the world")
            }
            if c.zoom < 4 - 1e-9 || c.zoom > 5.99 + 1e-9 { return }
        }
    }
}
