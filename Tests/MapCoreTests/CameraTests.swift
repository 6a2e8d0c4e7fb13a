import Foundation
import MapCore
import TestSupport
import Testing

@Suite struct CameraTests {
    let size = ViewportSize(width: 1280, height: 800)

    /// The viewport's corners at `camera`, in world pixels.
    func viewportInWorld(_ c: CameraState, _ size: ViewportSize) -> (top: Double, bottom: Double, world: Double) {
        let v = ViewTransform(camera: c, size: size)
        return (v.centerPixel.y - Double(size.height) / 2, v.centerPixel.y + Double(size.height) / 2, v.worldSize)
    }

    @Test func weatherSceneStartsAtTheExampleCamera() {
        let cam = Camera(state: weatherCamera, bounds: weatherBounds, size: size)
        #expect(abs(cam.state.center.lat - 41.874) < 1e-9)
        #expect(abs(cam.state.center.lng - -75.789) < 1e-9)
        #expect(cam.state.zoom == 5)
        #expect(cam.bounds.minZoom == 4 && cam.bounds.maxZoom == 5.99)
    }

    @Test func zoomIsClampedToTheBounds() {
        var cam = Camera(state: weatherCamera, bounds: weatherBounds, size: size)
        cam.jump(to: CameraState(center: cam.state.center, zoom: 9))
        #expect(cam.state.zoom == 5.99)
        cam.jump(to: CameraState(center: cam.state.center, zoom: 1))
        #expect(cam.state.zoom == 4)
    }

    @Test func viewportStaysInsideALimitedBox() {
        let box = LngLatBounds(west: -80.425, south: 37.936, east: -71.516, north: 46.437)
        var cam = Camera(state: CameraState(center: LngLat(lng: -76, lat: 42), zoom: 6),
                         bounds: CameraBounds(bounds: box, minZoom: 0, maxZoom: 10), size: size)
        cam.pan(dx: 1e5, dy: 1e5)               // far to the north-west
        let v = cam.view
        let nw = v.lngLat(x: 0, y: 0)
        #expect(abs(nw.lng - box.west) < 1e-7 && abs(nw.lat - box.north) < 1e-7, "\(nw)")
        // A box smaller than the viewport forces the zoom up until it fits.
        cam.jump(to: CameraState(center: LngLat(lng: -76, lat: 42), zoom: 2))
        let needed = log2(max(1280 / ((WebMercator.x(lng: box.east) - WebMercator.x(lng: box.west)) * 512),
                              800 / ((WebMercator.y(lat: box.south) - WebMercator.y(lat: box.north)) * 512)))
        #expect(abs(cam.state.zoom - needed) < 1e-9)
    }

    @Test func easeEndsExactlyAtTheTargetAfterItsDuration() {
        var cam = Camera(state: weatherCamera, bounds: weatherBounds, size: size)
        cam.ease(to: CameraState(center: LngLat(lng: -74, lat: 41), zoom: 5.5), duration: 0.3, now: 10)
        cam.advance(to: 10.15)
        #expect(cam.isAnimating)
        // Ease-out bezier(0, 0, 0.58, 1) at t = 0.5 is past halfway.
        let half = (cam.state.zoom - 5) / 0.5
        #expect(abs(half - Easing.easeOut.value(0.5)) < 1e-9 && half > 0.5)
        cam.advance(to: 10.3)
        #expect(!cam.isAnimating)
        #expect(cam.state.zoom == 5.5 && abs(cam.state.center.lng - -74) < 1e-9)
    }

    @Test func zoomAroundKeepsThePointUnderTheCursor() {
        var cam = Camera(state: weatherCamera, bounds: weatherBounds, size: size)
        let before = cam.view.lngLat(x: 300, y: 250)
        cam.ease(zoom: 5.8, around: (300, 250), duration: 0.3, now: 0)
        for t in [0.05, 0.1, 0.2, 0.3] {
            cam.advance(to: t)
            let after = cam.view.lngLat(x: 300, y: 250)
            #expect(abs(after.lng - before.lng) < 1e-9 && abs(after.lat - before.lat) < 1e-9, "t=\(t)")
        }
        #expect(cam.state.zoom == 5.8)
    }

    @Test func aNewEaseStartsFromTheCurrentCamera() {
        var cam = Camera(state: weatherCamera, bounds: weatherBounds, size: size)
        cam.ease(to: CameraState(center: cam.state.center, zoom: 5.9), duration: 0.3, now: 0)
        cam.advance(to: 0.1)
        let mid = cam.state.zoom
        cam.ease(to: CameraState(center: cam.state.center, zoom: 4), duration: 0.3, now: 0.1)
        cam.advance(to: 0.1)
        #expect(cam.state.zoom == mid)
    }

    @Test func resizeReclampsAWideWindow() {
        var cam = Camera(state: CameraState(center: LngLat(lng: 0, lat: 84), zoom: 4), bounds: weatherBounds, size: size)
        cam.resize(ViewportSize(width: 3000, height: 3000))
        let v = cam.view
        #expect(v.centerPixel.y - 1500 >= -1e-6)
    }
}
