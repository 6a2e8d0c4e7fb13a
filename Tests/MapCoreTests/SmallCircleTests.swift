import Foundation
import MapCore
import Testing

/// Circles on the sphere as map geometry: cut at the antimeridian, closed along the map's edge
/// around a pole, holes when they hold both.
@Suite struct SmallCircleTests {
    /// Great-circle distance in degrees.
    func distance(_ a: LngLat, _ b: LngLat) -> Double {
        let r = Double.pi / 180
        let c = sin(a.lat * r) * sin(b.lat * r) + cos(a.lat * r) * cos(b.lat * r) * cos((a.lng - b.lng) * r)
        return acos(min(1, max(-1, c))) / r
    }

    /// Even-odd: inside the polygon's outer ring and outside its holes.
    func inside(_ p: LngLat, _ polygons: [[[LngLat]]]) -> Bool {
        func inRing(_ ring: [LngLat]) -> Bool {
            var c = false
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.lat > p.lat) != (b.lat > p.lat), p.lng < a.lng + (p.lat - a.lat) / (b.lat - a.lat) * (b.lng - a.lng) { c.toggle() }
            }
            return c
        }
        return polygons.contains { poly in inRing(poly[0]) && !poly.dropFirst().contains(where: inRing) }
    }

    func checkShape(_ polygons: [[[LngLat]]]) {
        for poly in polygons {
            for ring in poly {
                #expect(ring.first == ring.last, "a ring is not closed")
                #expect(ring.allSatisfy { $0.lng >= -180 && $0.lng <= 180 && abs($0.lat) <= SmallCircle.mapEdge }, "a point is off the map")
            }
        }
    }

    @Test func aFootprintAwayFromTheEdgesIsOnePolygonAtItsRadius() {
        let c = SmallCircle(center: LngLat(lng: -40, lat: 12.5), radius: 20.25)
        let ring = c.ring(count: 90)
        #expect(ring.count == 91 && ring.allSatisfy { abs(distance($0, c.center) - 20.25) < 1e-9 })
        let polys = c.polygons()
        checkShape(polys)
        #expect(polys.count == 1)
        #expect(inside(c.center, polys) && inside(LngLat(lng: -40, lat: 32), polys) && !inside(LngLat(lng: -40, lat: 33.5), polys))
        #expect(c.outline().count == 1)
    }

    @Test func acrossTheAntimeridianItIsCutIntoTwo() {
        let c = SmallCircle(center: LngLat(lng: 172, lat: -10), radius: 20)
        let polys = c.polygons()
        checkShape(polys)
        #expect(polys.count == 2)
        #expect(inside(LngLat(lng: 179.5, lat: -10), polys) && inside(LngLat(lng: -179.5, lat: -10), polys))
        #expect(inside(LngLat(lng: -172, lat: -10), polys) && !inside(LngLat(lng: -160, lat: -10), polys))
        #expect(!inside(LngLat(lng: 0, lat: -10), polys))
        let lines = c.outline()
        #expect(lines.count == 3)     // east of the start, across, and back
        #expect(lines.dropFirst().allSatisfy { abs(abs($0[0].lng) - 180) < 1e-12 })
    }

    @Test func theNightSideHoldsThePoleItLeansTo() {
        // December: the point opposite the Sun at 22 N; the night is the cap of 90 degrees around it.
        let night = SmallCircle(center: LngLat(lng: 30, lat: 22), radius: 90)
        #expect(night.holdsNorthPole && !night.holdsSouthPole)
        let polys = night.polygons()
        checkShape(polys)
        #expect(inside(LngLat(lng: 30, lat: 22), polys) && inside(LngLat(lng: -150, lat: 80), polys) && inside(LngLat(lng: 100, lat: 0), polys))
        #expect(!inside(LngLat(lng: -150, lat: -22), polys) && !inside(LngLat(lng: 0, lat: -80), polys) && !inside(LngLat(lng: -80, lat: 0), polys))
        // Near its edge, on both sides of it.
        #expect(inside(LngLat(lng: 119, lat: 0), polys) && !inside(LngLat(lng: 121, lat: 0), polys))
        #expect(inside(LngLat(lng: -59, lat: 0), polys) && !inside(LngLat(lng: -61, lat: 0), polys))
    }

    @Test func aCapHoldingBothPolesIsTheWorldWithAHole() {
        let c = SmallCircle(center: LngLat(lng: 0, lat: 0), radius: 120)
        #expect(c.holdsNorthPole && c.holdsSouthPole)
        let polys = c.polygons()
        checkShape(polys)
        #expect(inside(LngLat(lng: 0, lat: 80), polys) && inside(LngLat(lng: 100, lat: 0), polys))
        #expect(!inside(LngLat(lng: 180, lat: 0), polys) && !inside(LngLat(lng: -170, lat: 10), polys))
    }
}
