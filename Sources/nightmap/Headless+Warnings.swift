import Foundation
import MapData
import NightmapApp

extension Headless {
    /// With warnings on, one poll of the NWS (its requests within `--radar-timeout` seconds)
    /// before drawing, as the window shows them once loaded; offline, the cached answer.
    static func loadWarningsOnce(_ model: inout MapApp, _ o: Options, cache: AlertsCache = .standard(),
                                 report: @escaping @Sendable (String) -> Void = warn) {
        guard let feed = MapSetup.warningsFeed(model, o, cache: cache, clock: { Date().timeIntervalSince1970 }, report: report) else { return }
        feed.poll(deadline: ProcessInfo.processInfo.systemUptime + o.radarTimeout)
        if let (shown, _) = feed.take(after: 0) { model.showWarnings(shown) }
        model.advance(to: model.now)
    }

    /// The warnings for `state`: where they come from (live, cache or off), how many are in
    /// force, the last problem, and each alert's event, expiry and colour (most severe first).
    static func warningsJSON(_ model: MapApp, _ o: Options) -> [String: Any] {
        guard o.alertsURL != nil, model.style.geojson(MapApp.warningsSourceID) != nil, model.warnings.shown != nil else {
            return ["source": "off", "count": 0, "lastError": NSNull(), "shown": false, "alerts": [Any]()]
        }
        let current = model.currentWarnings
        let alerts: [[String: Any]] = current.map { w in
            let b = w.alert.color.bytes
            return ["event": w.alert.event, "expires": w.alert.expires.map(RadarTime.iso) ?? NSNull(),
                    "color": String(format: "#%02x%02x%02x", b.r, b.g, b.b), "severity": w.alert.severity, "drawn": w.shape != nil]
        }
        return ["source": model.warnings.shown?.origin.rawValue ?? "cache", "count": current.count,
                "lastError": model.warnings.shown?.lastError ?? NSNull(), "shown": model.showsWarnings, "alerts": alerts]
    }
}
