import Foundation
import NightmapApp
import MapCore
import MapData
import Raster
import Testing
import TestSupport
@testable import nightmap

@Suite struct OptionsTests {
    @Test func defaults() throws {
        let o = try Options.parse([])
        #expect(o.command == .view && o.size == ViewportSize(width: 1280, height: 800) && o.scene == "radar")
        #expect(o.elapsed == 0 && o.center == nil && o.zoom == nil)
    }

    @Test func bothSpellingsAndNegativeNumbers() throws {
        let a = try Options.parse(["snapshot", "-o", "x.png", "--center=40.5,-74.25", "--zoom", "4.5", "--size=640x480"])
        #expect(a.command == .snapshot && a.output == "x.png")
        #expect(a.center == LngLat(lng: -74.25, lat: 40.5) && a.zoom == 4.5 && a.size == ViewportSize(width: 640, height: 480))
        let b = try Options.parse(["state", "--center", "40.5,-74.25", "--elapsed=2.5", "--time", "2026-11-30T12:00:00Z"])
        #expect(b.center == LngLat(lng: -74.25, lat: 40.5) && b.elapsed == 2.5 && b.time == 1_796_040_000)
        let c = try Options.parse(["bench", "--frames=20"])
        #expect(c.command == .bench && c.frames == 20)
        let d = try Options.parse(["soak", "--minutes", "0.5"])
        #expect(d.command == .soak && d.minutes == 0.5)
        #expect(try Options.parse(["soak"]).minutes == 60)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--size", "12x"], "option --size"),
        (["--size=0x10"], "option --size"),
        (["--center", "91,0"], "option --center"),
        (["--center", "40"], "option --center"),
        (["--zoom", "abc"], "option --zoom: 'abc' is not a number"),
        (["--zoom", "nan"], "option --zoom"),
        (["--scene", "moon"], "unknown scene 'moon'"),
        (["--time", "yesterday"], "option --time"),
        (["--elapsed=-1"], "option --elapsed"),
        (["--zoom"], "option --zoom needs a value"),
        (["snapshot"], "snapshot needs -o FILE.png"),
        (["paint"], "unknown command 'paint'"),
        (["soak", "--minutes", "0"], "option --minutes: '0'"),
        (["soak", "--minutes=inf"], "option --minutes"),
    ])
    func badInputNamesTheOption(args: [String], message: String) {
        do {
            _ = try Options.parse(args)
            Issue.record("\(args) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(args): \(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }
}

/// `--style`: nightmap's own map is a style document; another document replaces it.
@Suite struct StyleOptionTests {
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "nightmap-style-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func parsesStyle() throws {
        let o = try Options.parse(["snapshot", "-o", "x.png", "--style", "a.json"])
        #expect(o.style == "a.json")
        #expect(!o.lightGiven)
        #expect(try Options.parse(["--light", "day"]).lightGiven)
    }

    @Test func defaultMapComesFromTheBundledDocument() throws {
        let m = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--iss", "tle"]))
        // Basemap layers as the document lists them, then the street map's (streets.json, from
        // zoom 12), the night's shading, the clouds, the radar and the warnings after them, labels under the route steps,
        // the ISS layers last.
        let ids = m.style.layers.map(\.id)
        let streets = try StyleLoader.readDocument(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("style/streets.json").path)
        let n = streets.layers.count
        #expect(Array(ids.prefix(3)) == ["background", "land", "lakes"] && Array(ids[3..<(3 + n)]) == streets.layers.map(\.id))
        #expect(m.style.layers[3..<(3 + n)].allSatisfy { $0.minZoom >= 12 })
        #expect(Array(ids[(3 + n)..<(11 + n)]) == ["night", "clouds", "radar", "warnings-fill", "warnings-line", "coastline", "state-borders", "country-borders"])
        #expect(ids.contains("city-labels") && ids.firstIndex(of: "city-labels")! < ids.firstIndex(of: "route-step-0")!)
        #expect(ids.suffix(5) == ["iss-track-past", "iss-track-future", "iss-track-seen", "observer", "iss"])
        #expect(m.model.lighting)
        // (The last step has not been pulsed yet at instant 0.)
        guard let step = m.frame().layers.first(where: { $0.id == "route-step-13" })?.lineFeatures?.items.first?.paint else {
            Issue.record("no route step"); return
        }
        #expect(step.width == 8 && step.cap == .round && step.color == .white && step.opacity == 0)
    }

    @Test func anotherDocumentReplacesTheMap() throws {
        let path = try write(#"""
        {"version": 8, "center": [10, 20], "zoom": 3, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [10, 20]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}},
                    {"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 8, "circle-color": "#ff0000"}}]}
        """#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let m = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", path, "--size", "100x100"]))
        #expect(m.style.layers.map(\.id) == ["bg", "c"])
        #expect(m.camera.state.center == LngLat(lng: 10, lat: 20) && m.camera.state.zoom == 3)
        #expect(!m.model.lighting && m.iss == nil && m.radarLayerID == nil)
        let out = NSTemporaryDirectory() + "nightmap-style-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Headless.snapshot(try Options.parse(["snapshot", "--radar", "demo", "--style", path, "--size", "100x100", "-o", out]))
        let pm = try PNGCodec.read(path: out)
        #expect(pm.color(atX: 50, y: 50) == RGBA8(255, 0, 0))
        #expect(pm.color(atX: 5, y: 5) == RGBA8(0x12, 0x34, 0x56))
    }

    @Test func aBadDocumentDrawsWhatItCanAndNamesTheRestOnce() throws {
        let path = try write(#"""
        {"version": 8, "sprite": "no-such-sprite", "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}},
                    {"id": "a", "type": "line", "source": "x", "paint": {"line-width": "wide"}},
                    {"id": "b", "type": "fill", "paint": {"fill-color": "nocolour"}},
                    {"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": "big", "circle-color": "red"}}]}
        """#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reported: [String] = []
        let m = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", path]), report: { reported.append($0) })
        #expect(m.style.layers.map(\.id) == ["bg", "c"])
        #expect(reported == m.style.skipped)
        #expect(reported.count == 4, "\(reported)")
        #expect(reported.allSatisfy { !$0.contains("\n") })
        #expect(reported.filter { $0.hasPrefix(path + ": layers[") }.count == 3)
        #expect(reported.contains(path + ": layers[1].source: no source \"x\" in sources; layer \"a\" skipped"))
        #expect(reported.contains(path + ": layers[2].source: missing; layer \"b\" skipped"))
        #expect(reported.contains { $0.hasPrefix(path + ": layers[3].paint.circle-radius: expected number") && $0.hasSuffix("left at its default") })
        #expect(reported.contains { $0.hasPrefix("sprite: no-such-sprite.json: no such file") })
    }

    @Test func missingOrUnreadableDocument() {
        #expect(throws: StyleDocumentError.self) { _ = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", "/nonexistent/style.json"])) }
        #expect(throws: StyleDocumentError.self) { _ = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", NSTemporaryDirectory()])) }
    }
}
