import Foundation
@testable import MapCore
import Testing

/// Point labels of polygons go to the pole of inaccessibility, as MapLibre puts them.
@Suite struct PoleOfInaccessibilityTests {
    /// A square's pole is its centre; an L's lies in its thicker arm, away from the notch, where
    /// the centroid (which MapLibre starts from) would sit on the edge of the notch.
    @Test func polesAreTheFarthestInnerPoints() throws {
        let square = [[(x: 0.0, y: 0.0), (100, 0), (100, 100), (0, 100), (0, 0)]]
        let c = try #require(PoleOfInaccessibility.find(square, precision: 1))
        #expect(abs(c.x - 50) <= 1 && abs(c.y - 50) <= 1, "\(c)")
        // An L: a 100 x 40 bar with a 40 x 100 bar on its left, the notch at top right.
        let l = [[(x: 0.0, y: 0.0), (40, 0), (40, 60), (100, 60), (100, 100), (0, 100), (0, 0)]]
        let p = try #require(PoleOfInaccessibility.find(l, precision: 0.5))
        let d = PoleOfInaccessibility.distance(p.x, p.y, l)
        #expect(d >= 19.5, "the pole is only \(d) from the edges: \(p)")
        // A hole in the middle of a square pushes the pole into the ring around it.
        let holed = [square[0], [(x: 30.0, y: 30.0), (70, 30), (70, 70), (30, 70), (30, 30)]]
        let h = try #require(PoleOfInaccessibility.find(holed, precision: 0.5))
        #expect(PoleOfInaccessibility.distance(h.x, h.y, holed) > 10, "the pole is in the hole or on an edge: \(h)")
        // Nothing, a flat ring: no crash, the ring's corner.
        #expect(PoleOfInaccessibility.find([], precision: 16) == nil)
        let flat = try #require(PoleOfInaccessibility.find([[(x: 5.0, y: 5.0), (10, 5), (5, 5)]], precision: 16))
        #expect(flat.x == 5 && flat.y == 5)
    }
}
