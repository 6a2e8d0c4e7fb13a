import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// A large GeoJSON source drawn through its index gives the pixels of drawing every feature, as
/// the camera pans across (and past) the region the index evaluated, across the antimeridian.
@Suite struct IndexedSourceRenderTests {
    @Test func panningThroughAnIndexedSourceDrawsWhatAFullScanDraws() throws {
        var features: [GeoFeature] = []
        var state: UInt64 = 3
        for i in 0..<5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Around the equator from 162 E to 162 W, across the antimeridian: hundreds in a view.
            let x = (0.95 + 0.1 * Double(state >> 11) / Double(1 << 53)).truncatingRemainder(dividingBy: 1)
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let y = 0.49 + 0.02 * Double(state >> 11) / Double(1 << 53)
            let p = MercatorPoint(x: x, y: y)
            let parts = i % 3 == 0 ? [[p, MercatorPoint(x: x + 0.002, y: y + 0.001)]] : [[p]]
            features.append(GeoFeature(geometry: FeatureGeometry(kind: i % 3 == 0 ? .lines : .points, parts: parts),
                                       evaluation: EvaluationFeature(properties: ["r": .number(Double(2 + i % 5))])))
        }
        let data = GeoJSONData(features: features)
        let text = #"""
        { "version": 8, "sources": { "p": { "type": "geojson", "data": { "type": "FeatureCollection", "features": [] } } },
          "layers": [ { "id": "bg", "type": "background", "paint": { "background-color": "black" } },
                      { "id": "l", "type": "line", "source": "p", "paint": { "line-color": "#88f", "line-width": 3 } },
                      { "id": "c", "type": "circle", "source": "p", "paint": { "circle-radius": ["get", "r"], "circle-color": "#fc0" } } ] }
        """#
        let document = try StyleDocument(data: Data(text.utf8), name: "big.json")
        let size = ViewportSize(width: 320, height: 200)
        var m = MapModel(style: Style(document: document, features: ["p": data], images: [:]), size: size,
                         camera: CameraState(center: LngLat(lng: 170, lat: 0), zoom: 5))
        let renderer = FrameRenderer()
        var compared = 0
        for step in 0..<40 {
            m.pan(dx: -37, dy: step % 2 == 0 ? 11 : -11)             // eastwards, over the antimeridian
            let indexed = m.frame()
            // The same frame with every feature evaluated (the public evaluation, no region).
            let e = StyleEvaluation(zoom: m.camera.state.zoom, pixelRatio: 1, light: .white, worldSize: m.camera.view.worldSize)
            let full = FrameDescription(view: indexed.view, layers: m.style.layers.compactMap {
                $0.styled.drawLayer(m.style, e, image: { _, _ in nil })
            })
            let a = Pixmap(width: size.width, height: size.height), b = Pixmap(width: size.width, height: size.height)
            renderer.render(indexed, into: a)
            FrameRenderer().render(full, into: b)
            let same = (0..<(size.width * size.height)).allSatisfy { a.pixels[$0] == b.pixels[$0] }
            #expect(same, "step \(step): the indexed frame differs at centre \(m.camera.state.center)")
            compared += 1
        }
        #expect(compared == 40)
    }
}
