import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// `within` and `distance` read the feature's geometry wherever expressions are evaluated:
/// in filters and in data-driven paint.
extension StyleDocumentRenderTests {
    @Test func withinFilterAndDistancePaint() throws {
        // Points at longitudes -10 and 10 (x 17.8 and 46.2 of the 64-px view); the polygon holds
        // the eastern one only.
        let polygon = #"{"type": "Polygon", "coordinates": [[[5, -5], [15, -5], [15, 5], [5, 5], [5, -5]]]}"#
        let shown = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(-10, "a"), (10, "b")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p", "filter": ["within", \#(polygon)],
                     "paint": {"circle-radius": 4, "circle-color": "red"}}]}
        """#)
        #expect(shown.color(atX: 46, y: 32) == RGBA8(255, 0, 0))
        #expect(shown.color(atX: 18, y: 32).a == 0)
        // Coloured by distance: 0 inside the polygon (blue), far outside (red).
        let coloured = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(-10, "a"), (10, "b")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p",
                     "paint": {"circle-radius": 4, "circle-color": ["step", ["distance", \#(polygon)], "blue", 1000, "red"]}}]}
        """#)
        #expect(coloured.color(atX: 46, y: 32) == RGBA8(0, 0, 255))
        #expect(coloured.color(atX: 18, y: 32) == RGBA8(255, 0, 0))
    }
}
