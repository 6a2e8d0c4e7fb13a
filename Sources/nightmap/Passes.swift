import Foundation
import MapCore
import NightmapApp
import Orbit

/// `nightmap passes`: the ISS's next passes over the observer from the instant shown, from the
/// orbit the map draws (the element set kept current, fitted to the live feed when it answers).
enum Passes {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func run(_ o: Options) throws -> String {
        guard let place = o.observer else {
            throw Failure(description: "passes: no observer: give --observer LAT,LON (or observer = LAT,LON in \(ConfigFile.path()))")
        }
        var model = try MapSetup.model(o, report: warn)
        Headless.refreshElementsOnce(&model, o)
        Headless.fetchIssOnce(&model, o)
        guard let tracker = model.iss, let finder = tracker.passFinder(observer: place) else {
            throw Failure(description: "passes: no ISS orbit (the style has no iss layer, or no element set loads)")
        }
        let start = model.clockOrigin + model.now
        let list = finder.passes(from: start, to: start + o.days * 86400, minElevation: o.minElevation)
        return o.json ? json(list) : table(list, place: place, start: start, o: o, tracker: tracker)
    }

    static func iso(_ t: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: t.rounded()))
    }

    /// `[{"rise", "culminate", "set", "maxElevation", "riseAzimuth", "setAzimuth", "visible"}]`, in time order.
    static func json(_ passes: [Pass]) -> String {
        let rows: [[String: Any]] = passes.map { p in
            ["rise": iso(p.rise), "culminate": iso(p.culmination), "set": iso(p.set),
             "maxElevation": (p.maxElevation * 100).rounded() / 100, "riseAzimuth": (p.riseAzimuth * 10).rounded() / 10,
             "setAzimuth": (p.setAzimuth * 10).rounded() / 10, "visible": p.visible]
        }
        let data = (try? JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys, .prettyPrinted])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// "NNE": the compass point of an azimuth (16 of them).
    static func compass(_ azimuth: Double) -> String {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        return names[Int((azimuth / 22.5).rounded()) % 16]
    }

    static func table(_ passes: [Pass], place: LngLat, start: Double, o: Options, tracker: IssTracker, zone: TimeZone = .current) -> String {
        let utc = DateFormatter(), local = DateFormatter(), day = DateFormatter()
        for f in [utc, local, day] { f.locale = Locale(identifier: "en_US_POSIX") }
        utc.timeZone = TimeZone(secondsFromGMT: 0); utc.dateFormat = "HH:mm:ss"
        day.timeZone = TimeZone(secondsFromGMT: 0); day.dateFormat = "yyyy-MM-dd"
        local.timeZone = zone; local.dateFormat = "HH:mm:ss"
        let zoneName: String = { let f = DateFormatter(); f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = zone; f.dateFormat = "zzz"
            return f.string(from: Date(timeIntervalSince1970: start)) }()
        func t(_ f: DateFormatter, _ s: Double) -> String { f.string(from: Date(timeIntervalSince1970: s.rounded())) }
        var lines: [String] = []
        var elements = "elements " + (tracker.orbitEpoch.map { String(format: "%@, %.1f days old", iso($0), (start - $0) / 86400) } ?? "unknown")
        if tracker.fit != nil { elements += ", fitted to the live feed" }
        lines.append(String(format: "ISS passes over %@ for %g day%@ from %@ UTC, highest elevation %g° or more (%@):",
                            StatusLine.coordinates(place), o.days, o.days == 1 ? "" : "s", day.string(from: Date(timeIntervalSince1970: start)) + " " + t(utc, start),
                            o.minElevation, elements))
        if let epoch = tracker.orbitEpoch, max(abs(start - epoch), abs(start + o.days * 86400 - epoch)) > 7 * 86400 {
            lines.append("(the element set is over a week from these days: times may be minutes off)")
        }
        guard !passes.isEmpty else { return (lines + ["none"]).joined(separator: "\n") }
        // Columns: a header and each row's value, left-aligned, two spaces apart.
        let rows: [[String]] = passes.map { p in
            [day.string(from: Date(timeIntervalSince1970: p.rise)), t(utc, p.rise), t(utc, p.culmination), t(utc, p.set),
             t(local, p.rise), t(local, p.culmination), t(local, p.set), String(format: "%.1f°", p.maxElevation),
             String(format: "%.0f° %@", p.riseAzimuth, compass(p.riseAzimuth)), String(format: "%.0f° %@", p.setAzimuth, compass(p.setAzimuth)),
             p.visible ? "yes" : "no"]
        }
        let header = ["date (UTC)", "rise", "culminates", "sets", "\(zoneName) rise", "culminates", "sets", "max", "from", "to", "visible"]
        let widths = header.indices.map { k in ([header] + rows).map { $0[k].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        lines.append(line(header))
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}
