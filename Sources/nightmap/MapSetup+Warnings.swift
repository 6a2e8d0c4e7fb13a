import Foundation
import MapData
import NightmapApp

extension MapSetup {
    /// The NWS warnings' feed the options ask for: nil with `--alerts-url none`, a style without
    /// the `warnings` source, or a map of another time than now (`--time` more than an hour
    /// away: the alerts in force now say nothing of it).
    static func warningsFeed(_ model: MapApp, _ o: Options, cache: AlertsCache = .standard(), clock: @escaping @Sendable () -> Double,
                             report: @escaping @Sendable (String) -> Void) -> WarningsFeed? {
        guard let base = o.alertsURL, model.style.geojson(MapApp.warningsSourceID) != nil,
              abs(model.clockOrigin + model.now - Date().timeIntervalSince1970) <= 3600 else { return nil }
        return WarningsFeed(base: base, contact: o.contact, cache: cache, timeout: 10, clock: clock, report: report)
    }
}
