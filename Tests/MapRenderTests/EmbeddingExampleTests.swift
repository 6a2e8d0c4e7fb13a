import Foundation
import MapCore
import MapRender
import Raster
import Testing
import TestSupport

/// The README's example of a program embedding the engine, run as written.
@Suite struct EmbeddingExampleTests {
    @Test func theReadmeExampleDrawsItsDotHalfwayThroughTheTransition() throws {
        let document = try StyleDocument(json: try JSON.parse(Data(#"""
          {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#0b1016"}}]}
          """#.utf8), name: "mine.json"))
        var map = MapModel(style: Style(document: document, features: [:], images: [:]), size: ViewportSize(width: 640, height: 400),
                           camera: CameraState(center: LngLat(lng: -74, lat: 40.7), zoom: 9))
        try map.addSource("here", geojson: GeoJSONData.point(LngLat(lng: -74, lat: 40.7)))
        try map.addLayer(LayerDefinition(json: try JSON.parse(Data(#"""
          {"id": "dot", "type": "circle", "source": "here", "paint": {"circle-radius": 6, "circle-color": "#ffcc00"}}
          """#.utf8), name: "dot"), sources: ["here": .geojson(.inline(GeoJSONData(features: [])))]))
        try map.setPaintProperty(layer: "dot", "circle-radius", json: .number(12), at: 0)   // grows over 300 ms
        map.advance(to: 0.15)
        let pixmap = Pixmap(width: 640, height: 400)
        FrameRenderer().render(map.frame(), into: pixmap)            // halfway through the transition

        // Radius 6 + 6 x ease(0.5) = 10.8 px around the centre.
        let r = 6 + 6 * referenceEase(0.5)
        func yellow(_ x: Int) -> Bool { let c = pixmap.color(atX: x, y: 200); return c.r > 200 && c.g > 150 && c.b < 80 }
        #expect(yellow(320) && yellow(320 + Int(r) - 2) && yellow(320 - Int(r) + 1))
        #expect(!yellow(320 + Int(r) + 2) && !yellow(320 - Int(r) - 2))
        let bg = pixmap.color(atX: 10, y: 10)
        #expect(bg.r == 0x0b && bg.g == 0x10 && bg.b == 0x16)
    }
}
