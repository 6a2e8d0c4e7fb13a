import Foundation
import MapCore
import Testing

/// Fill-extrusion layers and the style's light as a document gives them: what each feature
/// draws, and one-line warnings for what is wrong.
@Suite struct FillExtrusionStyleTests {
    static let square = #"{"type": "Polygon", "coordinates": [[[-0.001, -0.001], [0.001, -0.001], [0.001, 0.001], [-0.001, 0.001], [-0.001, -0.001]]]}"#

    func document(paint: String, light: String? = nil, properties: String = #"{"h": -5, "b": 3}"#) throws -> StyleDocument {
        let l = light.map { #""light": \#($0),"# } ?? ""
        let text = #"""
        {"version": 8, \#(l) "pitch": 60, "zoom": 16, "center": [0, 0],
         "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": \#(properties), "geometry": \#(Self.square)}}},
         "layers": [{"id": "x", "type": "fill-extrusion", "source": "g", "paint": \#(paint)}]}
        """#
        return try StyleDocument(data: Data(text.utf8), name: "t.json")
    }

    func draw(_ doc: StyleDocument, bearing: Double = 0) -> FillExtrusionDraw? {
        guard case let .geojson(.inline(data))? = doc.sources["g"] else { return nil }
        var m = MapModel(style: Style(document: doc, features: ["g": data], images: [:]), size: ViewportSize(width: 64, height: 64),
                         camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 16, bearing: bearing))
        m.lighting = false
        guard case let .fillExtrusion(d)? = m.frame().layers.first?.content else { return nil }
        return d
    }

    @Test func featuresCarryTheirHeightBaseAndPremultipliedColour() throws {
        let doc = try document(paint: #"{"fill-extrusion-height": ["get", "h"], "fill-extrusion-base": ["get", "b"], "fill-extrusion-color": "rgba(100, 200, 50, 0.5)", "fill-extrusion-opacity": 0.4, "fill-extrusion-vertical-gradient": false}"#)
        #expect(doc.warnings.isEmpty)
        let d = try #require(draw(doc))
        let p = try #require(d.features.items.first?.paint)
        #expect(p.height == 0)               // -5 from the data: clamped to 0
        #expect(p.base == 3)
        #expect(abs(p.color.r - 100.0 / 255 * 0.5) < 1e-9 && abs(p.color.g - 200.0 / 255 * 0.5) < 1e-9)
        #expect(d.opacity == 0.4 && !d.verticalGradient)
        #expect(d.light == ExtrusionLight())  // the default light
    }

    @Test func badValuesAreOneLineWarningsAndDefaults() throws {
        let doc = try document(paint: #"{"fill-extrusion-height": -5, "fill-extrusion-base": "low", "fill-extrusion-color": 7}"#,
                               light: #"{"intensity": 2, "anchor": "sun", "position": [1, 2], "glow": 1}"#)
        let w = doc.warnings
        #expect(w.contains { $0.hasPrefix("layers[0].paint.fill-extrusion-height:") })
        #expect(w.contains { $0.hasPrefix("layers[0].paint.fill-extrusion-base:") })
        #expect(w.contains { $0.hasPrefix("layers[0].paint.fill-extrusion-color:") })
        #expect(w.contains { $0.hasPrefix("light.intensity:") && $0.hasSuffix("left at its default") })
        #expect(w.contains { $0.hasPrefix("light.anchor:") })
        #expect(w.contains { $0.hasPrefix("light.position:") })
        #expect(w.contains("light.glow: unknown member; ignored"))
        #expect(w.allSatisfy { !$0.contains("\n") })
        #expect(w.count == 7)
        let d = try #require(draw(doc))
        let p = try #require(d.features.items.first?.paint)
        #expect(p.height == 0 && p.base == 0 && p.color == .black)
        #expect(d.light == ExtrusionLight())
    }

    @Test func theLightTurnsWithTheBearingUnlessAnchoredToTheMap() throws {
        let viewport = try #require(draw(try document(paint: "{}", light: #"{"position": [1, 90, 90], "color": "red", "intensity": 0.2}"#), bearing: 90))
        // [1, 90, 90]: azimuth 90 + 90 degrees from x, at the horizon: (-1, 0, 0); turned by 90 degrees: (0, -1, 0).
        #expect(abs(viewport.light.x) < 1e-9 && abs(viewport.light.y + 1) < 1e-9 && abs(viewport.light.z) < 1e-9)
        #expect(viewport.light.color == Color(r: 1, g: 0, b: 0) && viewport.light.intensity == 0.2)
        let map = try #require(draw(try document(paint: "{}", light: #"{"anchor": "map", "position": [1, 90, 90]}"#), bearing: 90))
        #expect(abs(map.light.x + 1) < 1e-9 && abs(map.light.y) < 1e-9)
    }

    @Test func setLightChangesTheLightAndRefusesABadOne() throws {
        let doc = try document(paint: "{}")
        guard case let .geojson(.inline(data))? = doc.sources["g"] else { Issue.record("no source"); return }
        var m = MapModel(style: Style(document: doc, features: ["g": data], images: [:]), size: ViewportSize(width: 64, height: 64),
                         camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 16))
        try m.setStyleLight(.object(JSONObject([(key: "intensity", value: .number(1))])))
        guard case let .fillExtrusion(d)? = m.frame().layers.first?.content else { Issue.record("no layer"); return }
        #expect(d.light.intensity == 1)
        #expect(throws: StyleError.self) { try m.setStyleLight(.object(JSONObject([(key: "intensity", value: .string("x"))]))) }
    }
}
