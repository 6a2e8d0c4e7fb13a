import Foundation
import MapCore

/// RainViewer's Weather Maps index (`weather-maps.json`; docs/RADAR.md, "RainViewer"): when the
/// file was made and the radar's past frames, each a template of XYZ tiles.
///
/// The index is `{"version": ..., "generated": T, "host": "https://...", "radar": {"past":
/// [{"time": T, "path": "/v2/radar/<hash>"}, ...], ...}, ...}`. Paths are opaque: a frame's tiles
/// are `host + path + "/256/{z}/{x}/{y}/2/1_0.png"` as given, never made from its time. Only
/// colour scheme 2 is served (other ids and the snow option no longer change the tiles), at
/// zoom 7 at most.
///
/// Reading is strict about the document and lenient about entries: an answer that is not a JSON
/// object with a host and a `radar.past` list is one error naming the URL; an entry without a
/// time or a usable path, a frame later than `now` allows (a clock ahead, a server wrong), one
/// repeating another's time or beyond the newest `frameLimit` is skipped and named in `skipped`.
/// No frame left is an error too: the loop keeps what it had.
public struct RainViewerIndex: Equatable, Sendable {
    public struct Frame: Equatable, Sendable {
        /// When RainViewer made the frame (Unix seconds, UTC; not the exact scan time).
        public let time: Double
        /// Its tiles' URL with `{z}`, `{x}` and `{y}` to fill.
        public let template: String

        public init(time: Double, template: String) { self.time = time; self.template = template }
    }

    /// When the index was made (Unix seconds): poll, and take frames again only when it changes.
    public let generated: Double
    /// Oldest first, times strictly increasing.
    public let frames: [Frame]
    /// One line for each entry passed over (where it is in the file and why).
    public let skipped: [String]

    /// The deepest zoom RainViewer serves (deeper views overzoom its zoom-7 tiles).
    public static let maxZoom = 7
    /// What follows a frame's path: 256-pixel tiles, colour scheme 2 (Universal Blue, the only
    /// one served), smoothed, without snow colours.
    public static let tileSuffix = "/256/{z}/{x}/{y}/2/1_0.png"
    /// Frames kept at most (the index lists 13, two hours at 10-minute steps).
    public static let frameLimit = 48
    /// How far past `now` a frame's time may lie before it is taken for an error (clocks differ).
    public static let futureSlack = 300.0

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads the index answered at `url`; `now` (Unix seconds) bounds the frames' times.
    public init(data: Data, url: String, now: Double) throws {
        func fail(_ what: String) -> Failure { Failure(description: "\(url): \(what)") }
        let json: JSON
        do {
            json = try JSON.parse(data, name: url)
        } catch {
            throw fail(MessageText.isHTML(data) ? "an HTML page, not the weather maps index"
                                                : "not JSON (\(JSON.parseFailure(error, name: url)))")
        }
        guard let root = json.objectValue else { throw fail("expected a JSON object, not the weather maps index") }
        guard let rawHost = root["host"]?.stringValue else { throw fail("host: missing or not a string") }
        guard let host = Self.host(rawHost) else { throw fail("host: '\(MessageText.clipped(rawHost))' is not an http(s) address") }
        guard let radar = root["radar"]?.objectValue else { throw fail("radar: missing or not an object") }
        guard let past = radar["past"]?.arrayValue else { throw fail("radar.past: missing or not a list") }

        var skipped: [String] = []
        var byTime: [Double: Frame] = [:]
        for (k, entry) in past.enumerated() {
            let at = "radar.past[\(k)]"
            guard let o = entry.objectValue else { skipped.append("\(at): not an object; skipped"); continue }
            guard let time = o["time"]?.numberValue, time.isFinite, time > 0 else {
                skipped.append("\(at).time: missing or not a time; skipped"); continue
            }
            guard let path = o["path"]?.stringValue, Self.isPath(path) else {
                skipped.append("\(at).path: missing or not a tile path; skipped"); continue
            }
            if time > now + Self.futureSlack {
                skipped.append("\(at): frame of \(UTCText.minute(time)) is later than now (\(UTCText.minute(now))); skipped"); continue
            }
            if byTime[time] != nil { skipped.append("\(at): a second frame of \(UTCText.minute(time)); the first kept") ; continue }
            byTime[time] = Frame(time: time, template: host + path + Self.tileSuffix)
        }
        var frames = byTime.values.sorted { $0.time < $1.time }
        if frames.count > Self.frameLimit {
            skipped.append("radar.past: \(frames.count) frames; the newest \(Self.frameLimit) kept")
            frames.removeFirst(frames.count - Self.frameLimit)
        }
        guard let newest = frames.last else {
            throw fail(past.isEmpty ? "radar.past lists no frames" : "radar.past: no usable frame (\(skipped.first ?? ""))")
        }
        let generated = root["generated"]?.numberValue
        if generated == nil { skipped.append("generated: missing or not a time; the newest frame's time taken") }
        self.generated = generated.flatMap { $0.isFinite ? $0 : nil } ?? newest.time
        self.frames = frames
        self.skipped = skipped
    }

    /// The tile URL of `frame` for tile z/x/y.
    public static func url(_ frame: Frame, z: Int, x: Int, y: Int) -> String {
        frame.template.replacingOccurrences(of: "{z}", with: String(z))
            .replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }

    /// Whether a tile answer is RainViewer refusing the zoom rather than radar: a text body
    /// ("Zoom level restricted to maximum 7"), or above zoom 7 the 1,370-byte "Zoom Level Not
    /// Supported" image it has sent with status 200. (At zoom 7 and less an image of that size
    /// is taken for radar: nightmap asks no deeper.)
    public static func isZoomRefusal(_ data: Data, zoom: Int) -> Bool {
        let png = MessageText.isPNG(data)
        if zoom > maxZoom && data.count == 1370 && png { return true }
        guard data.count < 4096, !png else { return false }
        return String(decoding: data, as: UTF8.self).lowercased().contains("zoom level")
    }

    // MARK: Checks

    /// `s` without a trailing slash when it is an http(s) address with a host and nothing that
    /// would change a URL made from it (no spaces, query or fragment).
    static func host(_ s: String) -> String? {
        let t = s.hasSuffix("/") ? String(s.dropLast()) : s
        guard t.count <= 256, t.hasPrefix("https://") || t.hasPrefix("http://"),
              let u = URL(string: t), let h = u.host, !h.isEmpty,
              !t.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" || $0 == "{" || $0 == "}" }) else { return nil }
        return t
    }

    /// An absolute path of letters, digits and `/_-.`, without `..` or `//`.
    static func isPath(_ p: String) -> Bool {
        guard p.hasPrefix("/"), p.count <= 256, !p.contains(".."), !p.contains("//") else { return false }
        return p.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "/" || c == "_" || c == "-" || c == "."
        }
    }
}
