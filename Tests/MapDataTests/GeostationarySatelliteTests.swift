import Testing
@testable import MapData

/// The clouds' satellite by longitude: the nearest sub-satellite point within reach.
@Suite struct GeostationarySatelliteTests {
    @Test func nearestSubSatellitePointWinsAndTheGapHasNone() {
        func name(_ lng: Double) -> String? { GeostationarySatellite.covering(longitude: lng)?.name }
        #expect(name(-74) == "GOES-East")            // New York
        #expect(name(-122.4) == "GOES-West")         // San Francisco
        #expect(name(-106.0) == "GOES-East")         // either side of the two's midpoint (-106.2)
        #expect(name(-106.4) == "GOES-West")
        #expect(name(139.7) == "Himawari")           // Tokyo
        #expect(name(-157.8) == "GOES-West")         // Honolulu
        #expect(name(180) == "Himawari" && name(-180) == "Himawari" && name(540) == "Himawari")  // wrapped
        #expect(name(-178.4) == "Himawari")          // either side of GOES-West's and Himawari's midpoint (178.25 west)
        #expect(name(-178.1) == "GOES-West")
        #expect(name(13.4) == nil && name(31.2) == nil && name(55.3) == nil)   // Berlin, Cairo, Dubai: the gap
        #expect(name(-0.3) == "GOES-East" && name(-0.1) == nil)               // GOES-East reaches to 0.2 west: London is just past it
        #expect(name(66) == "Himawari" && name(65.6) == nil)
        #expect(name(.nan) == nil && name(.infinity) == nil)
    }

    @Test func separationIsTheShortWayRound() {
        #expect(GeostationarySatellite.separation(170, -170) == 20)
        #expect(GeostationarySatellite.separation(-75.2, 284.8) < 1e-9)
        #expect(GeostationarySatellite.separation(0, 180) == 180)
    }
}
