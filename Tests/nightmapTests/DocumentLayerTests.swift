import Foundation
import NightmapApp
import MapCore
import MapData
import MapRender
import Raster
import Testing
@testable import nightmap

/// The radar and the route are the document's own layers: a zoom function on the radar's
/// opacity works at every zoom (it was evaluated once, at the start zoom), and a colour changed in
/// a copy of nightmap.json shows on the route.
@Suite struct DocumentLayerTests {
    /// A copy of nightmap.json with its radar opacity and route colour replaced (its relative
    /// paths made absolute), in a folder of its own.
    static func styleCopy(radarOpacity: String, routeColor: String = "#ffffff") throws -> URL {
        let resources = try ResourceLocator.resourcesDirectory()
        var text = try String(contentsOf: resources.appendingPathComponent("style/nightmap.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"../radar/radar0.gif\"", with: "\"\(resources.appendingPathComponent("radar/radar0.gif").path)\"")
        text = text.replacingOccurrences(of: "\"../routes/default.geojson\"", with: "\"\(resources.appendingPathComponent("routes/default.geojson").path)\"")
        text = text.replacingOccurrences(of: "pmtiles://../basemap/", with: "pmtiles://\(resources.appendingPathComponent("basemap").path)/")
        text = text.replacingOccurrences(of: "\"streets.json\"", with: "\"\(resources.appendingPathComponent("style/streets.json").path)\"")
        let radar = #""paint": { "raster-fade-duration": 0, "raster-emissive-strength": 1 }"#
        let route = ##""line-color": "#ffffff""##
        #expect(text.contains(radar) && text.contains(route), "nightmap.json changed: update this test")
        text = text.replacingOccurrences(of: radar, with: #""paint": { "raster-fade-duration": 0, "raster-emissive-strength": 1, "raster-opacity": \#(radarOpacity) }"#)
        text = text.replacingOccurrences(of: route, with: "\"line-color\": \"\(routeColor)\"")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("copy.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The map opened at its start zoom (5), then zoomed to `zoom`, as a user would.
    static func render(_ style: URL, zoom: Double) throws -> Pixmap {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--radar", "demo", "--time", "2025-10-01T12:00:00Z", "--elapsed", "0.9",
                                   "--size", "640x400", "--style", style.path])
        var model = try MapSetup.model(o)
        model.jump(to: CameraState(center: model.camera.state.center, zoom: zoom))
        let pm = Pixmap(width: model.camera.size.width, height: model.camera.size.height)
        FrameRenderer().render(model.frame(), into: pm)
        return pm
    }

    /// Over the pixels where the radar shows, the median of (shown - none) / (full - none): the
    /// radar's effective opacity.
    static func opacity(_ shown: Pixmap, full: Pixmap, none: Pixmap) -> Double {
        var ratios: [Double] = []
        for y in 0..<full.height {
            for x in 0..<full.width {
                let f = full.color(atX: x, y: y), n = none.color(atX: x, y: y), s = shown.color(atX: x, y: y)
                let df = Double(f.g) - Double(n.g)
                guard abs(df) >= 60 else { continue }
                ratios.append((Double(s.g) - Double(n.g)) / df)
            }
        }
        guard !ratios.isEmpty else { return .nan }
        ratios.sort()
        return ratios[ratios.count / 2]
    }

    @Test func aZoomFunctionOnTheRadarsOpacityHoldsAtEveryZoom() throws {
        let function = try Self.styleCopy(radarOpacity: #"["interpolate", ["linear"], ["zoom"], 4, 0.2, 6, 1]"#)
        let full = try Self.styleCopy(radarOpacity: "1"), none = try Self.styleCopy(radarOpacity: "0")
        defer { for u in [function, full, none] { try? FileManager.default.removeItem(at: u.deletingLastPathComponent()) } }
        for (zoom, expected) in [(4.0, 0.2), (5.9, 0.96)] {
            let a = Self.opacity(try Self.render(function, zoom: zoom), full: try Self.render(full, zoom: zoom),
                                 none: try Self.render(none, zoom: zoom))
            #expect(abs(a - expected) < 0.03, "zoom \(zoom): the radar shows at opacity \(a), the function says \(expected)")
        }
    }

    @Test func aRouteColourFromTheDocumentShows() throws {
        let red = try Self.styleCopy(radarOpacity: "1", routeColor: "#ff2020")
        let white = try Self.styleCopy(radarOpacity: "1")
        defer { for u in [red, white] { try? FileManager.default.removeItem(at: u.deletingLastPathComponent()) } }
        func reds(_ pm: Pixmap) -> Int {
            var n = 0
            for y in 0..<pm.height { for x in 0..<pm.width {
                let c = pm.color(atX: x, y: y)
                if c.r > 200 && c.g < 90 && c.b < 90 { n += 1 }
            } }
            return n
        }
        let shown = reds(try Self.render(red, zoom: 5.9)), before = reds(try Self.render(white, zoom: 5.9))
        #expect(shown > before + 100, "red route pixels: \(shown) with #ff2020, \(before) with white")
    }
}
