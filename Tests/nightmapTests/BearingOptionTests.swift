import Foundation
import MapCore
import MapData
import NightmapApp
@testable import MapRender
import Raster
import Testing
import TestSupport
@testable import nightmap

/// `--bearing` on the command line, in the saved state, in `nightmap state` and from a style
/// document; a snapshot at bearing 30 puts places where the rotated projection says.
@Suite struct BearingOptionTests {
    static let fixed = ["--iss", "tle", "--time", "2025-10-01T12:00:00Z"]

    @Test func theOptionIsCheckedAndTaken() throws {
        #expect(try Options.parse(["snapshot", "--radar", "demo", "-o", "a.png", "--bearing", "30"]).bearing == 30)
        #expect(try Options.parse(["state", "--radar", "demo", "--bearing=-45.5"]).bearing == -45.5)
        #expect(try Options.parse(["view"]).bearing == nil)
        for (bad, message) in [("400", "option --bearing: 400.0 is outside -360...360"), ("east", "option --bearing: 'east' is not a number"),
                               ("nan", "option --bearing: 'nan' is not a number")] {
            #expect { _ = try Options.parse(["snapshot", "--radar", "demo", "-o", "a.png", "--bearing", bad]) } throws: { "\($0)" == message }
        }
        #expect(Options.usage.contains("--bearing DEG"))
    }

    @Test func stateReportsTheBearing() throws {
        let json = try JSON.parse(try Headless.state(try Options.parse(["state", "--radar", "demo", "--bearing", "-200"] + Self.fixed)), name: "state")
        #expect(json["camera"]?["bearing"] == .number(160))
        let north = try JSON.parse(try Headless.state(try Options.parse(["state", "--radar", "demo"] + Self.fixed)), name: "state")
        #expect(north["camera"]?["bearing"] == .number(0))
        // The compass is reported while it shows, and no label overlaps it.
        #expect(north["overlay"]?.objectValue != nil && north["overlay"]?["compass"] == nil)
        let compass = try #require(json["overlay"]?["compass"]?.numbersValue)
        #expect(compass == [1238, 12, 30, 30])
        let model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--bearing", "-200"] + Self.fixed))
        let box = FrameDescription.ScreenBox(minX: 1238, minY: 12, maxX: 1268, maxY: 42)
        #expect(!Headless.placedLabels(model).contains { $0.box.intersects(box) })
    }

    @Test func theSavedStateRemembersTheBearing() throws {
        var model = try MapSetup.model(try Options.parse(["state", "--radar", "demo"] + Self.fixed))
        model.apply(.rotate(degrees: 42), now: 0)
        let state = SavedState(model: model, window: .init(width: 900, height: 600, fullscreen: false))
        #expect(state.camera.bearing == 42)
        let back = try SavedState.decode(try JSONEncoder().encode(state), name: "state.json")
        var o = try Options.parse(["view"])
        back.restore(into: &o, given: o.given)
        #expect(o.bearing == 42)
        var given = try Options.parse(["view", "--bearing", "5"])
        back.restore(into: &given, given: given.given)
        #expect(given.bearing == 5)
        // A file from before rotation has no bearing; one out of range is refused.
        let old = #"{"version":1,"camera":{"lat":40,"lon":-75,"zoom":5},"scene":"radar","light":"night","units":"metric","overlays":{"help":false},"window":{"width":800,"height":600,"fullscreen":false}}"#
        #expect(try SavedState.decode(Data(old.utf8), name: "s").camera.bearing == nil)
        let bad = old.replacingOccurrences(of: #""zoom":5"#, with: #""zoom":5,"bearing":999"#)
        #expect { _ = try SavedState.decode(Data(bad.utf8), name: "s") } throws: { "\($0)" == "s: camera bearing 999.0 is out of range" }
    }

    /// Following the ISS keeps the bearing (the follow eases move the centre and zoom only).
    @Test func followingTheIssKeepsTheBearing() throws {
        var model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--bearing", "30"] + Self.fixed))
        #expect(model.followsIss && model.camera.state.bearing == 30)
        model.advance(to: 3.5)
        #expect(abs(model.camera.state.bearing - 30) < 1e-9 && model.camera.state.zoom > 2)
    }

    /// `--scene route --bearing 60` fits the route's box in the turned view.
    @Test func theRouteSceneFitsTheTurnedView() throws {
        let model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "route", "--bearing", "60", "--size", "640x400"] + Self.fixed))
        #expect(model.camera.state.bearing == 60)
        let box = try #require(model.scene.fit)
        let v = model.camera.view
        var xs: [Double] = [], ys: [Double] = []
        for (lng, lat) in [(box.west, box.north), (box.east, box.north), (box.east, box.south), (box.west, box.south)] {
            let s = v.screen(LngLat(lng: lng, lat: lat))
            xs.append(s.x); ys.append(s.y)
            #expect(s.x >= 39 && s.x <= 601 && s.y >= 39 && s.y <= 361, "corner (\(lng), \(lat)) at \(s)")
        }
        // It fits tightly along one axis.
        #expect(xs.min()! < 41 || ys.min()! < 41)
    }

    @Test func aStyleDocumentsBearingIsHonoured() throws {
        let path = NSTemporaryDirectory() + "nightmap-bearing-\(UUID().uuidString).json"
        try ##"{"version": 8, "center": [10, 20], "zoom": 3, "bearing": 30, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}}]}"##
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", path])).camera.state.bearing == 30)
        #expect(try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--style", path, "--bearing", "-10"])).camera.state.bearing == -10)
    }

    /// At bearing 90 (east up) a circle translated 10 px east with `circle-translate-anchor: map`
    /// moves up the screen; anchored to the viewport it moves right.
    @Test(arguments: [("map", (16, 6)), ("viewport", (26, 16))])
    func translateAnchorsAtABearing(anchor: String, at: (Int, Int)) throws {
        let style = #"{"version": 8, "center": [0, 0], "zoom": 2, "bearing": 90, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 3, "circle-color": "white", "circle-translate": [10, 0], "circle-translate-anchor": "\#(anchor)"}}]}"#
        let dir = FileManager.default.temporaryDirectory
        let pm = try renderStyleDocument(Data(style.utf8), dir.appendingPathComponent("style.json"), 32, 32, 1, dir)
        #expect(pm.color(atX: at.0, y: at.1).a == 255, "\(anchor): no circle at \(at)")
        #expect(pm.color(atX: 16, y: 16).a == 0)
    }

    /// `nightmap snapshot --bearing 30`: Lake Michigan's centre is water where the rotated
    /// projection puts it (and not where it would be north up), New York City's dot is there too.
    @Test func aSnapshotAtBearing30PutsPlacesWhereTheRotationSays() throws {
        let out = NSTemporaryDirectory() + "nightmap-bearing-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Headless.snapshot(try Options.parse(["snapshot", "--radar", "demo", "-o", out, "--bearing", "30"] + Self.fixed))
        let pm = try PNGCodec.read(path: out)
        let size = ViewportSize(width: 1280, height: 800)
        let centre = Scene.radar.camera.center
        func predicted(_ p: LngLat, _ bearing: Double) -> (x: Int, y: Int) {
            predictedScreenPoint(p, centre: centre, zoom: 5, bearing: bearing, size: size)
        }
        // The lakes' colour in nightmap.json, the map the snapshot draws.
        let document = try StyleLoader.readDocument(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("style/nightmap.json").path)
        let lake = try #require(document.layers.first { $0.id == "lakes" }?.paint["fill-color"]?.constant?.asColor).bytes
        // Most of the 9 x 9 pixels around the point are lake (a state border crosses the lake).
        func isLake(_ p: (x: Int, y: Int)) -> Bool {
            var n = 0
            for y in p.y - 4...p.y + 4 { for x in p.x - 4...p.x + 4 {
                let c = pm.color(atX: x, y: y)
                if c.r == lake.r && c.g == lake.g && c.b == lake.b { n += 1 }
            } }
            return n >= 50
        }
        let michigan = LngLat(lng: -87.1, lat: 43.9), newYork = LngLat(lng: -74.01, lat: 40.71)
        #expect(isLake(predicted(michigan, 30)), "Lake Michigan at \(predicted(michigan, 30))")
        #expect(!isLake(predicted(michigan, 0)))
        // New York City's dot: bright at the predicted pixel, its label's dot within a pixel.
        let ny = predicted(newYork, 30)
        let c = pm.color(atX: ny.x, y: ny.y)
        #expect(Int(c.r) + Int(c.g) + Int(c.b) > 600, "no dot at \(ny): \(c)")
        let model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--bearing", "30"] + Self.fixed))
        let dot = try #require(Headless.placedLabels(model).first { $0.text == "New York City" }?.dot)
        #expect(abs(dot.x - (Double(ny.x) + 0.5)) <= 1 && abs(dot.y - (Double(ny.y) + 0.5)) <= 1, "dot at \(dot), predicted \(ny)")
    }
}
