import Foundation
import Testing
@testable import MapCore

/// The globe's atmosphere (issue 43): what MapLibre's atmosphere shader gives pixels of a globe
/// view, against values computed with numpy from `draw_sky.ts` and `atmosphere.fragment.glsl`
/// when the test was written (`tools/atmosphere_reference.py`: 800 x 600 over 10° E 50° N, the
/// default light, atmosphere-blend 0.8): nothing over the globe's dark middle or deep space, a
/// glow about the globe's edge on the sun's side.
@Suite struct GlobeAtmosphereTests {
    /// The default light (position [1.15, 210, 30], anchored to the viewport): the sun lies
    /// opposite it.
    static var sun: SIMD3<Double> {
        let r = 1.15, azimuth = (210.0 + 90) * Double.pi / 180, polar = 30 * Double.pi / 180
        return -SIMD3(r * cos(azimuth) * sin(polar), r * sin(azimuth) * sin(polar), r * cos(polar))
    }

    /// (zoom, pitch, bearing, [(x, y, r, g, b, a)]), pixel (x, y) sampled at its centre.
    static let cases: [(Double, Double, Double, [(Double, Double, Double, Double, Double, Double)])] = [
        (1, 0, 0, [
            (400, 300, 0, 0, 0, 0), (400, 98, 0.560026863, 0.620884580, 0.622403407, 0.363561867),
            (400, 94, 0.019619070, 0.029002035, 0.037133453, 0.000350944), (400, 90, 0, 0, 0, 0),
            (545, 156, 0.124988572, 0.173337824, 0.209021141, 0.019544695), (5, 5, 0, 0, 0, 0),
        ]),
        (2.5, 50, 20, [
            (400, 300, 0, 0, 0, 0), (400, 180, 0.072313249, 0.106646480, 0.136147096, 0.006324711),
            (400, 200, 0.423432527, 0.522219865, 0.558338752, 0.233332372),
            (400, 220, 0.307277936, 0.328389937, 0.306351705, 0.101167732),
            (400, 240, 0.074619057, 0.066651447, 0.060704921, 0.004275962), (400, 100, 0, 0, 0, 0),
        ]),
    ]

    @Test func pixelsGlowAsMapLibresShaderMakesThem() {
        for (zoom, pitch, bearing, pixels) in Self.cases {
            let t = GlobeTransform(center: LngLat(lng: 10, lat: 50), zoom: zoom, pitch: pitch, bearing: bearing, width: 800, height: 600)
            for (x, y, r, g, b, a) in pixels {
                let p = GlobeAtmosphere.pixel(ray: t.viewDirection(x: x + 0.5, y: y + 0.5), origin: t.atmosphereCamera, sun: Self.sun, blend: 0.8)
                let d = p - SIMD4(r, g, b, a)
                #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-7, "(\(x), \(y)) at zoom \(zoom): \(p)")
            }
        }
    }

    @Test func theCameraIsWhereTheGlobesCentreIsNot() {
        // At pitch 0 the globe's centre is straight ahead, ctc + R away; scaled to the Earth.
        let t = GlobeTransform(center: LngLat(lng: 10, lat: 50), zoom: 1, pitch: 0, bearing: 0, width: 800, height: 600)
        let c = t.atmosphereCamera, expected = (900 + t.radius) * 6371e3 / t.radius
        #expect(abs(c.x) < 1e-6 && abs(c.y) < 1e-6 && abs(c.z - expected) < 1e-3 * expected / 1e6)
        // No blend, nothing drawn.
        #expect(GlobeAtmosphere.pixel(ray: t.viewDirection(x: 400.5, y: 98.5), origin: c, sun: Self.sun, blend: 0) == .zero)
    }

    @Test func aSunAnchoredToTheMapTurnsWithTheGlobe() {
        // Light from azimuth 90, polar 90 (MapLibre's [r, 90, 90]): the sun along +x on screen.
        let light = [1.5, 90.0, 90.0]
        func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool { ((a - b) * (a - b)).sum() < 1e-18 }
        let viewport = GlobeAtmosphere.sun(lightPosition: light)
        #expect(close(viewport, SIMD3(1.5, 0, 0)))
        func camera(_ lng: Double, _ lat: Double, bearing: Double = 0, pitch: Double = 0) -> CameraState {
            CameraState(center: LngLat(lng: lng, lat: lat), zoom: 1, bearing: bearing, pitch: pitch)
        }
        // Over null island, unturned: as anchored to the viewport.
        #expect(close(GlobeAtmosphere.sun(lightPosition: light, mapAnchored: camera(0, 0)), viewport))
        // Turned by -longitude about the poles' axis, the latitude about x, then the bearing.
        #expect(close(GlobeAtmosphere.sun(lightPosition: light, mapAnchored: camera(90, 0)), SIMD3(0, 0, 1.5)))
        #expect(close(GlobeAtmosphere.sun(lightPosition: light, mapAnchored: camera(0, 30)), viewport))
        #expect(close(GlobeAtmosphere.sun(lightPosition: light, mapAnchored: camera(0, 0, bearing: 90)), SIMD3(0, 1.5, 0)))
        let s = 1.5 * sin(Double.pi / 6), c = 1.5 * cos(Double.pi / 6)
        #expect(close(GlobeAtmosphere.sun(lightPosition: light, mapAnchored: camera(90, 30)), SIMD3(0, -s, c)))
    }
}
