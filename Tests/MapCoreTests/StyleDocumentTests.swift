import Foundation
import MapCore
import TestSupport
import Testing
import TestSupport

@Suite struct StyleDocumentTests {
    func parse(_ text: String) throws -> StyleDocument {
        try StyleDocument(data: Data(text.utf8), name: "test.json")
    }

    func problems(_ text: String) -> [String] {
        do { _ = try parse(text); return [] } catch let e as StyleDocumentError { return e.problems } catch { return ["\(error)"] }
    }

    let geojson = #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"k": 2}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]}}]}}"#

    @Test func readsCameraSourcesAndLayers() throws {
        let doc = try parse(#"""
        {"version": 8, "name": "t", "center": [10, 20], "zoom": 3, "sprite": "local://sprites/s",
         "sources": {"g": \#(geojson),
                     "i": {"type": "image", "url": "a.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}},
                    {"id": "l", "type": "line", "source": "g", "minzoom": 2, "maxzoom": 10,
                     "layout": {"visibility": "none", "line-cap": "round"},
                     "paint": {"line-width": ["get", "k"], "line-opacity-transition": {"duration": 500}}},
                    {"id": "r", "type": "raster", "source": "i"}]}
        """#)
        #expect(doc.name == "t")
        #expect(doc.center == LngLat(lng: 10, lat: 20))
        #expect(doc.zoom == 3)
        #expect(doc.sprite == "local://sprites/s")
        #expect(doc.layers.map(\.id) == ["bg", "l", "r"])
        let l = doc.layers[1]
        #expect(l.type == .line && l.minZoom == 2 && l.maxZoom == 10 && !l.visible)
        #expect(l.transitions["line-opacity"] == TransitionOptions(duration: 0.5))
        #expect(l.paint["line-width"]?.isFeatureDependent == true)
        guard case let .geojson(.inline(data))? = doc.sources["g"] else { Issue.record("no geojson source"); return }
        #expect(data.features.count == 1)
        #expect(data.features[0].evaluation.properties["k"] == .number(2))
        #expect(data.features[0].geometry.kind == .lines)
        #expect(abs(data.features[0].geometry.coordinates[2] - WebMercator.x(lng: 10)) < 1e-12)
    }

    @Test func everyProblemWithItsPath() {
        let p = problems(#"""
        {"version": 7, "sources": {"g": \#(geojson), "v": {"type": "video"}},
         "layers": [{"id": "a", "type": "line", "source": "g", "paint": {"line-width": "x"}},
                    {"id": "b", "type": "fill", "source": "nope"},
                    {"id": "c", "type": "hexagon", "source": "g"},
                    {"id": "a", "type": "line", "source": "g"},
                    {"id": "d", "type": "line", "source": "g", "layout": {"line-cap": "flat"}, "paint": {"fill-color": "red"}}]}
        """#)
        #expect(p.contains("version: expected 8, found 7"))
        #expect(p.contains { $0.hasPrefix("sources.v.type:") })
        #expect(p.contains { $0.hasPrefix("layers[0].paint.line-width: expected number") && $0.contains("\"x\"") })
        #expect(p.contains("layers[1].source: no source \"nope\" in sources"))
        #expect(p.contains { $0.hasPrefix("layers[2].type: expected one of [background, fill, line, circle, raster, symbol, hillshade, color-relief]") })
        #expect(p.contains("layers[3].id: duplicate layer id \"a\""))
        #expect(p.contains { $0.hasPrefix("layers[4].layout.line-cap:") })
        #expect(p.contains("layers[4].paint.fill-color: unknown property for a line layer"))
        #expect(p.count == 8)
    }

    @Test func syntaxErrorNamesFileAndPosition() {
        let p = problems("{\"version\": 8,\n  \"layers\": [}")
        #expect(p.count == 1)
        #expect(p[0].hasPrefix("test.json: line 2"))
    }

    @Test func rejectsBearingAndBadGeoJSON() {
        let p = problems(#"{"version": 8, "bearing": "x", "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [1]}}}, "layers": []}"#)
        #expect(p.contains { $0.hasPrefix("bearing: expected number") })
        #expect(p.contains { $0.hasPrefix("sources.g.data.coordinates: expected a [longitude, latitude] position") })
    }

    @Test func styleAPIAddsUpdatesAndRemoves() throws {
        let doc = try parse(#"{"version": 8, "sources": {"g": \#(geojson)}, "layers": [{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 3}}]}"#)
        guard case let .geojson(.inline(data))? = doc.sources["g"] else { Issue.record("no source"); return }
        let style = Style(document: doc, features: ["g": data], images: [:])
        var m = MapModel(style: style, size: ViewportSize(width: 64, height: 64), camera: weatherCamera, bounds: weatherBounds)
        m.lighting = false
        func width() -> Double? {
            m.frame().layers.first?.lineFeatures?.items.first?.paint.width
        }
        #expect(width() == 3)
        try m.setPaintProperty(layer: "l", "line-width", json: .number(5), at: 0)
        #expect(width() == 3)                       // (the style's 300 ms transition starts)
        m.advance(to: 0.3)
        #expect(width() == 5)
        #expect(throws: StyleError.self) { try m.setPaintProperty(layer: "l", "line-width", json: .string("x")) }
        try m.setLayoutProperty(layer: "l", "visibility", json: .string("none"))
        #expect(m.frame().layers.isEmpty)
        try m.setLayoutProperty(layer: "l", "visibility", json: .string("visible"))
        try m.updateGeoJSONSource("g", GeoJSONData(features: []))
        #expect(m.frame().layers.isEmpty)           // nothing to draw
        #expect(throws: StyleError.self) { try m.removeSource("g") }     // still used by "l"
        try m.removeLayer("l")
        try m.removeSource("g")
        #expect(m.style.sources["g"] == nil)
        var def = LayerDefinition(id: "bg", type: .background)
        try def.setPaint("background-color", .string("#ff0000"))
        try m.addLayer(def)
        guard case let .background(c, o)? = m.frame().layers.first?.content else { Issue.record("no background"); return }
        #expect(c == Color(r: 1, g: 0, b: 0) && o == 1)
    }
}

/// Vector images through the style API: added once, named by symbol layers, removed.
@Suite struct VectorImageAPITests {
    @Test func addAndRemoveAVectorImage() throws {
        var m = MapModel(style: Style(), size: ViewportSize(width: 32, height: 32))
        let icon = VectorIcon(name: "dot", width: 4, height: 4, shapes: [.init(color: .white, commands: [.move(0, 0), .line(4, 0), .line(4, 4), .close])])
        try m.addImage(icon)
        #expect(m.style.icons["dot"] === icon)
        #expect(throws: StyleError("images.dot: an image with this name exists")) { try m.addImage(icon) }
        try m.removeImage("dot")
        #expect(m.style.icons["dot"] == nil)
        #expect(throws: StyleError("images.dot: no such image")) { try m.removeImage("dot") }
    }
}
