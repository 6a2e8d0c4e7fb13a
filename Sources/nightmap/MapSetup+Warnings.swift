import Foundation
import MapData
import NightmapApp

extension MapSetup {
    /// The NWS warnings' feed the options ask for: nil with `--alerts-url none` or a style
    /// without the `warnings` source.
    static func warningsFeed(_ model: MapApp, _ o: Options, cache: AlertsCache = .standard(), clock: @escaping @Sendable () -> Double,
                             report: @escaping @Sendable (String) -> Void) -> WarningsFeed? {
        guard let base = o.alertsURL, model.style.geojson(MapApp.warningsSourceID) != nil else { return nil }
        return WarningsFeed(base: base, contact: o.contact, cache: cache, timeout: 10, clock: clock, report: report)
    }
}
