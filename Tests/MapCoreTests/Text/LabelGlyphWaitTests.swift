import Foundation
@testable import MapCore
import Testing

/// A label waits for its glyphs: while its source is still loading them the layer has no label,
/// and the source's next arrival (its generation) brings the label without any other change.
@Suite struct LabelGlyphWaitTests {
    /// Glyphs that arrive when the test says so; each one a 10 x 10 square advancing 12 px.
    final class ArrivingGlyphs: GlyphSource, @unchecked Sendable {
        private let lock = NSLock()
        private var arrived = false, arrivals = 0
        private(set) var asked: [String: Set<UInt32>] = [:]
        func arrive() { lock.lock(); arrived = true; arrivals += 1; lock.unlock() }
        func request(_ codePoints: [UInt32], stack: String) -> Bool {
            lock.lock(); defer { lock.unlock() }
            asked[stack, default: []].formUnion(codePoints)
            return arrived
        }
        func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
            lock.lock(); defer { lock.unlock() }
            guard arrived, codePoint != 0x20 else { return arrived ? SDFGlyph(codePoint: 0x20, width: 0, height: 0, left: 0, top: -26, advance: 6, bitmap: []) : nil }
            return SDFGlyph(codePoint: codePoint, width: 10, height: 10, left: 1, top: -8, advance: 12, bitmap: [UInt8](repeating: 200, count: 256))
        }
        var generation: Int { lock.lock(); defer { lock.unlock() }; return arrivals }
    }

    static func model(_ glyphs: ArrivingGlyphs) throws -> MapModel {
        let text = """
        { "version": 8, "sources": { "points": { "type": "geojson", "data": { "type": "Feature",
            "geometry": { "type": "Point", "coordinates": [0, 0] }, "properties": { "name": "Oulu Tampere" } } } },
          "layers": [ { "id": "labels", "type": "symbol", "source": "points",
                        "layout": { "text-field": ["get", "name"], "text-font": ["Noto Sans Regular", "Arial Unicode MS Regular"] } } ] }
        """
        let document = try StyleDocument(data: Data(text.utf8), name: "labels.json")
        guard case let .geojson(.inline(data))? = document.sources["points"] else { throw StyleError("no inline source") }
        var style = Style(document: document, features: ["points": data], images: [:])
        style.glyphs = glyphs
        return MapModel(style: style, size: ViewportSize(width: 400, height: 300),
                        camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3))
    }

    static func labels(_ m: MapModel) -> [String] {
        m.frame().layers.first { $0.id == "labels" }?.symbols?.set.symbols.compactMap { $0.text?.string } ?? []
    }

    @Test func aLabelAppearsWhenItsGlyphsArrive() throws {
        let glyphs = ArrivingGlyphs()
        let m = try Self.model(glyphs)
        #expect(Self.labels(m).isEmpty, "a label was shaped without its glyphs")
        // The stack is asked for as MapLibre names it, with the label's code points.
        #expect(glyphs.asked["Noto Sans Regular,Arial Unicode MS Regular"] == Set("Oulu Tampere".unicodeScalars.map(\.value)))
        #expect(Self.labels(m).isEmpty, "a second frame shaped it before anything arrived")
        glyphs.arrive()
        #expect(Self.labels(m) == ["Oulu Tampere"])
    }
}
