import Foundation
import MapCore
import Testing
import TestSupport

/// The feature-state API and `["feature-state", key]`: merging, removing a key, a feature or a
/// whole source, ids as MapLibre matches them (numbers and strings that read as one number are
/// one id, GeoJSON string ids by their leading integer), `promoteId` one name or by source layer,
/// and every frame after a change drawing the new state.
@Suite struct FeatureStateTests {
    static func model(_ text: String) throws -> MapModel {
        let document = try StyleDocument(data: Data(text.utf8), name: "state.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in document.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        return MapModel(style: Style(document: document, features: features, images: [:]), size: ViewportSize(width: 64, height: 64),
                        camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0))
    }

    /// Three points at longitudes -10, 0 and 10 with ids `ids` and property `p` = `props`.
    static func points(_ ids: [String], _ props: [String]) -> String {
        let f = zip(ids, props).enumerated().map { i, v in
            #"{"type": "Feature", "id": \#(v.0), "properties": {"p": \#(v.1)}, "geometry": {"type": "Point", "coordinates": [\#(i * 10 - 10), 0]}}"#
        }
        return #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(f.joined(separator: ","))]}}"#
    }

    static func style(_ source: String) -> String {
        #"""
        {"version": 8, "sources": {"s": \#(source)},
         "layers": [{"id": "c", "type": "circle", "source": "s",
                     "paint": {"circle-radius": ["coalesce", ["feature-state", "r"], 1],
                               "circle-color": ["case", ["boolean", ["feature-state", "hover"], false], "red", "black"]}}]}
        """#
    }

    /// The circles' radii in feature order.
    static func radii(_ m: MapModel) -> [Double] {
        guard case let .circle(draw)? = m.frame().layers.first?.content else { return [] }
        return draw.items.map(\.paint.radius)
    }

    @Test func setMergesAndRemoveTakesAKeyAFeatureOrAll() throws {
        var m = try Self.model(Self.style(Self.points(["1", "2", "3"], ["0", "0", "0"])))
        #expect(Self.radii(m) == [1, 1, 1])
        try m.setFeatureState(source: "s", id: .number(1), state: ["r": .number(4)])
        try m.setFeatureState(source: "s", id: .number(1), state: ["hover": .bool(true)])
        #expect(try m.featureState(source: "s", id: .number(1)) == ["r": .number(4), "hover": .bool(true)], "merged")
        #expect(Self.radii(m) == [4, 1, 1])
        guard case let .circle(draw)? = m.frame().layers.first?.content else { Issue.record("no circles"); return }
        #expect(draw.items[0].paint.color == Color(r: 1, g: 0, b: 0) && draw.items[1].paint.color == .black)

        try m.removeFeatureState(source: "s", id: .number(1), key: "r")
        #expect(try m.featureState(source: "s", id: .number(1)) == ["hover": .bool(true)])
        #expect(Self.radii(m) == [1, 1, 1])

        try m.setFeatureState(source: "s", id: .number(2), state: ["r": .number(6)])
        try m.setFeatureState(source: "s", id: .number(3), state: ["r": .number(7)])
        try m.removeFeatureState(source: "s", id: .number(2))
        #expect(try m.featureState(source: "s", id: .number(2)).isEmpty)
        #expect(Self.radii(m) == [1, 1, 7])
        try m.removeFeatureState(source: "s")
        #expect(Self.radii(m) == [1, 1, 1])
        #expect(try m.featureState(source: "s", id: .number(1)).isEmpty)
    }

    @Test func idsMatchAsMapLibreMatchesThem() throws {
        // A string id given to the API names the number id; a GeoJSON string id counts by its
        // leading integer ("12abc" is 12); an id that is not one ("abc") has no state.
        var m = try Self.model(Self.style(Self.points(["1", "\"12abc\"", "\"abc\""], ["0", "0", "0"])))
        try m.setFeatureState(source: "s", id: .string("1"), state: ["r": .number(2)])
        try m.setFeatureState(source: "s", id: .number(12), state: ["r": .number(3)])
        try m.setFeatureState(source: "s", id: .string("abc"), state: ["r": .number(4)])
        #expect(Self.radii(m) == [2, 3, 1])
        #expect(try m.featureState(source: "s", id: .string("1.0")) == ["r": .number(2)])
        #expect(throws: StyleError.self) { try m.setFeatureState(source: "s", id: .array([]), state: [:]) }
    }

    @Test func promoteIdNamesTheProperty() throws {
        // Ids 1, 1, 1 (never used with promoteId); the property holds strings that are ids.
        let source = Self.points(["1", "1", "1"], ["\"9007199254740992\"", "\"9007199254740993\"", "\"1.2\""])
            .replacingOccurrences(of: #""type": "geojson","#, with: #""type": "geojson", "promoteId": "p","#)
        var m = try Self.model(Self.style(source))
        try m.setFeatureState(source: "s", id: .string("9007199254740992"), state: ["r": .number(2)])
        try m.setFeatureState(source: "s", id: .string("1.2"), state: ["r": .number(3)])
        // Past 2^53 the strings are compared, not the numbers they round to.
        #expect(Self.radii(m) == [2, 1, 3])
        try m.setFeatureState(source: "s", id: .number(1), state: ["r": .number(9)])
        #expect(Self.radii(m) == [2, 1, 3], "the feature's own id is not its id under promoteId")
    }

    @Test func promoteIdBySourceLayer() throws {
        let json = try JSON.parse(Data(#"{"type": "vector", "promoteId": {"roads": "ref", "pois": "name"}}"#.utf8), name: "s")
        let promote = try PromoteId(sourceJSON: json, path: "sources.v")
        #expect(promote == .perLayer(["roads": "ref", "pois": "name"]))
        #expect(promote?.property(forLayer: "roads") == "ref" && promote?.property(forLayer: "water") == nil)
        let bad = try JSON.parse(Data(#"{"type": "vector", "promoteId": 3}"#.utf8), name: "s")
        #expect(throws: StyleError.self) { try PromoteId(sourceJSON: bad, path: "sources.v") }
        // A document's promoteId is read with its source.
        let doc = try StyleDocument(data: Data(Self.style(Self.points(["1"], ["0"]).replacingOccurrences(
            of: #""type": "geojson","#, with: #""type": "geojson", "promoteId": "p","#)).utf8), name: "d")
        #expect(doc.promoteIds["s"] == .property("p"))
    }

    @Test func vectorSourcesKeepStatesBySourceLayerWithPromoteIdPerLayer() throws {
        // One tile with two source layers: "roads" promotes "ref", "pois" keeps the features' ids.
        guard let tile = TileID(z: 0, x: 0, y: 0) else { Issue.record("no tile"); return }
        func point(_ lng: Double, id: Double, ref: String) -> GeoFeature {
            GeoFeature(geometry: FeatureGeometry(point: WebMercator.project(LngLat(lng: lng, lat: 0))),
                       evaluation: EvaluationFeature(properties: ["ref": .string(ref)], id: .number(id), geometryType: "Point"))
        }
        let set = TileSet(definition: TiledSourceDefinition(), kind: .vector)
        set.deliver(tile, .vector(VectorTileFeatures(tile: tile, layers: ["roads": [point(-10, id: 1, ref: "A1"), point(10, id: 2, ref: "A2")],
                                                                            "pois": [point(-10, id: 1, ref: "A1"), point(10, id: 2, ref: "A2")]])))
        let spec = try #require(StyleProperties.paint(.circle).byName["circle-radius"])
        let radius = try PropertyValue(json: .array([.string("coalesce"), .array([.string("feature-state"), .string("r")]), .number(1)]),
                                       spec: spec, path: "circle-radius")
        var style = Style(sources: ["v": .tiles(set)], layers: ["roads", "pois"].map { name in
            Layer(LayerDefinition(id: name, type: .circle, source: "v", sourceLayer: name, paint: ["circle-radius": radius]))
        })
        style.featureStates.promoteIds["v"] = .perLayer(["roads": "ref"])
        var m = MapModel(style: style, size: ViewportSize(width: 64, height: 64), camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0))
        func radii(_ layer: String) -> [Double] {
            guard case let .circle(draw)? = m.frame().layers.first(where: { $0.id == layer })?.content else { return [] }
            return draw.items.map(\.paint.radius)
        }
        #expect(throws: StyleError.self) { try m.setFeatureState(source: "v", id: .number(1), state: ["r": .number(3)]) }
        try m.setFeatureState(source: "v", sourceLayer: "roads", id: .string("A2"), state: ["r": .number(3)])
        try m.setFeatureState(source: "v", sourceLayer: "pois", id: .number(1), state: ["r": .number(4)])
        #expect(radii("roads") == [1, 3] && radii("pois") == [4, 1])
        // Removing all of one source layer leaves the other's.
        try m.removeFeatureState(source: "v", sourceLayer: "roads")
        #expect(radii("roads") == [1, 1] && radii("pois") == [4, 1])
    }

    @Test func targetsAreChecked() throws {
        var m = try Self.model(Self.style(Self.points(["1"], ["0"])))
        #expect(throws: StyleError.self) { try m.setFeatureState(source: "nope", id: .number(1), state: [:]) }
        #expect(throws: StyleError.self) { try m.setFeatureState(source: "s", sourceLayer: "l", id: .number(1), state: [:]) }
        #expect(throws: StyleError.self) { try m.removeFeatureState(source: "s", key: "r") }
        // A removed source forgets its states.
        try m.setFeatureState(source: "s", id: .number(1), state: ["r": .number(3)])
        try m.removeLayer("c")
        try m.removeSource("s")
        try m.addSource("s", geojson: GeoJSONData(features: []))
        #expect(try m.featureState(source: "s", id: .number(1)).isEmpty)
    }

    @Test func featureStateIsForPaintOnly() throws {
        let layout = #"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": "a", "text-size": ["coalesce", ["feature-state", "s"], 12]}}]}
        """#
        // (Named, and the property left at its default.)
        let named = try StyleDocument(data: Data(layout.utf8), name: "l")
        #expect(named.warnings.contains { $0.contains("layers[0].layout.text-size") && $0.contains("\"feature-state\" data expressions are not supported with layout properties") })
        #expect(named.layers.first?.layout["text-size"] == nil)
        #expect { try Filter(json: try JSON.parse(Data(#"["==", ["feature-state", "a"], 1]"#.utf8), name: "f"), path: "layers[1].filter") } throws: { error in
            "\(error)" == "layers[1].filter: \"feature-state\" data expressions are not supported with filters"
        }
        // A paint property that is not data-driven does not take it either.
        let opacity = #"""
        {"version": 8, "sources": {}, "layers": [{"id": "b", "type": "background", "paint": {"background-opacity": ["coalesce", ["feature-state", "o"], 1]}}]}
        """#
        let background = try StyleDocument(data: Data(opacity.utf8), name: "o")
        #expect(background.warnings.contains { $0.contains("data expressions not supported") })
        #expect(background.layers.first?.paint["background-opacity"] == nil)
    }
}
