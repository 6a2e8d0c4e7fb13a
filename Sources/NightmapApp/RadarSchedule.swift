import Foundation
import MapCore

/// The time slots of a live radar loop: `count` instants `step` seconds apart, the newest the
/// latest multiple of `step` (UTC) at or before the instant asked about.
public struct RadarSchedule: Equatable, Sendable {
    /// Seconds between slots (5 minutes for the IEM mosaic).
    public let step: Double
    public let count: Int

    public init(step: Double = 300, count: Int = 12) {
        precondition(step > 0 && count > 0)
        self.step = step; self.count = count
    }

    /// The newest slot at or before `utc` (seconds since 1970).
    public func newest(at utc: Double) -> Double { (utc / step).rounded(.down) * step }

    /// The slots for instant `utc`, oldest first.
    public func slots(at utc: Double) -> [Double] {
        let last = newest(at: utc)
        return (0..<count).map { last - Double(count - 1 - $0) * step }
    }

    /// When the slots next change after `utc`: the next multiple of `step`.
    public func nextSlot(after utc: Double) -> Double { newest(at: utc) + step }
}

/// A radar image address with placeholders, filled in for each slot: `{time}`
/// (`YYYY-MM-DDTHH:MM:SSZ`), `{yyyy}` `{MM}` `{dd}` `{HH}` `{mm}` (UTC parts), `{bbox}`
/// (`W,S,E,N` in degrees), `{width}` and `{height}` (the pixels asked for).
public struct RadarURLTemplate: Equatable, Sendable, CustomStringConvertible {
    public let text: String

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The placeholders a template may use.
    public static let placeholders = ["time", "yyyy", "MM", "dd", "HH", "mm", "bbox", "width", "height"]

    /// The Iowa Environmental Mesonet's time-enabled WMS of the NEXRAD base reflectivity mosaic
    /// (N0Q), asked in EPSG:4326 (WMS 1.1.1: the box is west, south, east, north), so each
    /// image row is a row of latitude.
    public static let iem = RadarURLTemplate(checked:
        "https://mesonet.agron.iastate.edu/cgi-bin/wms/nexrad/n0q-t.cgi?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap"
            + "&LAYERS=nexrad-n0q-wmst&STYLES=&SRS=EPSG:4326&BBOX={bbox}&WIDTH={width}&HEIGHT={height}"
            + "&FORMAT=image/png&TRANSPARENT=true&TIME={time}")

    /// A template known to be good (nightmap's own; a test checks it passes `init(_:)`).
    init(checked text: String) { self.text = text }

    /// Checks the template: an http or https address whose placeholders are all known and closed.
    public init(_ text: String) throws {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw Failure(description: "'\(text)' is not an http or https URL template")
        }
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Failure(description: "'\(text)': a '{' without its '}'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(name) else {
                throw Failure(description: "'\(text)': unknown placeholder {\(name)} (known: \(Self.placeholders.map { "{\($0)}" }.joined(separator: " ")))")
            }
            rest = rest[rest.index(after: close)...]
        }
        guard URL(string: Self.fill(text, time: 0, box: LngLatBounds(west: -1, south: -1, east: 1, north: 1), width: 1, height: 1)) != nil else {
            throw Failure(description: "'\(text)' does not make a valid URL")
        }
        self.text = text
    }

    public var description: String { text }

    /// The host the template names (for attribution and messages).
    public var host: String { URL(string: Self.fill(text, time: 0, box: LngLatBounds(west: 0, south: 0, east: 1, north: 1), width: 1, height: 1))?.host ?? text }

    /// The address of the image valid at `time` (seconds since 1970, UTC) for `box` in
    /// `width` x `height` pixels.
    public func url(time: Double, box: LngLatBounds, width: Int, height: Int) -> URL? {
        URL(string: Self.fill(text, time: time, box: box, width: width, height: height))
    }

    static func fill(_ text: String, time: Double, box: LngLatBounds, width: Int, height: Int) -> String {
        let c = RadarTime.parts(time)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let values = ["time": RadarTime.iso(time), "yyyy": String(c.year), "MM": two(c.month), "dd": two(c.day),
                      "HH": two(c.hour), "mm": two(c.minute),
                      "bbox": [box.west, box.south, box.east, box.north].map(Self.degrees).joined(separator: ","),
                      "width": String(width), "height": String(height)]
        var out = text
        for (k, v) in values { out = out.replacingOccurrences(of: "{\(k)}", with: v) }
        return out
    }

    /// Degrees with at most six decimals and no trailing zeros ("-80.425").
    static func degrees(_ v: Double) -> String {
        var s = String(format: "%.6f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}

/// UTC times as radar services write them.
public enum RadarTime {
    /// `2026-12-01T14:35:00Z`.
    public static func iso(_ t: Double) -> String {
        let c = parts(t)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// `202612011435` (a cache file's name).
    public static func compact(_ t: Double) -> String {
        let c = parts(t)
        return String(format: "%04d%02d%02d%02d%02d", c.year, c.month, c.day, c.hour, c.minute)
    }

    /// The instant a `compact` name gives, or nil.
    public static func parseCompact(_ s: Substring) -> Double? {
        guard s.count == 12, s.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let d = Array(s.utf8).map { Int($0) - 48 }
        func n(_ a: Int, _ b: Int) -> Int { d[a..<b].reduce(0) { $0 * 10 + $1 } }
        let (month, day, hour, minute) = (n(4, 6), n(6, 8), n(8, 10), n(10, 12))
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
        let c = DateComponents(year: n(0, 4), month: month, day: day, hour: hour, minute: minute)
        return utcCalendar.date(from: c)?.timeIntervalSince1970
    }

    /// "14:35" in UTC.
    public static func hourMinute(_ t: Double) -> String {
        let c = parts(t)
        return String(format: "%02d:%02d", c.hour, c.minute)
    }

    /// "09:35 EST": the local time (the TZ environment variable's zone) with its short name.
    public static func local(_ t: Double, zone: TimeZone = .current) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        // (ICU's short zone name: "EST"; TimeZone.abbreviation gives "GMT-5" here.)
        f.dateFormat = "HH:mm zzz"
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    static let utcCalendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(secondsFromGMT: 0) ?? c.timeZone
        return c
    }()

    static func parts(_ t: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let c = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: t))
        return (c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
