import Foundation
import MapCore
import Testing

/// The GeoJSON feature index: a query finds every feature whose box touches the box (in any
/// world copy), in source order, and a frame evaluates only the features around the view.
@Suite struct FeatureIndexTests {
    /// `n` features: points, short lines and a few long lines (spanning many cells), seeded.
    static func data(_ n: Int, seed: UInt64 = 7) -> GeoJSONData {
        var state = seed
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var features: [GeoFeature] = []
        for i in 0..<n {
            let x = random(), y = 0.2 + 0.6 * random()
            let parts: [[MercatorPoint]]
            switch i % 10 {
            case 0: parts = [[MercatorPoint(x: x, y: y), MercatorPoint(x: min(1, x + 0.3), y: y + 0.1)]]    // long
            case 1, 2, 3: parts = [[MercatorPoint(x: x, y: y), MercatorPoint(x: x + 0.001, y: y + 0.001)]]
            default: parts = [[MercatorPoint(x: x, y: y)]]
            }
            features.append(GeoFeature(geometry: FeatureGeometry(kind: parts[0].count == 1 ? .points : .lines, parts: parts),
                                       evaluation: EvaluationFeature(properties: ["i": .number(Double(i))])))
        }
        return GeoJSONData(features: features)
    }

    func touches(_ g: FeatureGeometry, _ b: MercatorBox) -> Bool {
        guard g.maxY >= b.minY, g.minY <= b.maxY else { return false }
        for k in -2...2 where g.maxX >= b.minX + Double(k) && g.minX <= b.maxX + Double(k) { return true }
        return false
    }

    @Test func aQueryFindsWhatABruteForceScanFinds() throws {
        let d = Self.data(2000)
        let index = try #require(d.index)
        var rng = 0x9E37_79B9_7F4A_7C15 as UInt64
        func r() -> Double { rng = rng &* 6364136223846793005 &+ 1; return Double(rng >> 11) / Double(1 << 53) }
        var out: [Int32] = [], seen: [Bool] = []
        for _ in 0..<300 {
            let w = 0.3 * r(), h = 0.3 * r(), x = -1.5 + 3 * r(), y = r()
            let box = MercatorBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
            index.query(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, into: &out, seen: &seen)
            let got = Set(out.map(Int.init))
            #expect(out == out.sorted() && got.count == out.count, "in order, no repeats")
            for (i, f) in d.features.enumerated() where touches(f.geometry, box) {
                #expect(got.contains(i), "feature \(i) missed for \(box)")
            }
            #expect(got.count < d.features.count || w > 0.29, "a small box does not take everything")
        }
        index.query(minX: -3, minY: 0, maxX: 3, maxY: 1, into: &out, seen: &seen)
        #expect(out.count == d.features.count)
    }

    @Test func smallSourcesHaveNoIndex() {
        #expect(Self.data(FeatureIndex.minimumFeatures - 1).index == nil)
        #expect(Self.data(FeatureIndex.minimumFeatures).index != nil)
    }

    @Test func aFrameEvaluatesOnlyTheFeaturesAroundTheView() throws {
        let text = #"{ "version": 8, "sources": {}, "layers": [{ "id": "c", "type": "circle", "source": "p", "paint": { "circle-radius": 2 } }] }"#
        let document = try StyleDocument(data: Data(text.replacingOccurrences(of: "\"sources\": {}", with:
            #""sources": { "p": { "type": "geojson", "data": { "type": "FeatureCollection", "features": [] } } }"#).utf8), name: "many.json")
        var m = MapModel(style: Style(document: document, features: ["p": Self.data(20_000)], images: [:]),
                         size: ViewportSize(width: 256, height: 256), camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 6))
        func drawn() -> Int { if case let .circle(f)? = m.frame().layers.first?.content { f.items.count } else { 0 } }
        let near = drawn()
        #expect(near > 0 && near < 2000, "\(near) of 20 000 evaluated at zoom 6")
        // Whole world: every feature.
        m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0))
        #expect(drawn() == 20_000)
    }
}
