import Foundation
import MapCore
import TestSupport
import Testing
import TestSupport

@Suite struct StyleDocumentTests {
    func parse(_ text: String) throws -> StyleDocument {
        try StyleDocument(data: Data(text.utf8), name: "test.json")
    }

    /// What refuses the document, or else what it skips.
    func problems(_ text: String) -> [String] {
        do { return try parse(text).warnings } catch let e as StyleDocumentError { return e.problems } catch { return ["\(error)"] }
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
        #expect(doc.sprites == [SpriteSource(url: "local://sprites/s")])
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

    @Test func everyProblemNamedAndSkipped() throws {
        let doc = try parse(#"""
        {"version": 8, "sources": {"g": \#(geojson), "v": {"type": "video"}},
         "layers": [{"id": "a", "type": "line", "source": "g", "paint": {"line-width": "x", "line-color": "red"}},
                    {"id": "b", "type": "fill", "source": "nope"},
                    {"id": "c", "type": "hexagon", "source": "g"},
                    {"id": "a", "type": "line", "source": "g"},
                    {"id": "d", "type": "line", "source": "g", "layout": {"line-cap": "flat"}, "paint": {"fill-color": "red"}},
                    {"id": "e", "type": "fill", "source": "g", "filter": ["frobnicate", 1]},
                    {"id": "f", "type": "circle", "source": "g", "paint": {"circle-radius": ["no-such-op"], "circle-color": "blue"}},
                    {"id": "h", "type": "fill-extrusion", "source": "g"},
                    {"id": "i", "type": "raster", "source": "v"}]}
        """#)
        let p = doc.warnings
        #expect(p.contains { $0.hasPrefix("sources.v.type:") && $0.hasSuffix("skipped with their layers") })
        #expect(p.contains { $0.hasPrefix("layers[0].paint.line-width: expected number") && $0.contains("\"x\"") && $0.hasSuffix("left at its default") })
        #expect(p.contains("layers[1].source: no source \"nope\" in sources; layer \"b\" skipped"))
        #expect(p.contains("layers[2].type: unknown layer type \"hexagon\"; layer \"c\" skipped"))
        #expect(p.contains("layers[3].id: duplicate layer id \"a\"; skipped"))
        #expect(p.contains { $0.hasPrefix("layers[4].layout.line-cap:") })
        #expect(p.contains("layers[4].paint.fill-color: unknown property for a line layer; ignored"))
        #expect(p.contains("layers[5].filter[0]: unknown expression \"frobnicate\"; layer \"e\" skipped"))
        #expect(p.contains("layers[6].paint.circle-radius[0]: unknown expression \"no-such-op\"; left at its default"))
        #expect(p.contains("layers[8] \"i\": skipped with its source \"v\""))
        #expect(p.count == 10)
        // What is left draws: the good properties of the layers kept.
        #expect(doc.layers.map(\.id) == ["a", "d", "f", "h"])
        #expect(doc.layers[0].paint["line-width"] == nil && doc.layers[0].paint["line-color"] != nil)
        #expect(doc.layers[2].paint["circle-radius"] == nil && doc.layers[2].paint["circle-color"] != nil)
    }

    @Test func onlyADocumentThatIsNotVersion8IsRefused() {
        #expect(problems(#"{"version": 7, "sources": {}, "layers": []}"#) == ["version: expected 8, found 7"])
        #expect(problems(#"{"sources": {}, "layers": []}"#) == ["version: missing (expected 8)"])
        #expect(problems("[1]") == ["style: expected object, found array"])
        #expect(problems(#"{"version": 8}"#) == ["sources: missing; no sources", "layers: missing; no layers"])
    }

    @Test func rootMembersNotDrawnAreNamedOnce() {
        let p = problems(#"""
        {"version": 8, "pitch": 45, "terrain": {"source": "d"}, "sky": {}, "projection": {"type": "globe"}, "frobs": 1,
         "light": {"anchor": "map"}, "sources": {}, "layers": []}
        """#)
        #expect(p.contains("frobs: unknown member; ignored"))
        #expect(p.contains { $0.hasPrefix("terrain: the relief is not drawn yet") })
        #expect(!p.contains { $0.hasPrefix("projection") })   // (the globe is drawn)
        #expect(!p.contains { $0.hasPrefix("light") })     // it lights only extrusions, and there are none
        #expect(p.count == 2)   // (the pitch, the sky and the projection are drawn)
        #expect(problems(#"{"version": 8, "projection": {"type": "mercator"}, "sources": {}, "layers": []}"#).isEmpty)
    }

    @Test func legacyRefLayersTakeTheirReferencesLayoutAndKeepTheirPaint() throws {
        let doc = try parse(#"""
        {"version": 8, "sources": {"g": \#(geojson)},
         "layers": [{"id": "casing", "type": "line", "source": "g", "minzoom": 3, "filter": ["==", "k", 2],
                     "layout": {"line-cap": "round"}, "paint": {"line-width": 9}},
                    {"id": "inner", "ref": "casing", "type": "fill", "paint": {"line-width": 5}},
                    {"id": "deep", "ref": "inner", "paint": {"line-color": "red"}},
                    {"id": "lost", "ref": "nowhere"},
                    {"id": "loop1", "ref": "loop2"}, {"id": "loop2", "ref": "loop1"}]}
        """#)
        #expect(doc.layers.map(\.id) == ["casing", "inner", "deep"])
        for l in doc.layers {
            #expect(l.type == .line && l.source == "g" && l.minZoom == 3 && l.filter != nil && l.layout["line-cap"] != nil)
        }
        #expect(doc.layers[1].paint["line-width"] != nil && doc.layers[0].paint["line-width"] != nil)
        #expect(doc.layers[2].paint["line-width"] == nil && doc.layers[2].paint["line-color"] != nil)
        #expect(doc.warnings.contains("layers[3].ref: no layer \"nowhere\"; layer \"lost\" skipped"))
        #expect(doc.warnings.contains("layers[4].ref: references go round in a circle; layer \"loop1\" skipped"))
        #expect(doc.warnings.count == 3)
    }

    @Test func spriteArraysNameTheirImagesByID() throws {
        let doc = try parse(#"{"version": 8, "sprite": [{"id": "default", "url": "a"}, {"id": "x", "url": "b"}, {"id": "x", "url": "c"}, 3], "sources": {}, "layers": []}"#)
        #expect(doc.sprites == [SpriteSource(url: "a"), SpriteSource(id: "x", url: "b")])
        #expect(doc.sprites.map { $0.imageName("pin") } == ["pin", "x:pin"])
        #expect(doc.warnings == ["sprite[2].id: duplicate sprite id \"x\"; left out",
                                 "sprite[3]: expected {\"id\": string, \"url\": string}, found 3; left out"])
        #expect(try parse(#"{"version": 8, "sprite": "s", "sources": {}, "layers": []}"#).sprites == [SpriteSource(url: "s")])
    }

    @Test func aLayerWithoutMaxzoomShowsAtZoom24() throws {
        let doc = try parse(#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background"}, {"id": "b", "type": "background", "maxzoom": 24}]}"#)
        #expect(doc.layers[0].isShown(atZoom: 24) && Layer(doc.layers[0]).isShown(atZoom: 24))
        #expect(!doc.layers[1].isShown(atZoom: 24) && doc.layers[1].isShown(atZoom: 23.99))
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

/// The style's `sky` and `pitch` (issue 42).
@Suite struct SkyDocumentTests {
    func document(_ text: String) throws -> StyleDocument { try StyleDocument(data: Data(text.utf8), name: "t.json") }

    @Test func theSkyIsReadWithItsDefaultsAndZoomCurves() throws {
        let d = try document(#"""
        {"version": 8, "pitch": 70, "sky": {"sky-color": ["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"],
         "sky-horizon-blend": 0.5}, "sources": {}, "layers": []}
        """#)
        #expect(d.warnings.isEmpty, "\(d.warnings)")
        #expect(d.pitch == 70)
        let sky = try #require(d.sky)
        let at5 = sky.draw(zoom: 5)
        #expect(abs(at5.skyColor.r - 0.5) < 1e-9 && at5.skyHorizonBlend == 0.5)
        #expect(at5.horizonColor == Color.white)          // the specification's default
        #expect(try document(#"{"version": 8, "sky": {}, "sources": {}, "layers": []}"#).sky?.draw(zoom: 0).skyColor == Color(css: "#88C6FC"))
        #expect(try document(#"{"version": 8, "sources": {}, "layers": []}"#).sky == nil)
    }

    @Test func aBadSkyPropertyIsNamedAndTakesItsDefault() throws {
        let d = try document(#"""
        {"version": 8, "sky": {"sky-color": 3, "sky-horizon-blend": 2, "glow": 1}, "sources": {}, "layers": []}
        """#)
        #expect(d.warnings.contains { $0.hasPrefix("sky.sky-color: expected color, found 3") }, "\(d.warnings)")
        #expect(d.warnings.contains { $0.hasPrefix("sky.sky-horizon-blend:") }, "\(d.warnings)")
        #expect(d.warnings.contains("sky.glow: unknown property; ignored"))
        #expect(d.sky?.draw(zoom: 0).skyColor == Color(css: "#88C6FC"))
        let notObject = try document(#"{"version": 8, "sky": 3, "sources": {}, "layers": []}"#)
        #expect(notObject.sky == nil && notObject.warnings.contains("sky: expected object, found number; ignored"))
        // A pitch out of range is named and left at 0.
        let steep = try document(#"{"version": 8, "pitch": 95, "sources": {}, "layers": []}"#)
        #expect(steep.pitch == 0 && steep.warnings.contains { $0.hasPrefix("pitch:") })
    }
}
