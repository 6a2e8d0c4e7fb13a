import Foundation
import NightmapApp
import MapData
import Raster
import Testing
@testable import nightmap

/// The harness's operations, applied through the style API before the frame is read.
@Suite struct RenderTestOperationsTests {
    static func render(_ operations: String, layers: String = #"[{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]"#,
                       sources: String = "{}") throws -> Pixmap {
        let style = #"{"version": 8, "metadata": {"test": {"width": 8, "height": 8, "operations": \#(operations)}}, "sources": \#(sources), "layers": \#(layers)}"#
        let dir = FileManager.default.temporaryDirectory
        return try renderStyleDocument(Data(style.utf8), dir.appendingPathComponent("style.json"), 8, 8, 1, dir)
    }

    static func colour(_ pm: Pixmap, _ x: Int = 4, _ y: Int = 4) -> [UInt8] {
        let c = pm.color(atX: x, y: y)
        return [c.r, c.g, c.b, c.a]
    }

    @Test func paintLayoutAndFilterChangesShowInTheFrame() throws {
        #expect(Self.colour(try Self.render("[]")) == [255, 0, 0, 255])
        // A paint change transitions over the style's 300 ms: `wait` alone lets no time pass.
        #expect(Self.colour(try Self.render(#"[["setPaintProperty", "bg", "background-color", "blue"], ["wait"]]"#)) == [255, 0, 0, 255])
        #expect(Self.colour(try Self.render(#"[["setPaintProperty", "bg", "background-color", "blue"], ["wait", 150]]"#)) == [50, 0, 205, 255])
        #expect(Self.colour(try Self.render(#"[["setPaintProperty", "bg", "background-color", "blue"], ["wait", 300]]"#)) == [0, 0, 255, 255])
        #expect(Self.colour(try Self.render(#"[["setLayoutProperty", "bg", "visibility", "none"], ["wait"]]"#)) == [0, 0, 0, 0])
        // A layer added below another, then the other removed.
        let added = try Self.render(#"[["addLayer", {"id": "under", "type": "background", "paint": {"background-color": "lime"}}, "bg"], ["removeLayer", "bg"], ["wait"]]"#)
        #expect(Self.colour(added) == [0, 255, 0, 255])
        // A source and a circle layer on it; a filter that excludes its feature.
        let point = #"{"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}"#
        let circle = #"{"id": "c", "type": "circle", "source": "p", "paint": {"circle-color": "white", "circle-radius": 3}}"#
        let shown = try Self.render(#"[["addSource", "p", \#(point)], ["addLayer", \#(circle)], ["wait"]]"#)
        #expect(Self.colour(shown) == [255, 255, 255, 255])
        let filtered = try Self.render(#"[["addSource", "p", \#(point)], ["addLayer", \#(circle)], ["setFilter", "c", ["==", "$type", "LineString"]], ["wait"]]"#)
        #expect(Self.colour(filtered) == [255, 0, 0, 255])
        // setZoom past a layer's zoom range hides it.
        let ranged = try Self.render(#"[["setLayerZoomRange", "bg", 0, 5], ["setZoom", 6], ["wait"]]"#)
        #expect(Self.colour(ranged) == [0, 0, 0, 0])
        // A new style replaces the old.
        let restyled = try Self.render(#"[["setStyle", {"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-color": "blue"}}]}], ["wait"]]"#)
        #expect(Self.colour(restyled) == [0, 0, 255, 255])
    }

    /// setBearing turns the map: a square west of the centre ends up south of it at bearing 90
    /// (east up), and any angle is taken.
    @Test func setBearingTurnsTheMap() throws {
        let square = #"{"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-30, -4], [-1, -4], [-1, 4], [-30, 4], [-30, -4]]]}}"#
        let layers = #"[{"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "white"}}]"#
        let north = try Self.render("[]", layers: layers, sources: #"{"s": \#(square)}"#)
        #expect(Self.colour(north, 1, 4)[3] == 255 && Self.colour(north, 4, 7)[3] == 0)
        let turned = try Self.render(#"[["setBearing", 90], ["wait"]]"#, layers: layers, sources: #"{"s": \#(square)}"#)
        #expect(Self.colour(turned, 1, 4)[3] == 0 && Self.colour(turned, 4, 7)[3] == 255)
        _ = try Self.render(#"[["setBearing", 1234.5], ["wait"]]"#)
    }

    @Test(arguments: [
        (#"[["moveLayer", "bg"]]"#, "operations[0] (moveLayer): not supported"),
        (#"[["setFeatureState", {"source": "s", "id": 1}, {"hover": true}]]"#, "operations[0] (setFeatureState): sources.s: no such source"),
        (#"[["removeFeatureState", {"source": "bg"}, 3]]"#, "operations[0] (removeFeatureState): argument 2: expected a state key"),
        (#"[["wait"], ["setPaintProperty", "nope", "background-color", "blue"]]"#, "operations[1] (setPaintProperty): layers.nope: no such layer"),
        (#"[["setPaintProperty", "bg", "background-color", 7]]"#, "operations[0] (setPaintProperty): layers.bg.paint.background-color"),
        (#"[["setZoom"]]"#, "operations[0] (setZoom): argument 1: expected a number"),
        (#"[7]"#, "operations[0]: expected [name, arguments...]"),
        (#"{"a": 1}"#, "metadata.test.operations: expected an array"),
    ])
    func aBadOperationIsNamed(operations: String, message: String) {
        #expect {
            _ = try Self.render(operations)
        } throws: { "\($0)".hasPrefix(message) }
    }
}
