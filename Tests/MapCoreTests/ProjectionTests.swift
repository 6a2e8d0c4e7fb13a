import Foundation
import MapCore
import Testing

@Suite struct ProjectionTests {
    @Test func knownValues() {
        #expect(WebMercator.x(lng: -180) == 0)
        #expect(WebMercator.x(lng: 180) == 1)
        #expect(abs(WebMercator.y(lat: 0) - 0.5) < 1e-15)
        #expect(abs(WebMercator.y(lat: WebMercator.maxLatitude)) < 1e-12)
        #expect(abs(WebMercator.y(lat: -WebMercator.maxLatitude) - 1) < 1e-12)
        #expect(WebMercator.worldSize(zoom: 5) == 512 * 32)
    }

    @Test func roundTripWithin1e9Degrees() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let p = LngLat(lng: Double.random(in: -180...180, using: &rng),
                           lat: Double.random(in: -WebMercator.maxLatitude...WebMercator.maxLatitude, using: &rng))
            let q = WebMercator.unproject(WebMercator.project(p))
            #expect(abs(q.lng - p.lng) < 1e-9 && abs(q.lat - p.lat) < 1e-9, "\(p) -> \(q)")
        }
    }

    @Test func latitudeIsClampedToTheSquareWorld() {
        #expect(WebMercator.project(LngLat(lng: 0, lat: 90)).y == WebMercator.project(LngLat(lng: 0, lat: WebMercator.maxLatitude)).y)
    }

    @Test func viewTransformScreenRoundTrip() {
        let v = ViewTransform(camera: CameraState(center: LngLat(lng: -75.789, lat: 41.874), zoom: 5),
                              size: ViewportSize(width: 1280, height: 800))
        let c = v.screen(LngLat(lng: -75.789, lat: 41.874))
        #expect(abs(c.x - 640) < 1e-9 && abs(c.y - 400) < 1e-9)
        for (x, y) in [(0.0, 0.0), (1280.0, 800.0), (17.5, 733.25)] {
            let p = v.lngLat(x: x, y: y)
            let s = v.screen(p)
            #expect(abs(s.x - x) < 1e-6 && abs(s.y - y) < 1e-6)
        }
        // One degree of longitude at zoom 5 is 16384 / 360 px.
        let e = v.screen(LngLat(lng: -74.789, lat: 41.874))
        #expect(abs(e.x - 640 - 16384.0 / 360) < 1e-9)
    }
}
