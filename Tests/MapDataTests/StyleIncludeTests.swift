import Foundation
import MapCore
import MapData
import Testing

/// `"nightmap:include"`: another document's sources and layers read into a style document,
/// placed before a named layer and shown from a zoom at the least; bad entries and shared ids
/// are errors naming them.
@Suite struct StyleIncludeTests {
    func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("include-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    static let streets = #"""
    {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
     "layers": [{"id": "s-fill", "type": "fill", "source": "s"}, {"id": "s-line", "type": "line", "source": "s", "minzoom": 15}]}
    """#

    func main(_ include: String, layer: String = "top") -> String {
        #"{"version": 8, "metadata": {"nightmap:include": \#(include)}, "sources": {}, "layers": [{"id": "bg", "type": "background"}, {"id": "\#(layer)", "type": "background"}]}"#
    }

    @Test func layersGoBeforeTheNamedOneFromTheZoomGiven() throws {
        let dir = try folder(["main.json": main(#"[{"style": "streets.json", "minzoom": 12, "before": "top"}]"#), "streets.json": Self.streets])
        defer { try? FileManager.default.removeItem(at: dir) }
        let d = try StyleLoader.readDocument(path: dir.appendingPathComponent("main.json").path)
        #expect(d.layers.map(\.id) == ["bg", "s-fill", "s-line", "top"])
        #expect(d.layers.map(\.minZoom) == [0, 12, 15, 0])
        #expect(d.sources["s"] != nil)
    }

    @Test func badIncludesAreNamed() throws {
        let cases: [(String, String, String)] = [
            (#"{"style": "streets.json"}"#, "top", "expected an array of objects"),
            (#"[{"minzoom": 3}]"#, "top", #"[0]: expected an object with a "style" file"#),
            (#"[{"style": "streets.json", "before": "nowhere"}]"#, "top", "[0].before: expected the id of one of the document's layers"),
            (#"[{"style": "streets.json", "minzoom": -1}]"#, "top", "[0].minzoom: expected a number within 0...24"),
            (#"[{"style": "missing.json"}]"#, "top", "missing.json: no such file"),
            (#"[{"style": "streets.json"}]"#, "s-line", #"streets.json and the document both have a layer "s-line""#),
        ]
        for (include, layer, message) in cases {
            let dir = try folder(["main.json": main(include, layer: layer), "streets.json": Self.streets])
            defer { try? FileManager.default.removeItem(at: dir) }
            do {
                _ = try StyleLoader.readDocument(path: dir.appendingPathComponent("main.json").path)
                Issue.record("\(include) was accepted")
            } catch let e as StyleDocumentError {
                #expect(e.problems.count == 1 && e.problems[0].contains(message), "\(e.problems)")
            }
        }
    }
}
