import Testing
@testable import MapCore

/// MapLibre's globe camera (issue 43, its first piece): screen positions, clip w and the horizon
/// of known points against values computed with numpy from GL JS's `_calcMatrices` and
/// `_computeClippingPlane` when the test was written (`tools/globe_reference.py`: 800 x 600,
/// centred on 10° E 50° N); the blend into Mercator; unprojection.
@Suite struct GlobeTransformTests {
    static let center = LngLat(lng: 10, lat: 50)

    /// (zoom, pitch, bearing, radius, horizon plane, [(lng, lat, x, y, w, seen)]).
    static let cases: [(Double, Double, Double, Double, SIMD4<Double>, [(Double, Double, Double, Double, Double, Bool)])] = [
        (0, 0, 0, 126.771782, SIMD4(0.111618897, 0.766044443, 0.633022222, -0.123466368), [
            (30, 40, 433.005851, 317.417133, 905.690511, true), (-60, 10, 292.530093, 317.002021, 982.461422, true),
            (120, -30, 484.450127, 309.805797, 1099.464587, false), (14, 51, 405.564284, 297.639032, 900.144227, true),
        ]),
        (3, 0, 0, 1014.174258, SIMD4(0.111618897, 0.766044443, 0.633022222, -0.529823371), [
            (30, 40, 652.922897, 433.466994, 945.524086, true), (-60, 10, -141.568875, 385.677613, 1559.691377, false),
            (14, 51, 444.464405, 281.133420, 901.153820, true), (10.3, 50.2, 403.399053, 296.453101, 900.011899, true),
        ]),
        (3, 45, 30, 1014.174258, SIMD4(-0.031552089, 0.514496468, 0.856911810, -0.573301736), [
            (30, 40, 687.368113, 323.078534, 940.269619, true), (-60, 10, -304.334770, 1148.017352, 943.726354, false),
            (120, -30, 703.524623, 656.277141, 2261.456237, false), (14, 51, 428.229135, 274.309805, 928.124754, true),
        ]),
        (11.5, 30, -20, 367170.301397, SIMD4(0.112183621, 0.765305155, 0.633816105, -0.997880967), [
            (14, 51, 9556.288786, -5.072959, 1718.708833, true), (10.3, 50.2, 1507.510167, -170.859212, 1296.629319, true),
            (30, 40, -2215.767084, -2495.242694, -25129.165903, false),
        ]),
        (12, 0, 0, 519257.219936, SIMD4(0.111618897, 0.766044443, 0.633022222, -0.998269754), [
            (14, 51, 14161.789612, -5539.230372, 1490.755641, true), (10.3, 50.2, 2128.636681, -1503.825978, 906.092164, true),
            (-60, 10, -877.014648, 502.027059, 338661.985088, false),
        ]),
    ]

    /// The largest of `v`'s components' magnitudes.
    static func largest(_ v: SIMD4<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z), abs(v.w)) }

    @Test func pointsLandWhereMapLibrePutsThem() {
        for (zoom, pitch, bearing, radius, plane, points) in Self.cases {
            let t = GlobeTransform(center: Self.center, zoom: zoom, pitch: pitch, bearing: bearing, width: 800, height: 600)
            #expect(abs(t.radius - radius) < 1e-6 * radius, "radius at zoom \(zoom)")
            #expect(abs(t.cameraToCenterDistance - 900) < 1e-9 && t.near == 0.5 && abs(t.far - (900 + 2 * radius)) < 1e-6 * radius)
            #expect(Self.largest(t.horizonPlane - plane) < 1e-8, "horizon plane at zoom \(zoom): \(t.horizonPlane)")
            let c = t.project(Self.center)
            #expect(abs(c.x - 400) < 1e-6 && abs(c.y - 300) < 1e-6 && abs(c.w - 900) < 1e-6 && c.seen)
            for (lng, lat, x, y, w, seen) in points {
                let p = t.project(LngLat(lng: lng, lat: lat))
                // (Relative: far points of a large globe land thousands of pixels away.)
                let tolerance = 1e-4 * max(1, abs(x), abs(y))
                #expect(abs(p.x - x) < tolerance && abs(p.y - y) < tolerance && abs(p.w - w) < 1e-6 * max(1, abs(w)),
                        "(\(lng), \(lat)) at zoom \(zoom), pitch \(pitch): \(p)")
                #expect(p.seen == seen, "(\(lng), \(lat)) at zoom \(zoom): seen \(p.seen)")
            }
        }
    }

    @Test func theGlobeBlendsIntoMercatorBetweenZooms11And12() {
        #expect(GlobeTransform.globeness(zoom: 3) == 1 && GlobeTransform.globeness(zoom: 11) == 1)
        #expect(GlobeTransform.globeness(zoom: 11.5) == 0.5 && GlobeTransform.globeness(zoom: 12) == 0 && GlobeTransform.globeness(zoom: 16) == 0)
        // At zoom 11.5, half way: clip x, y and w mixed (numpy: tools/globe_reference.py).
        let globe = GlobeTransform(center: Self.center, zoom: 11.5, pitch: 30, bearing: -20, width: 800, height: 600)
        let mercator = PerspectiveTransform(center: Self.center, zoom: 11.5, pitch: 30, bearing: -20, width: 800, height: 600)
        for (lng, lat, x, y) in [(14.0, 51.0, 11534.638255, -7.786524), (10.3, 50.2, 1511.149736, -171.957750)] {
            let p = globe.project(LngLat(lng: lng, lat: lat), blending: mercator, globeness: 0.5)
            #expect(abs(p.x - x) < 1e-4 * max(1, abs(x)) && abs(p.y - y) < 1e-4 * max(1, abs(y)), "(\(lng), \(lat)): \(p)")
        }
        // At globeness 0 the blend is Mercator's own projection; at 1 the globe's.
        let q = LngLat(lng: 10.3, lat: 50.2)
        let flat = mercator.project(WebMercator.project(q)), round = globe.project(q)
        let none = globe.project(q, blending: mercator, globeness: 0), full = globe.project(q, blending: mercator, globeness: 1)
        #expect(abs(none.x - flat.x) < 1e-6 && abs(none.y - flat.y) < 1e-6)
        #expect(abs(full.x - round.x) < 1e-6 && abs(full.y - round.y) < 1e-6)
    }

    @Test func screenPixelsUnprojectToThePlaceTheyShow() throws {
        // (zoom, pitch, whether every pixel tried shows the globe: at zoom 6 it fills the view;
        // smaller, or tilted towards space, some show none.)
        for (zoom, pitch, filled) in [(0.0, 0.0, false), (1.5, 40, false), (3, 60, false), (6, 20, true)] {
            let t = GlobeTransform(center: Self.center, zoom: zoom, pitch: pitch, bearing: 30, width: 800, height: 600)
            for (x, y) in [(400.0, 300.0), (10, 590), (790, 450), (200, 120), (5, 5)] {
                guard let p = t.unproject(x: x, y: y) else {
                    #expect(!filled, "nothing at (\(x), \(y)) at zoom \(zoom)")
                    continue
                }
                let back = t.project(p)
                #expect(back.seen, "(\(x), \(y)) at zoom \(zoom) unprojects to the far side")
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6, "(\(x), \(y)) at zoom \(zoom): \(back)")
            }
        }
        // The centre pixel is the centre; at zoom 0 the corner is space.
        let t = GlobeTransform(center: Self.center, zoom: 0, pitch: 0, bearing: 0, width: 800, height: 600)
        let c = try #require(t.unproject(x: 400, y: 300))
        #expect(abs(c.lng - 10) < 1e-9 && abs(c.lat - 50) < 1e-9)
        #expect(t.unproject(x: 5, y: 5) == nil)
    }

    @Test func placesRoundTripThroughTheSphere() {
        for p in [LngLat(lng: 0, lat: 0), LngLat(lng: 179.9, lat: -45), LngLat(lng: -120, lat: 89), LngLat(lng: 45, lat: -89.5)] {
            let back = GlobeTransform.lngLat(GlobeTransform.surface(p))
            #expect(abs(back.lng - p.lng) < 1e-9 && abs(back.lat - p.lat) < 1e-9, "\(p): \(back)")
        }
        // The poles are the sphere's y axis.
        let pole = GlobeTransform.surface(LngLat(lng: 37, lat: 90)) - SIMD3(0, 1, 0)
        #expect(Self.largest(SIMD4(pole, 0)) < 1e-12)
    }
}
