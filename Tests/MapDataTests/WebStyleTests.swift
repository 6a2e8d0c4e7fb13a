import Foundation
import MapCore
@testable import MapData
import Raster
import Testing
import TestSupport

/// A style document on the web: read through the cache, its relative sprite and data URLs
/// resolved against its own URL, a sprite the server does not have named and left out.
@Suite struct WebStyleTests {
    static let style = #"""
    {"version": 8, "name": "web", "sprite": [{"id": "default", "url": "sprites/a"}, {"id": "gone", "url": "/missing/b"}],
     "sources": {"g": {"type": "geojson", "data": "data/points.geojson"}},
     "layers": [{"id": "c", "type": "circle", "source": "g"}]}
    """#
    static let points = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#
    static let spriteIndex = #"{"dot": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#

    static func server() throws -> LocalHTTPServer {
        let png = try PNGCodec.encode(Pixmap(width: 2, height: 2))
        return try LocalHTTPServer(.route { target in
            switch target {
            case "/maps/style.json": return .json(style)
            case "/maps/data/points.geojson": return .json(points)
            case "/maps/sprites/a.json": return .json(spriteIndex)
            case "/maps/sprites/a.png": return .image(png, type: "image/png")
            default: return .status(404, "<html>Not Found</html>")
            }
        })
    }

    @Test func aStyleOnTheWebLoadsWithItsRelativeResources() throws {
        let server = try Self.server()
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-web-style-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let web = HTTPCache(directory: dir, timeout: 2)
        let location = "http://127.0.0.1:\(server.port)/maps/style.json"
        let document = try StyleLoader.readDocument(path: location, web: web)
        #expect(document.name == "web" && document.warnings.isEmpty)
        let resolver = ResourceResolver(styleDirectory: nil, assets: nil, web: web, styleURL: StyleLoader.webStyleURL(location))
        var reported: [String] = []
        let style = try StyleLoader.style(for: document, resolver: resolver, report: { reported.append($0) })
        #expect(style.sprite?.icons.keys.sorted() == ["dot"])
        guard case let .geojson(data)? = style.sources["g"] else { Issue.record("no GeoJSON source"); return }
        #expect(data.features.count == 1)
        #expect(reported.count == 1 && reported[0].hasPrefix("sprite \"gone\": http://127.0.0.1:\(server.port)/missing/b.json: not found"))
        #expect(style.skipped == reported)
    }

    @Test func aMissingWebStyleIsOneLineNamingIt() throws {
        let server = try Self.server()
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-web-style-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let location = "http://127.0.0.1:\(server.port)/maps/nothing.json"
        do {
            _ = try StyleLoader.readDocument(path: location, web: HTTPCache(directory: dir, timeout: 2))
            Issue.record("a missing style was read")
        } catch let e as StyleDocumentError {
            #expect(e.problems == ["\(location): not found (HTTP 404)"])
        }
    }
}
