import Foundation
import MapCore
import MapData

/// What the window restores at its next start: camera, scene, light preset, units, overlay
/// toggles and window size, in `$XDG_STATE_HOME/nightmap/state.json` (default `~/.local/state`),
/// written atomically (a temporary file renamed) when the window closes.
public struct SavedState: Encodable, Equatable, Sendable {
    public struct Camera: Encodable, Equatable, Sendable {
        public var lat: Double, lon: Double, zoom: Double
        /// Degrees (absent in files written before the map could rotate: north up).
        public var bearing: Double?
        /// Degrees, 0...85 (absent while flat, and in files written before the map could tilt).
        public var pitch: Double?
        public init(lat: Double, lon: Double, zoom: Double, bearing: Double? = nil, pitch: Double? = nil) {
            self.lat = lat; self.lon = lon; self.zoom = zoom; self.bearing = bearing; self.pitch = pitch
        }
    }
    public struct Window: Encodable, Equatable, Sendable {
        public var width: Int, height: Int, fullscreen: Bool
        public init(width: Int, height: Int, fullscreen: Bool) { self.width = width; self.height = height; self.fullscreen = fullscreen }
    }
    public struct Overlays: Encodable, Equatable, Sendable {
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
    /// "3d" while the street map's buildings are raised (`b`); absent while flat.
    public var buildings: String?

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
                        bearing: c.bearing == 0 ? nil : c.bearing, pitch: c.pitch == 0 ? nil : c.pitch)
        scene = model.scene.name
        light = model.lightPreset.rawValue
        units = model.imperialUnits ? "imperial" : "metric"
        overlays = Overlays(help: model.showsHelp)
        self.window = window
        buildings = model.buildings == .threeD ? BuildingsMode.threeD.rawValue : nil
    }

    private init(version: Int, camera: Camera, scene: String, light: String, units: String, overlays: Overlays, window: Window,
                 buildings: String?) {
        self.version = version; self.camera = camera; self.scene = scene; self.light = light; self.units = units
        self.overlays = overlays; self.window = window; self.buildings = buildings
    }

    /// The saved state; nil when there is none. A file that cannot be read or makes no sense
    /// throws one line naming it.
    public static func load(from url: URL) throws -> SavedState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try DataFile.read(url.path, limit: 1 << 16) } catch { throw Problem(description: error.description) }
        return try decode(data, name: url.path)
    }

    /// The state in `data`, checked: every member there (but the camera's bearing and pitch) and of its
    /// type, every value in range, names known. Errors are one line starting with `name`.
    public static func decode(_ data: Data, name: String) throws -> SavedState {
        let json: JSON
        do { json = try JSON.parse(data, name: name) } catch {
            throw Problem(description: "\(name): not a nightmap state file (not valid JSON): \(JSON.parseFailure(error, name: name))")
        }
        // Member by member in the order the type declares them, so the first problem is the one named.
        let file = try Members(json, path: "", name: name)
        let version = try file.integer("version")
        let c = try file.object("camera")
        let camera = Camera(lat: try c.number("lat"), lon: try c.number("lon"), zoom: try c.number("zoom"), bearing: try c.optionalNumber("bearing"),
                            pitch: try c.optionalNumber("pitch"))
        let scene = try file.string("scene"), light = try file.string("light"), units = try file.string("units")
        let overlays = Overlays(help: try file.object("overlays").bool("help"))
        let w = try file.object("window")
        let window = Window(width: try w.integer("width"), height: try w.integer("height"), fullscreen: try w.bool("fullscreen"))
        let s = SavedState(version: version, camera: camera, scene: scene, light: light, units: units, overlays: overlays, window: window,
                           buildings: try file.optionalString("buildings"))
        guard s.version == 1 else { throw Problem(description: "\(name): version \(s.version) is not 1") }
        guard (-90...90).contains(s.camera.lat), (-180...180).contains(s.camera.lon), (0...24).contains(s.camera.zoom) else {
            throw Problem(description: "\(name): camera \(s.camera.lat), \(s.camera.lon), zoom \(s.camera.zoom) is out of range")
        }
        if let b = s.camera.bearing, !(-360...360).contains(b) {
            throw Problem(description: "\(name): camera bearing \(b) is out of range")
        }
        if let p = s.camera.pitch, !(0...CameraState.steepestPitch).contains(p) {
            throw Problem(description: "\(name): camera pitch \(p) is out of range")
        }
        guard Scene.names.contains(s.scene), LightPreset(rawValue: s.light) != nil, ["metric", "imperial"].contains(s.units) else {
            throw Problem(description: "\(name): unknown scene '\(s.scene)', light '\(s.light)' or units '\(s.units)'")
        }
        guard (1...16384).contains(s.window.width), (1...16384).contains(s.window.height) else {
            throw Problem(description: "\(name): window \(s.window.width)x\(s.window.height) is out of range")
        }
        if let b = s.buildings, BuildingsMode(rawValue: b) == nil {
            throw Problem(description: "\(name): unknown buildings '\(b)' (flat or 3d)")
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

    /// One object of a state file, read member by member: a member missing or of another type
    /// is a one-line problem naming its path ("no 'camera'", "'window.width' has the wrong type").
    private struct Members {
        let object: JSONObject
        /// The object's own path with a dot ("camera."), "" for the file's.
        let path: String
        let name: String

        init(_ json: JSON, path: String, name: String) throws {
            self.path = path; self.name = name
            guard let o = json.objectValue else {
                throw Problem(description: "\(name): not a nightmap state file (\(path.isEmpty ? "not a JSON object" : "'\(path.dropLast())' has the wrong type"))")
            }
            object = o
        }

        private func problem(_ what: String) -> Problem { Problem(description: "\(name): not a nightmap state file (\(what))") }

        private func member(_ key: String) throws -> JSON {
            guard let v = object[key] else { throw problem("no '\(path)\(key)'") }
            return v
        }

        private func wrongType(_ key: String) -> Problem { problem("'\(path)\(key)' has the wrong type") }

        func object(_ key: String) throws -> Members { try Members(try member(key), path: path + key + ".", name: name) }

        func number(_ key: String) throws -> Double {
            guard let n = try member(key).numberValue else { throw wrongType(key) }
            return n
        }

        /// Absent or null: nil.
        func optionalNumber(_ key: String) throws -> Double? {
            guard let v = object[key], v != .null else { return nil }
            guard let n = v.numberValue else { throw wrongType(key) }
            return n
        }

        /// Absent or null: nil.
        func optionalString(_ key: String) throws -> String? {
            guard let v = object[key], v != .null else { return nil }
            guard let t = v.stringValue else { throw wrongType(key) }
            return t
        }

        func integer(_ key: String) throws -> Int {
            let n = try number(key)
            guard n.rounded() == n, abs(n) < 1e15 else { throw wrongType(key) }
            return Int(n)
        }

        func bool(_ key: String) throws -> Bool {
            guard let b = try member(key).boolValue else { throw wrongType(key) }
            return b
        }

        func string(_ key: String) throws -> String {
            guard let t = try member(key).stringValue else { throw wrongType(key) }
            return t
        }
    }
}
