import Foundation
import MapCore
import NightmapApp
import MapData
import Testing
@testable import nightmap

/// The window's saved state: what it keeps, what the command line overrides, and one clear error
/// for a file that makes no sense.
@Suite struct SavedStateTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func whatTheModelShowsComesBack() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--time", "2025-10-01T12:00:00Z"]))
        model.jump(to: CameraState(center: LngLat(lng: -73.5, lat: 42.25), zoom: 5.5))
        model.apply(.cycleLight, now: 0)
        model.apply(.toggleUnits, now: 0)
        model.apply(.toggleHelp, now: 0)
        let state = SavedState(model: model, window: .init(width: 900, height: 600, fullscreen: true))
        let url = dir.appendingPathComponent("nightmap/state.json")      // the folder is made
        try state.save(to: url)
        let back = try #require(try SavedState.load(from: url))
        #expect(back == state)
        #expect(back.camera == .init(lat: 42.25, lon: -73.5, zoom: 5.5) && back.light == "dawn" && back.units == "imperial")
        #expect(back.overlays.help && back.window == .init(width: 900, height: 600, fullscreen: true))
        // No temporary file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["state.json"])

        // Into options, under what the command line gave.
        var o = try Options.parse(["view", "--light", "day"])
        back.restore(into: &o, given: o.given)
        #expect(o.light == .day && o.zoom == 5.5 && o.center == LngLat(lng: -73.5, lat: 42.25) && o.size == ViewportSize(width: 900, height: 600))
        var other = try Options.parse(["view", "--scene", "iss"])
        back.restore(into: &other, given: other.given)
        #expect(other.scene == "iss" && other.center == nil && other.zoom == nil && other.light == .dawn)

        // The toggles go into a fresh model.
        var fresh = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--time", "2025-10-01T12:00:00Z"]))
        back.restoreToggles(&fresh, now: 0)
        #expect(fresh.imperialUnits && fresh.showsHelp)
    }

    @Test func noFileIsNoState() throws {
        #expect(try SavedState.load(from: URL(fileURLWithPath: "/nonexistent/nightmap/state.json")) == nil)
    }

    @Test(arguments: [
        ("{\"version\": 1, \"camera\": [", "not a nightmap state file (not valid JSON)"),
        ("{\"version\": 1}", "not a nightmap state file (no 'camera')"),
        ("[1]", "not a nightmap state file (not a JSON object)"),
        ("{\"version\": 1, \"camera\": {\"lat\": true, \"lon\": 0, \"zoom\": 1}}", "not a nightmap state file ('camera.lat' has the wrong type)"),
        ("{\"version\": 1, \"camera\": {\"lat\": 0, \"lon\": 0, \"zoom\": 1}, \"scene\": \"radar\", \"light\": \"day\", \"units\": \"metric\", \"overlays\": {\"help\": false}, \"window\": {\"width\": 10, \"fullscreen\": 0}}", "not a nightmap state file (no 'window.height')"),
        ("{\"version\": 1, \"camera\": {\"lat\": 0, \"lon\": 0, \"zoom\": 1}, \"scene\": \"radar\", \"light\": \"day\", \"units\": \"metric\", \"overlays\": {\"help\": false}, \"window\": {\"width\": 10, \"height\": 10, \"fullscreen\": 0}}", "not a nightmap state file ('window.fullscreen' has the wrong type)"),
        ("{\"version\": 2, \"camera\": {\"lat\": 0, \"lon\": 0, \"zoom\": 1}, \"scene\": \"radar\", \"light\": \"day\", \"units\": \"metric\", \"overlays\": {\"help\": false}, \"window\": {\"width\": 10, \"height\": 10, \"fullscreen\": false}}", "version 2 is not 1"),
        ("{\"version\": 1, \"camera\": {\"lat\": 95, \"lon\": 0, \"zoom\": 1}, \"scene\": \"radar\", \"light\": \"day\", \"units\": \"metric\", \"overlays\": {\"help\": false}, \"window\": {\"width\": 10, \"height\": 10, \"fullscreen\": false}}", "out of range"),
        ("{\"version\": 1, \"camera\": {\"lat\": 5, \"lon\": 0, \"zoom\": 1}, \"scene\": \"moon\", \"light\": \"day\", \"units\": \"metric\", \"overlays\": {\"help\": false}, \"window\": {\"width\": 10, \"height\": 10, \"fullscreen\": false}}", "unknown scene 'moon'"),
    ])
    func aFileThatMakesNoSenseIsNamed(text: String, words: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state.json")
        try Data(text.utf8).write(to: url)
        #expect { _ = try SavedState.load(from: url) } throws: { e in
            let s = "\(e)"
            return s.hasPrefix(url.path + ": ") && s.contains(words) && !s.contains("\n")
        }
    }

    @Test func thePicturesFolderComesFromUserDirs() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["HOME": home.path]
        #expect(XDGDirectory.pictures(env) == nil)                       // nothing there: the caller's fallback
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        #expect(XDGDirectory.pictures(env)?.path == home.appendingPathComponent("Pictures").path)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Bilder"), withIntermediateDirectories: true)
        try Data("# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8)
            .write(to: home.appendingPathComponent(".config/user-dirs.dirs"))
        #expect(XDGDirectory.pictures(env)?.path == home.appendingPathComponent("Bilder").path)
        #expect(SavedState.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path == "/s/nightmap/state.json")
        #expect(SavedState.path(environment: ["HOME": "/h"]).path == "/h/.local/state/nightmap/state.json")
    }
}
