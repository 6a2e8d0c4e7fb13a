import Testing
@testable import MapCore

/// MapLibre's pitched camera (issue 42, its first piece): screen positions and clip w of known
/// points against values computed with numpy from GL JS's `_calcMatrices` when the test was
/// written (800 x 600, zoom 10 over New York), the planes and horizon, and unprojection.
@Suite struct PerspectiveTransformTests {
    static let center = LngLat(lng: -74.0, lat: 40.7)

    /// (pitch, bearing, far, horizon, [(lng, lat, x, y, w)]).
    static let cases: [(Double, Double, Double, Double, [(Double, Double, Double, Double, Double)])] = [
        (0, 0, 909.0, .infinity, [(-73.9, 40.75, 545.635556, 203.915274, 900), (-74.1, 40.6, 254.364444, 491.953347, 900)]),
        (0, 30, 909.0, .infinity, [(-73.9, 40.75, 478.081728, 143.970409, 900), (-74.2, 40.8, 51.630955, 279.149336, 900)]),
        (45, 0, 1363.5, 765.0, [(-73.9, 40.75, 535.413050, 236.826861, 967.942161), (-73.95, 40.9, 455.914472, 91.081581, 1172.075804)]),
        (45, 30, 1363.5, 765.0, [(-73.9, 40.75, 469.555080, 201.718582, 1010.329582), (-74.1, 40.6, 362.880924, 508.127047, 730.963117)]),
        (60, 0, 2150.717092, 441.672956, [(-74.1, 40.6, 221.370243, 417.720496, 733.763525), (-74.2, 40.8, 154.198418, 218.884299, 1066.486220)]),
        (60, 30, 2150.717092, 441.672956, [(-73.95, 40.9, 304.605285, 163.672607, 1220.110991), (-74.2, 40.8, 58.483002, 289.779723, 918.057205)]),
        (85, 0, 6035.840972, 66.881553, [(-73.9, 40.75, 531.635519, 292.430694, 995.719094), (-74.1, 40.6, 215.073030, 321.243425, 708.777094)]),
        (85, 30, 6035.840972, 66.881553, [(-73.95, 40.9, 308.224432, 277.138122, 1268.225772), (-74.2, 40.8, 59.489676, 298.223740, 920.771321)]),
    ]

    @Test func pointsLandWhereMapLibrePutsThem() {
        for (pitch, bearing, far, horizon, points) in Self.cases {
            let t = PerspectiveTransform(center: Self.center, zoom: 10, pitch: pitch, bearing: bearing, width: 800, height: 600)
            #expect(abs(t.cameraToCenterDistance - 900) < 1e-9)
            #expect(abs(t.near - 12) < 1e-12)
            #expect(abs(t.far - far) < 1e-5, "far at pitch \(pitch)")
            #expect(horizon.isInfinite ? t.horizon.isInfinite : abs(t.horizon - horizon) < 1e-5, "horizon at pitch \(pitch)")
            let c = t.project(WebMercator.project(Self.center))
            #expect(abs(c.x - 400) < 1e-6 && abs(c.y - 300) < 1e-6 && abs(c.w - 900) < 1e-6)
            for (lng, lat, x, y, w) in points {
                let p = t.project(WebMercator.project(LngLat(lng: lng, lat: lat)))
                #expect(abs(p.x - x) < 1e-4 && abs(p.y - y) < 1e-4 && abs(p.w - w) < 1e-4, "(\(lng), \(lat)) at pitch \(pitch), bearing \(bearing): \(p)")
            }
        }
    }

    @Test func screenPixelsUnprojectToTheGroundTheyShow() throws {
        for pitch in [0.0, 30, 45, 60, 80] {
            let t = PerspectiveTransform(center: Self.center, zoom: 10, pitch: pitch, bearing: 30, width: 800, height: 600)
            for (x, y) in [(400.0, 300.0), (10, 590), (790, 450), (200, 120)] {
                guard let g = t.unproject(x: x, y: y) else {
                    // Only above the horizon is there no ground.
                    #expect(300 - y >= t.horizon - 1e-6, "no ground at (\(x), \(y)) at pitch \(pitch)")
                    continue
                }
                let back = t.project(g)
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6, "(\(x), \(y)) at pitch \(pitch): \(back)")
            }
        }
        // At 85 degrees the horizon is 67 pixels above the centre: nothing above it is ground.
        let steep = PerspectiveTransform(center: Self.center, zoom: 10, pitch: 85, bearing: 0, width: 800, height: 600)
        #expect(steep.unproject(x: 400, y: 300 - 200) == nil)
        #expect(steep.unproject(x: 400, y: 300 + 100) != nil)
    }
}
