import Foundation
import MapCore
import Testing

/// The style's `projection` (issue 43): each form of a projection definition read as MapLibre
/// reads it, its globeness at each zoom (`globe_projection.ts`: "vertical-perspective" 1,
/// "mercator" 0, a transition its ends mixed), and bad definitions named, Web Mercator kept.
@Suite struct StyleProjectionTests {
    func document(_ projection: String) throws -> StyleDocument {
        try StyleDocument(data: Data(#"{"version": 8, "sources": {}, "layers": [], "projection": \#(projection)}"#.utf8), name: "test.json")
    }

    func globeness(_ projection: String, _ zooms: [Double]) throws -> [Double] {
        let p = try #require(try document(projection).projection)
        return zooms.map { p.globeness(zoom: $0) }
    }

    @Test func namesAndTheGlobe() throws {
        #expect(try globeness(#"{"type": "mercator"}"#, [0, 11.5, 20]) == [0, 0, 0])
        #expect(try globeness(#"{"type": "vertical-perspective"}"#, [0, 11.5, 20]) == [1, 1, 1])
        // The globe: itself to zoom 11, Mercator from 12, half way at 11.5.
        #expect(try globeness(#"{"type": "globe"}"#, [0, 11, 11.25, 11.5, 12, 16]) == [1, 1, 0.75, 0.5, 0, 0])
        // No type: Mercator.
        #expect(try globeness("{}", [3]) == [0])
        #expect(try document("{}").warnings.isEmpty)
    }

    @Test func transitionsAndZoomExpressions() throws {
        // [from, to, t]: the ends mixed by t.
        #expect(try globeness(#"{"type": ["vertical-perspective", "mercator", 0.25]}"#, [5]) == [0.75])
        #expect(try globeness(#"{"type": ["mercator", "vertical-perspective", 0.25]}"#, [5]) == [0.25])
        // An interpolate of names and transitions over the zoom.
        let stops = #"{"type": ["interpolate", ["linear"], ["zoom"], 2, "vertical-perspective", 4, ["vertical-perspective", "mercator", 0.5], 6, "mercator"]}"#
        #expect(try globeness(stops, [1, 2, 3, 4, 5, 6, 7]) == [1, 1, 0.75, 0.5, 0.25, 0, 0])
        // A step.
        #expect(try globeness(#"{"type": ["step", ["zoom"], "vertical-perspective", 5, "mercator"]}"#, [4.9, 5, 9]) == [1, 0, 0])
    }

    @Test func badDefinitionsAreNamedAndMercatorIsDrawn() throws {
        for (json, message) in [
            (#"{"type": "cylindrical"}"#, #"projection.type: unknown projection "cylindrical""#),
            (#"{"type": ["mercator", "globe", 0.5]}"#, #"projection.type[1]: unknown projection "globe""#),
            (#"{"type": ["mercator", "vertical-perspective", 2]}"#, "projection.type[2]: transition 2 outside 0...1"),
            (#"{"type": 3}"#, "projection.type: expected a projection name or [from, to, t], found 3"),
            (#"{"type": ["interpolate", ["linear"], ["zoom"], 1, "mercator", 3, "albers"]}"#, #"projection.type[6]: unknown projection "albers""#),
        ] {
            let doc = try document(json)
            #expect(doc.warnings.contains { $0.hasPrefix(message) && $0.hasSuffix("Web Mercator is drawn") }, "\(json): \(doc.warnings)")
            #expect(doc.projection?.globeness(zoom: 3) == 0, "\(json)")
        }
        let doc = try document(#""globe""#)
        #expect(doc.projection == nil)
        #expect(doc.warnings.contains("projection: expected object, found string; Web Mercator is drawn"), "\(doc.warnings)")
        #expect(try document(#"{"type": "mercator", "size": 3}"#).warnings.contains("projection.size: unknown property; ignored"))
    }
}
