import Foundation
import NightmapApp

extension StatusLine {
    /// The NWS warnings while shown: how many alerts are in force, and when they are cached why
    /// ("NWS: 12 alerts, cached (source: HTTP 429 (Too Many Requests))"); nil while hidden or off.
    static func warnings(_ model: MapApp, short: Bool = false) -> String? {
        guard model.showsWarnings, let shown = model.warnings.shown else { return nil }
        let n = model.currentWarnings.count
        let count = "\(n) alert\(n == 1 ? "" : "s")"
        if short { return "NWS \(count)" + (shown.origin == .cache ? ", cached" : "") }
        guard shown.origin == .cache else { return "NWS: \(count)" }
        // The reason without the URL it starts with (a URL holds no ": ").
        let reason = shown.lastError.map { e in " (source: \(e.range(of: ": ").map { String(e[$0.upperBound...]) } ?? e))" } ?? ""
        return "NWS: \(count), cached\(reason)"
    }
}
