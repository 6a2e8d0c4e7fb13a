import Foundation
import MapCore
import MapData

/// What the window restores at its next start: camera, scene, light preset, units, overlay
/// toggles and window size, in `$XDG_STATE_HOME/nightmap/state.json` (default `~/.local/state`),
/// written atomically (a temporary file renamed) when the window closes.
public struct SavedState: Codable, Equatable, Sendable {
    public struct Camera: Codable, Equatable, Sendable {
        public var lat: Double, lon: Double, zoom: Double
        /// Degrees (absent in files written before the map could rotate: north up).
        public var bearing: Double?
        public init(lat: Double, lon: Double, zoom: Double, bearing: Double? = nil) {
            self.lat = lat; self.lon = lon; self.zoom = zoom; self.bearing = bearing
        }
    }
    public struct Window: Codable, Equatable, Sendable {
        public var width: Int, height: Int, fullscreen: Bool
        public init(width: Int, height: Int, fullscreen: Bool) { self.width = width; self.height = height; self.fullscreen = fullscreen }
    }
    public struct Overlays: Codable, Equatable, Sendable {
        public var help: Bool
        public init(help: Bool) { self.help = help }
    }

    public var version = 1
    public var camera: Camera
    public var scene: String
    public var light: String
    public var units: String
    public var overlays: Overlays
    public var window: Window

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public static func path(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.state(env).appendingPathComponent("nightmap/state.json")
    }

    /// What the model shows (its camera as the style's zoom), in a window of `window` points.
    public init(model: MapApp, window: Window) {
        let c = model.camera.target
        camera = Camera(lat: c.center.lat, lon: c.center.lng, zoom: c.zoom - log2(model.model.pixelRatio),
                        bearing: c.bearing == 0 ? nil : c.bearing)
        scene = model.scene.name
        light = model.lightPreset.rawValue
        units = model.imperialUnits ? "imperial" : "metric"
        overlays = Overlays(help: model.showsHelp)
        self.window = window
    }

    /// The saved state; nil when there is none. A file that cannot be read or makes no sense
    /// throws one line naming it.
    public static func load(from url: URL) throws -> SavedState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try DataFile.read(url.path, limit: 1 << 16) } catch { throw Problem(description: error.description) }
        return try decode(data, name: url.path)
    }

    /// The state in `data`, checked: every value in range, names known. Errors start with `name`.
    public static func decode(_ data: Data, name: String) throws -> SavedState {
        let s: SavedState
        do { s = try JSONDecoder().decode(SavedState.self, from: data) } catch {
            throw Problem(description: "\(name): not a nightmap state file (\(Self.reason(error)))")
        }
        guard s.version == 1 else { throw Problem(description: "\(name): version \(s.version) is not 1") }
        guard (-90...90).contains(s.camera.lat), (-180...180).contains(s.camera.lon), (0...24).contains(s.camera.zoom) else {
            throw Problem(description: "\(name): camera \(s.camera.lat), \(s.camera.lon), zoom \(s.camera.zoom) is out of range")
        }
        if let b = s.camera.bearing, !(-360...360).contains(b) {
            throw Problem(description: "\(name): camera bearing \(b) is out of range")
        }
        guard Scene.names.contains(s.scene), LightPreset(rawValue: s.light) != nil, ["metric", "imperial"].contains(s.units) else {
            throw Problem(description: "\(name): unknown scene '\(s.scene)', light '\(s.light)' or units '\(s.units)'")
        }
        guard (1...16384).contains(s.window.width), (1...16384).contains(s.window.height) else {
            throw Problem(description: "\(name): window \(s.window.width)x\(s.window.height) is out of range")
        }
        return s
    }

    /// Writes the state: a temporary file beside it, renamed over it (readers see the old or the
    /// new file, never a part).
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// The toggles kept in the model: units and the help panel.
    public func restoreToggles(_ model: inout MapApp, now: Double) {
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
