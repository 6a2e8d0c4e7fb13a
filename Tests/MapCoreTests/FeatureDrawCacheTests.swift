import Foundation
import MapCore
import Testing
import TestSupport

/// Document layers drawn feature by feature are kept between frames; every change a frame must
/// show still shows (the layer's properties, its source's data, the zoom a function reads, the
/// light, the instant of a transition).
@Suite struct FeatureDrawCacheTests {
    func model() throws -> MapModel {
        let text = #"""
        { "version": 8, "sources": { "s": { "type": "geojson", "data": { "type": "LineString", "coordinates": [[-1, 0], [1, 0]] } } },
          "layers": [
            { "id": "fixed", "type": "line", "source": "s", "paint": { "line-width": 2 } },
            { "id": "zoomed", "type": "line", "source": "s", "paint": { "line-width": ["interpolate", ["linear"], ["zoom"], 0, 1, 10, 11] } } ] }
        """#
        let document = try StyleDocument(data: Data(text.utf8), name: "cache.json")
        var features: [String: GeoJSONData] = [:]
        if case let .geojson(.inline(d))? = document.sources["s"] { features["s"] = d }
        return MapModel(style: Style(document: document, features: features, images: [:]), size: ViewportSize(width: 64, height: 64),
                        camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 4))
    }

    func width(_ m: MapModel, _ id: String) -> Double? {
        m.frame().layers.first(where: { $0.id == id })?.lineFeatures?.items.first?.paint.width
    }

    @Test func whatAFrameMustShowStillShows() throws {
        var m = try model()
        #expect(width(m, "fixed") == 2 && width(m, "zoomed") == 5)
        // Panning changes nothing the layers draw.
        m.pan(dx: 10, dy: 5)
        #expect(width(m, "fixed") == 2 && width(m, "zoomed") == 5)
        // A zoom function follows the zoom; a constant does not care.
        m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 6))
        #expect(width(m, "fixed") == 2 && width(m, "zoomed") == 7)
        // A property change, at once and through a transition at its instants.
        try m.setPaintProperty(layer: "fixed", "line-width", json: .number(4), at: 0)
        #expect(width(m, "fixed") == 2)
        m.advance(to: 0.15)
        let mid = width(m, "fixed") ?? 0
        #expect(mid > 2 && mid < 4)
        m.advance(to: 0.3)
        #expect(width(m, "fixed") == 4)
        // New data.
        try m.updateGeoJSONSource("s", GeoJSONData(features: []))
        #expect(width(m, "fixed") == nil && width(m, "zoomed") == nil)
        try m.updateGeoJSONSource("s", GeoJSONData.lines([[LngLat(lng: 0, lat: 0), LngLat(lng: 1, lat: 1)]]))
        #expect(width(m, "fixed") == 4)
        // The light (colours are lit by it).
        m.lighting = true
        try m.setPaintProperty(layer: "fixed", "line-color", json: .string("white"), at: 0)
        guard let white = m.frame().layers.first?.lineFeatures?.items.first?.paint else { Issue.record("no line"); return }
        #expect(white.color != .white, "lit by the night preset")
        m.lighting = false
        guard let plain = m.frame().layers.first?.lineFeatures?.items.first?.paint else { Issue.record("no line"); return }
        #expect(plain.color == .white)
    }
}
