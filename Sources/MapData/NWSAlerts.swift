import Foundation
import MapCore

/// Active alerts of the US National Weather Service (`api.weather.gov/alerts/active`, GeoJSON;
/// WORLD-DATA.md, section 3): each alert's event, texts, times, storm-based polygon (nil for a
/// zone-based alert, drawn from its zones' shapes) and the NWS hazard-map colour of its event.
///
/// An answer that is not a GeoJSON FeatureCollection is one error naming the URL. A feature
/// without an event, or whose geometry cannot be read, is skipped and named in `skipped`; an event
/// the colour table does not know is drawn in `NWSAlerts.otherColor` and named once in
/// `unknownEvents`; alerts that are not `Actual` (tests, exercises) are left out silently.
public struct NWSAlerts: Sendable {
    public struct Alert: Sendable {
        public let id: String
        public let event: String
        public let headline: String?
        public let description: String?
        public let instruction: String?
        /// Extreme, Severe, Moderate, Minor or Unknown (as served).
        public let severity: String
        public let urgency: String
        public let certainty: String
        /// Alert, Update or Cancel.
        public let messageType: String
        /// Unix seconds; nil when absent or unreadable.
        public let onset: Double?
        public let expires: Double?
        public let ends: Double?
        /// The storm-based polygon (projected); nil for a zone-based alert.
        public let geometry: FeatureGeometry?
        /// The zones' addresses (`https://api.weather.gov/zones/<type>/<id>`).
        public let zones: [String]
        /// The event's NWS hazard-map colour.
        public let color: Color
    }

    public let alerts: [Alert]
    /// One line for each feature passed over (where it is in the answer and why).
    public let skipped: [String]
    /// Events the colour table does not know, each once.
    public let unknownEvents: [String]

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The colour of events the table does not hold.
    public static let otherColor = Color(r: 0.75, g: 0.75, b: 0.75)
    /// Alerts read at most (an outbreak has a few hundred).
    public static let alertLimit = 5000

    public init(data: Data, url: String) throws {
        func fail(_ what: String) -> Failure { Failure(description: "\(url): \(what)") }
        let json: JSON
        do {
            json = try JSON.parse(data, name: url)
        } catch {
            throw fail(MessageText.isHTML(data) ? "an HTML page, not alerts" : "not JSON (\(JSON.parseFailure(error, name: url)))")
        }
        guard let root = json.objectValue else { throw fail("expected a GeoJSON FeatureCollection") }
        // (A problem answer, application/problem+json: its title and detail.)
        if root["features"] == nil, let title = root["title"]?.stringValue {
            throw fail("the service answered '\(MessageText.clipped(title, to: 80))'\(root["detail"]?.stringValue.map { ": " + MessageText.clipped($0, to: 80) } ?? "")")
        }
        guard root["type"]?.stringValue == "FeatureCollection", let features = root["features"]?.arrayValue else {
            throw fail("expected a GeoJSON FeatureCollection")
        }
        var alerts: [Alert] = [], skipped: [String] = [], unknown: [String] = []
        for (k, feature) in features.enumerated() {
            let at = "features[\(k)]"
            guard alerts.count < Self.alertLimit else { skipped.append("features: more than \(Self.alertLimit) alerts; the rest skipped"); break }
            guard let f = feature.objectValue, let p = f["properties"]?.objectValue else { skipped.append("\(at): not a feature with properties; skipped"); continue }
            if let status = p["status"]?.stringValue, status != "Actual" { continue }
            guard let event = p["event"]?.stringValue, !event.isEmpty else { skipped.append("\(at).properties.event: missing; skipped"); continue }
            var geometry: FeatureGeometry? = nil
            if let g = f["geometry"], g != .null {
                guard let data = try? GeoJSONData(json: g, path: "\(at).geometry"), let first = data.features.first,
                      first.geometry.kind == .polygons else {
                    skipped.append("\(at).geometry: not a readable polygon; skipped"); continue
                }
                geometry = first.geometry
            }
            let zones = (p["affectedZones"]?.arrayValue ?? []).compactMap(\.stringValue)
            if geometry == nil && zones.isEmpty { skipped.append("\(at): no polygon and no zones; skipped"); continue }
            let color = Self.colors[event]
            if color == nil && !unknown.contains(event) { unknown.append(event) }
            func text(_ key: String) -> String? { p[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
            alerts.append(Alert(id: f["id"]?.stringValue ?? text("id") ?? "\(url)#\(k)", event: event,
                                headline: text("headline"), description: text("description"), instruction: text("instruction"),
                                severity: text("severity") ?? "Unknown", urgency: text("urgency") ?? "Unknown",
                                certainty: text("certainty") ?? "Unknown", messageType: text("messageType") ?? "Alert",
                                onset: text("onset").flatMap(Self.time), expires: text("expires").flatMap(Self.time),
                                ends: text("ends").flatMap(Self.time), geometry: geometry, zones: zones,
                                color: color ?? Self.otherColor))
        }
        self.alerts = alerts
        self.skipped = skipped
        self.unknownEvents = unknown
    }

    /// The NWS hazard-map colours (weather.gov/help-map as clients copy it).
    public static let colors: [String: Color] = {
        let table: [(String, UInt32)] = [
            ("Tornado Warning", 0xFF0000), ("Severe Thunderstorm Warning", 0xFFA500), ("Flash Flood Warning", 0x8B0000),
            ("Extreme Wind Warning", 0xFF8C00), ("Tornado Watch", 0xFFFF00), ("Severe Thunderstorm Watch", 0xDB7093),
            ("Flood Warning", 0x00FF00), ("Flood Watch", 0x2E8B57), ("Flood Advisory", 0x00FF7F),
            ("Winter Storm Warning", 0xFF69B4), ("Winter Storm Watch", 0x4682B4), ("Winter Weather Advisory", 0x7B68EE),
            ("Blizzard Warning", 0xFF4500), ("Ice Storm Warning", 0x8B008B), ("Snow Squall Warning", 0xC71585),
            ("High Wind Warning", 0xDAA520), ("Wind Advisory", 0xD2B48C), ("Red Flag Warning", 0xFF1493),
            ("Hurricane Warning", 0xDC143C), ("Tropical Storm Warning", 0xB22222), ("Special Weather Statement", 0xFFE4B5),
            ("Heat Advisory", 0xFF7F50), ("Dense Fog Advisory", 0x708090), ("Special Marine Warning", 0xFFA500),
        ]
        var out: [String: Color] = [:]
        for (event, rgb) in table {
            out[event] = Color(r: Double(rgb >> 16 & 255) / 255, g: Double(rgb >> 8 & 255) / 255, b: Double(rgb & 255) / 255)
        }
        return out
    }()

    /// An ISO 8601 time with its offset (`2026-12-03T10:45:00-05:00`, `...Z`, fractions of a
    /// second allowed) as Unix seconds; nil for anything else.
    public static func time(_ s: String) -> Double? {
        let b = Array(s.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) { guard b[i] >= 48 && b[i] <= 57 else { return nil }; v = v * 10 + Int(b[i] - 48) }
            return v
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58,
              let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2), let mi = number(14, 2),
              let se = number(17, 2), (1...12).contains(mo), d >= 1, d <= UTCText.daysIn(mo, y), h < 24, mi < 60, se < 61 else { return nil }
        var i = 19
        if i < b.count, b[i] == 46 {                        // a fraction, dropped
            i += 1
            while i < b.count, b[i] >= 48 && b[i] <= 57 { i += 1 }
        }
        var offset = 0
        if i == b.count - 1, b[i] == 90 {                   // Z
        } else if i == b.count - 6, b[i] == 43 || b[i] == 45, b[i + 3] == 58, let oh = number(i + 1, 2), let om = number(i + 4, 2), oh < 24, om < 60 {
            offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
        } else {
            return nil
        }
        return Double(UTCText.daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + se - offset)
    }

}
