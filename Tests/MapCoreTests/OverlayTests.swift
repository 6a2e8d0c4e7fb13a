import Foundation
import MapCore
import TestSupport
import Testing

@Suite struct OverlayTests {
    @Test func scaleBarsAreRoundNumbersThatFit() {
        // 1000 m per pixel: 110 px is 110 km, the bar is 100 km.
        let a = Overlay.scaleBar(metresPerPixel: 1000, imperial: false)
        #expect(a?.label == "100 km" && abs((a?.pixels ?? 0) - 100) < 1e-9)
        // 30 m per pixel: 3.3 km fits, 2 km is the bar.
        let b = Overlay.scaleBar(metresPerPixel: 30, imperial: false)
        #expect(b?.label == "2 km" && abs((b?.pixels ?? 0) - 2000.0 / 30) < 1e-9)
        // 5 m per pixel: 550 m, the bar is 500 m.
        #expect(Overlay.scaleBar(metresPerPixel: 5, imperial: false)?.label == "500 m")
        // Imperial: 1000 m per pixel is 68 miles in 110 px: 50 mi.
        let c = Overlay.scaleBar(metresPerPixel: 1000, imperial: true)
        #expect(c?.label == "50 mi" && abs((c?.pixels ?? 0) - 50 * 1609.344 / 1000) < 1e-9)
        #expect(Overlay.scaleBar(metresPerPixel: 2, imperial: true)?.label == "500 ft")
        #expect(Overlay.scaleBar(metresPerPixel: 0, imperial: false) == nil)
    }

    @Test func theScaleIsRightForTheLatitudeAtTheCentre() {
        var m = MapModel(style: Style(), size: ViewportSize(width: 1280, height: 800), camera: weatherCamera, bounds: weatherBounds)
        m.jump(to: CameraState(center: LngLat(lng: -75, lat: 60), zoom: 5))
        let bar = Overlay.scaleBar(metresPerPixel: m.metresPerPixel, imperial: false)
        // At 60 N a pixel at zoom 5 is 40075016.686 * 0.5 / 16384 = 1223 m: 110 px = 134 km: 100 km.
        #expect(bar?.label == "100 km")
        #expect(abs((bar?.pixels ?? 0) - 100_000 / (40_075_016.686 * 0.5 / 16384)) < 1e-6)
    }
}
