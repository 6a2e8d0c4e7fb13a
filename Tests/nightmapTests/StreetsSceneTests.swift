import Foundation
import MapCore
import MapData
import MapRender
import NightmapApp
import Raster
import Testing
@testable import nightmap

/// The `streets` scene (key 4): central Helsinki from the bundled OpenStreetMap tiles, which
/// nightmap's own map includes from zoom 12; the camera stays around the extract.
@Suite struct StreetsSceneTests {
    @Test func theSceneShowsHelsinkisStreets() throws {
        var m = try MapSetup.model(try Options.parse(["state", "--scene", "streets", "--size", "640x400", "--iss", "tle", "--radar", "demo",
                                                      "--time", "2026-12-01T12:00:00Z", "--tle-url", "none"]))
        let scene = try #require(m.scenes.first { $0.name == "streets" })
        #expect(m.camera.state.zoom == 15 && scene.bounds.minZoom == 14 && scene.bounds.maxZoom == 19)
        #expect(m.model.attribution.contains("© OpenStreetMap contributors"))
        // The camera cannot leave the extract's surroundings.
        m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3))
        #expect(abs(m.camera.state.center.lng - 24.94) < 0.03 && abs(m.camera.state.center.lat - 60.17) < 0.02 && m.camera.state.zoom >= 14)
        // At the start camera: Kaivokatu (a primary road, 24.9435 E, 60.1703 N) in its colour.
        m.jump(to: scene.startCamera(size: m.camera.size))
        m.model.loadWantedTiles(now: 0)
        let pm = Pixmap(width: 640, height: 400)
        FrameRenderer().render(m.frame(), into: pm)
        let p = m.camera.view.screen(LngLat(lng: 24.9435, lat: 60.17036))
        var brightest = 0
        for dy in -3...3 {
            let c = pm.color(atX: Int(p.x), y: Int(p.y) + dy)
            brightest = max(brightest, Int(c.r) + Int(c.g) + Int(c.b))
        }
        // (Land is #1a1f27, 84 in all; the primary road's fill #525b69, 278.)
        #expect(brightest > 200, "no road at Kaivokatu: brightest \(brightest)")
    }
}
