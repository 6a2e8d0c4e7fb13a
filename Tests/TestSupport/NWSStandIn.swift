import Foundation
import MapData

/// The NWS API (api.weather.gov) on 127.0.0.1 for tests, serving the recorded shapes of its
/// answers (WORLD-DATA.md, section 3; Tests/Fuzz/nwsalerts): `/alerts/active` holds a storm-based
/// Tornado Warning (a polygon over Moore, OK) and a zone-based Winter Storm Watch whose
/// `affectedZones` point at this server's `/zones/forecast/XXZ001` (a square in western
/// Oklahoma); `oddities` adds an alert of an event the colour table does not know, one with
/// neither polygon nor zones and a Flood Watch whose only zone 404s. Answers carry `Date` (the
/// stand-in's `now`), `Expires` (`expiresAfter` seconds later) and `Last-Modified`; `mode` makes
/// the alerts answer badly instead, or 304 to a request with `If-Modified-Since`.
public final class NWSStandIn: @unchecked Sendable {
    public enum Mode: Sendable, Equatable {
        case normal
        /// 304 whenever the request revalidates, else the alerts.
        case notModified
        case status(Int)            // 404, 429, 500 ... with an HTML body
        case html                   // 200 with an HTML error page
        case problem                // 400 with application/problem+json (as the API answers a bad query)
        case problem200             // 200 with the problem's JSON
        case hang                   // accepts, never answers
    }

    public let server: LocalHTTPServer
    private let lock = NSLock()
    private var _mode = Mode.normal
    private var _now: Double
    private var _oddities = false

    /// When the alerts begin (Unix seconds); they expire `lifetime` seconds later.
    public let issued: Double
    public var lifetime = 3600.0
    /// The `Expires` header's distance from `Date`, seconds.
    public var expiresAfter = 120.0

    /// The Tornado Warning's polygon and the zone's square (west, south, east, north).
    public static let tornadoBox = (west: -97.6, south: 35.3, east: -97.3, north: 35.5)
    public static let zoneBox = (west: -99.5, south: 35.6, east: -98.9, north: 36.1)

    public init(issued: Double) throws {
        self.issued = issued
        _now = issued
        let box = Box()
        server = try LocalHTTPServer(.routeHead { target, head in box.standIn?.answer(target, head) ?? .status(500, "not ready") })
        box.standIn = self
    }

    public func stop() { server.stop() }

    public var base: String { "http://127.0.0.1:\(server.port)" }
    public var mode: Mode { get { lock.lock(); defer { lock.unlock() }; return _mode } set { lock.lock(); _mode = newValue; lock.unlock() } }
    /// The server's clock, for the `Date` and `Expires` headers.
    public var now: Double { get { lock.lock(); defer { lock.unlock() }; return _now } set { lock.lock(); _now = newValue; lock.unlock() } }
    public var oddities: Bool { get { lock.lock(); defer { lock.unlock() }; return _oddities } set { lock.lock(); _oddities = newValue; lock.unlock() } }

    /// Requests for the alerts, and for zones, so far.
    public var alertRequests: [String] { server.heads.filter { $0.hasPrefix("GET /alerts/") } }
    public var zoneRequests: [String] { server.targets.filter { $0.hasPrefix("/zones/") } }

    func answer(_ target: String, _ head: String) -> LocalHTTPServer.Behaviour {
        if target.hasPrefix("/zones/") {
            if target == "/zones/forecast/XXZ001" { return reply(200, zoneJSON(), type: "application/geo+json") }
            return reply(404, Self.problemJSON(title: "Not Found", detail: "Zone does not exist"), type: "application/problem+json")
        }
        guard target.hasPrefix("/alerts/active") else { return .status(404, "<html><body>Not Found</body></html>") }
        switch mode {
        case .normal: return reply(200, alertsJSON(), type: "application/geo+json")
        case .notModified:
            return head.lowercased().contains("\r\nif-modified-since:") ? reply(304, "", type: nil)
                : reply(200, alertsJSON(), type: "application/geo+json")
        case let .status(code): return reply(code, "<!DOCTYPE html><html><body><h1>Error \(code)</h1></body></html>", type: "text/html")
        case .html: return reply(200, "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>", type: "text/html")
        case .problem: return reply(400, Self.problemJSON(title: "Bad Request", detail: "Parameter \"status\" is invalid"), type: "application/problem+json")
        case .problem200: return reply(200, Self.problemJSON(title: "Unexpected Problem", detail: "An unexpected problem has occurred."), type: "application/problem+json")
        case .hang: return .silent
        }
    }

    /// A whole answer with the API's caching headers.
    func reply(_ status: Int, _ body: String, type: String?) -> LocalHTTPServer.Behaviour {
        let t = now
        var head = "HTTP/1.1 \(status) X\r\nDate: \(Self.httpDate(t))\r\nExpires: \(Self.httpDate(t + expiresAfter))\r\n"
            + "Last-Modified: \(Self.httpDate(issued))\r\nCache-Control: public, max-age=\(Int(expiresAfter))\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        let data = Data(body.utf8)
        head += "Content-Length: \(data.count)\r\nConnection: close\r\n\r\n"
        return .raw(Data(head.utf8) + data)
    }

    /// `/alerts/active` as the API serves it (the fields clients read, as recorded).
    public func alertsJSON() -> String {
        var features = [
            feature(n: 1, event: "Tornado Warning", severity: "Extreme", urgency: "Immediate", certainty: "Observed",
                    geometry: Self.polygon(Self.tornadoBox), zones: ["https://api.weather.gov/zones/county/OKC027"],
                    headline: "Tornado Warning issued December 3 at 4:40PM CST by NWS Norman OK",
                    instruction: "TAKE COVER NOW! Move to a basement or an interior room on the lowest floor of a sturdy building. Avoid windows."),
            feature(n: 2, event: "Winter Storm Watch", severity: "Moderate", urgency: "Future", certainty: "Possible",
                    geometry: "null", zones: ["\(base)/zones/forecast/XXZ001"],
                    headline: "Winter Storm Watch issued December 3 at 3:00PM CST by NWS Norman OK",
                    instruction: "Persons should consider delaying all travel."),
        ]
        if oddities {
            features.append(feature(n: 3, event: "Hydrologic Outlook", severity: "Unknown", urgency: "Future", certainty: "Possible",
                                    geometry: Self.polygon((-96, 34, -95.5, 34.5)), zones: [], headline: nil, instruction: nil))
            features.append(feature(n: 4, event: "Special Weather Statement", severity: "Minor", urgency: "Expected", certainty: "Observed",
                                    geometry: "null", zones: [], headline: nil, instruction: nil))
            features.append(feature(n: 5, event: "Flood Watch", severity: "Severe", urgency: "Expected", certainty: "Possible",
                                    geometry: "null", zones: ["https://api.weather.gov/zones/forecast/XXZ404"],
                                    headline: "Flood Watch issued December 3", instruction: nil))
        }
        return #"{"@context":["https://geojson.org/geojson-ld/geojson-context.jsonld",{"@version":"1.1"}],"type":"FeatureCollection","features":["#
            + features.joined(separator: ",") + #"],"title":"Current watches, warnings, and advisories","updated":""# + Self.iso(issued) + "\"}"
    }

    func feature(n: Int, event: String, severity: String, urgency: String, certainty: String, geometry: String, zones: [String],
                 headline: String?, instruction: String?) -> String {
        let id = "urn:oid:2.49.0.1.840.0.\(n)"
        func quoted(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }
        let zoneList = zones.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"id":"https://api.weather.gov/alerts/\#(id)","type":"Feature","geometry":\#(geometry),"properties":{"@id":"https://api.weather.gov/alerts/\#(id)","@type":"wx:Alert","id":"\#(id)","areaDesc":"Oklahoma, OK","geocode":{"UGC":["OKC109"],"SAME":["040109"]},"affectedZones":[\#(zoneList)],"references":[],"sent":"\#(Self.iso(issued))","effective":"\#(Self.iso(issued))","onset":"\#(Self.iso(issued))","expires":"\#(Self.iso(issued + lifetime))","ends":"\#(Self.iso(issued + lifetime))","status":"Actual","messageType":"Alert","category":"Met","severity":"\#(severity)","certainty":"\#(certainty)","urgency":"\#(urgency)","event":"\#(event)","sender":"w-nws.webmaster@noaa.gov","senderName":"NWS Norman OK","headline":\#(quoted(headline)),"description":"...","instruction":\#(quoted(instruction)),"response":"Shelter","parameters":{"AWIPSidentifier":["TORIOUN"]}}}"#
    }

    /// `/zones/forecast/XXZ001`: a Feature with the zone's polygon, as the API serves it.
    public func zoneJSON() -> String {
        #"{"@context":{"@version":"1.1"},"id":"https://api.weather.gov/zones/forecast/XXZ001","type":"Feature","geometry":"#
            + Self.polygon(Self.zoneBox)
            + #","properties":{"@id":"https://api.weather.gov/zones/forecast/XXZ001","@type":"wx:Zone","id":"XXZ001","type":"public","name":"Test County","state":"OK","forecastOffices":["https://api.weather.gov/offices/OUN"],"timeZone":["America/Chicago"]}}"#
    }

    static func polygon(_ b: (west: Double, south: Double, east: Double, north: Double)) -> String {
        #"{"type":"Polygon","coordinates":[[[\#(b.west),\#(b.south)],[\#(b.east),\#(b.south)],[\#(b.east),\#(b.north)],[\#(b.west),\#(b.north)],[\#(b.west),\#(b.south)]]]}"#
    }

    static func problemJSON(title: String, detail: String) -> String {
        #"{"correlationId":"1b2c","title":"\#(title)","type":"https://api.weather.gov/problems/X","status":400,"detail":"\#(detail.replacingOccurrences(of: "\"", with: "\\\""))","instance":"https://api.weather.gov/requests/1b2c"}"#
    }

    /// `2026-12-03T16:40:00-06:00` (the API gives local offsets).
    static func iso(_ t: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: -6 * 3600)
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    /// `Thu, 03 Dec 2026 22:40:00 GMT`.
    static func httpDate(_ t: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    /// Lets the route closure reach the stand-in made after the server.
    private final class Box: @unchecked Sendable { weak var standIn: NWSStandIn? }
}
