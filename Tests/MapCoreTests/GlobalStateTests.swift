import Foundation
import MapCore
import Raster
import Testing
import TestSupport

/// `["global-state", name]` with the root `state` member's defaults and
/// `setGlobalStateProperty`: in a filter, a layout property and a paint property, at the default,
/// after a set and after a reset (null).
@Suite struct GlobalStateTests {
    static let text = #"""
    {"version": 8,
     "state": {"kind": {"default": "a"}, "cap": {"default": "round"}, "width": {"default": 3}},
     "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"k": "a"}, "geometry": {"type": "LineString", "coordinates": [[-10, 0], [10, 0]]}},
        {"type": "Feature", "properties": {"k": "b"}, "geometry": {"type": "LineString", "coordinates": [[-10, 5], [10, 5]]}}]}}},
     "layers": [{"id": "l", "type": "line", "source": "s",
                 "filter": ["==", ["get", "k"], ["global-state", "kind"]],
                 "layout": {"line-cap": ["global-state", "cap"]},
                 "paint": {"line-width": ["global-state", "width"]}}]}
    """#

    static func model() throws -> MapModel { try FeatureStateTests.model(text) }

    /// The lines drawn: each one's `k` is told by its y (the second is north), its cap and width.
    static func lines(_ m: MapModel) -> [(north: Bool, cap: LineCap, width: Double)] {
        guard let f = m.frame().layers.first?.lineFeatures else { return [] }
        return f.items.map { ($0.geometry.minY < 0.5 - 1e-6, $0.paint.cap, $0.paint.width) }
    }

    @Test func defaultsSetAndReset() throws {
        var m = try Self.model()
        #expect(m.globalState == ["kind": .string("a"), "cap": .string("round"), "width": .number(3)])
        var l = Self.lines(m)
        #expect(l.count == 1 && l.first?.north == false && l.first?.cap == .round && l.first?.width == 3)

        m.setGlobalStateProperty("kind", .string("b"))
        m.setGlobalStateProperty("cap", .string("square"))
        m.setGlobalStateProperty("width", .number(5))
        l = Self.lines(m)
        #expect(l.count == 1 && l.first?.north == true && l.first?.cap == .square && l.first?.width == 5)

        // null restores the defaults.
        m.setGlobalStateProperty("kind", .null)
        m.setGlobalStateProperty("cap", .null)
        m.setGlobalStateProperty("width", .null)
        l = Self.lines(m)
        #expect(l.count == 1 && l.first?.north == false && l.first?.cap == .round && l.first?.width == 3)
        #expect(m.globalState["kind"] == .string("a"))
    }

    @Test func aLayerAddedLaterReadsTheStateSet() throws {
        var m = try Self.model()
        m.setGlobalStateProperty("width", .number(7))
        try m.removeLayer("l")
        let layer = try LayerDefinition(json: try JSON.parse(Data(#"""
            {"id": "m", "type": "line", "source": "s", "paint": {"line-width": ["global-state", "width"]}}
            """#.utf8), name: "l"), sources: try StyleDocument(data: Data(Self.text.utf8), name: "d").sources)
        try m.addLayer(layer)
        #expect(Self.lines(m).map(\.width) == [7, 7])
        // A property without a default and never set is null: the property's default.
        m.setGlobalStateProperty("width", .null)
        #expect(Self.lines(m).map(\.width) == [3, 3])
        m.setGlobalStateProperty("other", .number(1))
        #expect(m.globalState["other"] == .number(1))
    }

    @Test func visibilityFromTheState() throws {
        var m = try FeatureStateTests.model(#"""
            {"version": 8, "state": {"vis": {"default": "none"}},
             "sources": {"s": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-10, 0], [10, 0]]}}},
             "layers": [{"id": "l", "type": "line", "source": "s", "layout": {"visibility": ["global-state", "vis"]}}]}
            """#)
        #expect(m.visibleLayerIDs.isEmpty && m.frame().layers.isEmpty)
        m.setGlobalStateProperty("vis", .string("visible"))
        #expect(m.visibleLayerIDs == ["l"] && Self.lines(m).count == 1)
        m.setGlobalStateProperty("vis", .null)
        #expect(m.visibleLayerIDs.isEmpty)
        // A literal again drops the expression.
        try m.setLayoutProperty(layer: "l", "visibility", json: .string("visible"))
        m.setGlobalStateProperty("vis", .string("none"))
        #expect(m.visibleLayerIDs == ["l"])
        #expect(throws: StyleError.self) { try m.setLayoutProperty(layer: "l", "visibility", json: .array([.string("get"), .string("v")])) }
    }

    @Test func parsing() throws {
        #expect { try StyleExpression.parse(.array([.string("global-state"), .number(1)]), path: "p", expected: nil) } throws: {
            "\($0)".hasPrefix("p[1]: global state property must be a string literal")
        }
        #expect(throws: StyleError.self) { try StyleExpression.parse(.array([.string("global-state")]), path: "p", expected: nil) }
        // Never folded into a constant, though it reads neither the zoom nor the feature.
        let e = try StyleExpression.parse(.array([.string("+"), .number(1), .array([.string("number"), .array([.string("global-state"), .string("n")]), .number(0)])]),
                                          path: "p", expected: .number)
        var c = EvaluationContext(zoom: 0)
        #expect(try e.evaluate(c) == .number(1))
        c.globalState = ["n": .number(2)]
        #expect(try e.evaluate(c) == .number(3))
        #expect(e.readsGlobalState && !e.isFeatureDependent && !e.isZoomDependent)
        // A bad `state` member is named and left out.
        let doc = try StyleDocument(data: Data(#"{"version": 8, "state": {"a": 1, "b": {"default": [1, 2]}}, "sources": {}, "layers": []}"#.utf8), name: "d")
        #expect(doc.state == ["b": .array([.number(1), .number(2)])])
        #expect(doc.warnings.contains { $0.hasPrefix("state.a:") })
    }
}
