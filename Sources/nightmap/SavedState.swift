import Foundation
import MapCore
import MapData

/// What the window restores at its next start: camera, scene, light preset, units, overlay
/// toggles and window size, in `$XDG_STATE_HOME/nightmap/state.json` (default `~/.local/state`),
/// written atomically (a temporary file renamed) when the window closes.
struct SavedState: Codable, Equatable {
    struct Camera: Codable, Equatable { var lat: Double; var lon: Double; var zoom: Double }
    struct Window: Codable, Equatable { var width: Int; var height: Int; var fullscreen: Bool }
    struct Overlays: Codable, Equatable { var help: Bool }

    var version = 1
    var camera: Camera
    var scene: String
    var light: String
    var units: String
    var overlays: Overlays
    var window: Window

    struct Problem: Error, CustomStringConvertible { let description: String }

    static func path(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.state(env).appendingPathComponent("nightmap/state.json")
    }

    /// What the model shows, in a window of `window` points.
    init(model: MapModel, window: Window) {
        let c = model.camera.target
        camera = Camera(lat: c.center.lat, lon: c.center.lng, zoom: c.zoom - log2(model.pixelRatio))
        scene = model.scene.name
        light = model.lightPreset.rawValue
        units = model.imperialUnits ? "imperial" : "metric"
        overlays = Overlays(help: model.showsHelp)
        self.window = window
    }

    /// The saved state; nil when there is none. A file that cannot be read or makes no sense
    /// throws one line naming it.
    static func load(from url: URL) throws -> SavedState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try DataFile.read(url.path, limit: 1 << 16) } catch { throw Problem(description: error.description) }
        let s: SavedState
        do { s = try JSONDecoder().decode(SavedState.self, from: data) } catch {
            throw Problem(description: "\(url.path): not a nightmap state file (\(Self.reason(error)))")
        }
        guard s.version == 1 else { throw Problem(description: "\(url.path): version \(s.version) is not 1") }
        guard (-90...90).contains(s.camera.lat), (-180...180).contains(s.camera.lon), (0...24).contains(s.camera.zoom) else {
            throw Problem(description: "\(url.path): camera \(s.camera.lat), \(s.camera.lon), zoom \(s.camera.zoom) is out of range")
        }
        guard Scene.names.contains(s.scene), LightPreset(rawValue: s.light) != nil, ["metric", "imperial"].contains(s.units) else {
            throw Problem(description: "\(url.path): unknown scene '\(s.scene)', light '\(s.light)' or units '\(s.units)'")
        }
        guard (1...16384).contains(s.window.width), (1...16384).contains(s.window.height) else {
            throw Problem(description: "\(url.path): window \(s.window.width)x\(s.window.height) is out of range")
        }
        return s
    }

    /// Writes the state: a temporary file beside it, renamed over it (readers see the old or the
    /// new file, never a part).
    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// Puts what was saved into options the command line did not set (`given`: the option names
    /// it used). The camera comes back only with its scene, and neither for another style.
    func restore(into o: inout Options, given: Set<String>) {
        if !given.contains("--scene") && !given.contains("--style") {
            o.scene = scene
            if !given.contains("--center") { o.center = LngLat(lng: camera.lon, lat: camera.lat) }
            if !given.contains("--zoom") { o.zoom = camera.zoom }
        }
        if !given.contains("--light"), let l = LightPreset(rawValue: light) { o.light = l }
        if !given.contains("--size") { o.size = ViewportSize(width: window.width, height: window.height) }
    }

    /// The toggles kept in the model: units and the help panel.
    func restoreToggles(_ model: inout MapModel, now: Double) {
        if (units == "imperial") != model.imperialUnits { model.apply(.toggleUnits, now: now) }
        if overlays.help != model.showsHelp { model.apply(.toggleHelp, now: now) }
    }

    private static func reason(_ e: Error) -> String {
        switch e as? DecodingError {
        case let .keyNotFound(k, _)?: return "no '\(k.stringValue)'"
        case let .typeMismatch(_, c)?, let .valueNotFound(_, c)?: return "'\(c.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case .dataCorrupted?: return "not valid JSON"
        default: return "\(e)"
        }
    }
}
