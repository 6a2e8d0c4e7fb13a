import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// Feature state and global state drawn: a circle's colour read from its state and from the
/// global state, at a known pixel, before and after each change (the frame after a change
/// draws it, though every layer's features are otherwise kept between frames).
@Suite struct StateRenderTests {
    static let text = #"""
    {"version": 8, "state": {"fallback": {"default": "blue"}},
     "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": 0, "properties": {}, "geometry": {"type": "Point", "coordinates": [-10, 0]}},
        {"type": "Feature", "id": 1, "properties": {}, "geometry": {"type": "Point", "coordinates": [10, 0]}}]}}},
     "layers": [{"id": "c", "type": "circle", "source": "p",
                 "paint": {"circle-radius": 6, "circle-color": ["coalesce", ["feature-state", "color"], ["global-state", "fallback"]]}}]}
    """#

    @Test func paintFollowsTheStates() throws {
        let doc = try StyleDocument(data: Data(Self.text.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        var model = MapModel(style: Style(document: doc, features: features, images: [:]), size: ViewportSize(width: 64, height: 64),
                             camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0))
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        func pixels() -> (left: RGBA8, right: RGBA8) {
            let pm = Pixmap(width: 64, height: 64)
            renderer.render(model.frame(), into: pm)
            // 10 degrees at zoom 0 is 14.2 px from the centre.
            return (pm.color(atX: 18, y: 32), pm.color(atX: 46, y: 32))
        }
        #expect(pixels() == (RGBA8(0, 0, 255), RGBA8(0, 0, 255)))
        try model.setFeatureState(source: "p", id: .number(0), state: ["color": .string("red")])
        #expect(pixels() == (RGBA8(255, 0, 0), RGBA8(0, 0, 255)))
        model.setGlobalStateProperty("fallback", .string("#00ff00"))
        #expect(pixels() == (RGBA8(255, 0, 0), RGBA8(0, 255, 0)))
        try model.removeFeatureState(source: "p", id: .number(0), key: "color")
        #expect(pixels() == (RGBA8(0, 255, 0), RGBA8(0, 255, 0)))
        model.setGlobalStateProperty("fallback", .null)
        #expect(pixels() == (RGBA8(0, 0, 255), RGBA8(0, 0, 255)))
    }
}
