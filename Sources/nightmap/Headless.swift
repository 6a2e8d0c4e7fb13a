import Foundation
import NightmapApp

/// The commands that need no window: snapshot (Snapshot.swift), state (StateCommand.swift) and
/// bench (Bench.swift, BenchScenarios.swift). Here: what they load once before drawing, as the
/// window would at start.
enum Headless {
    /// With a live radar, one refresh of its feed (at most `--radar-timeout` seconds) before
    /// drawing, so the picture is the window's once it has loaded.
    static func loadRadarOnce(_ model: inout MapApp, _ o: Options, cache: RadarCache = .standard(),
                              tileCache: RadarCache = TileLoopFeed.standardCache(), report: @escaping @Sendable (String) -> Void = warn) {
        // (The map's instant, running on from the start, as the budget of a tiled service needs time to pass.)
        let instant = model.clockOrigin + model.now, started = ProcessInfo.processInfo.systemUptime
        guard let providers = MapSetup.radarProviders(model, o, clock: { instant + ProcessInfo.processInfo.systemUptime - started }, report: report,
                                                      wmsCache: cache, tileCache: tileCache) else { return }
        providers.loadOnce(&model, deadline: started + o.radarTimeout)
        model.advance(to: model.now)
        model.status = StatusLine.compose(model, framesPerSecond: nil)
    }

    /// The element set kept current as the window would at start (at most one request, within
    /// its 2 s limit, when CelesTrak's rules allow one).
    static func refreshElementsOnce(_ model: inout MapApp, _ o: Options) {
        guard let refresh = MapSetup.elementsRefresh(model, o) else { return }
        let outcome = refresh.run(now: Date().timeIntervalSince1970, instant: model.clockOrigin + model.now, newestEpoch: model.issOrbitEpoch)
        MapSetup.apply(outcome, to: &model, report: warn)
        model.advance(to: model.now)
    }

    /// With a live or auto source, one request (within the feed's time limit) before drawing.
    static func fetchIssOnce(_ model: inout MapApp, _ o: Options) {
        guard o.issMode != .tle, model.iss != nil else { return }
        let client = IssFeedClient(url: o.issURL ?? IssFeedClient.defaultURL)
        // A second fix a second later when the elements disagree with the first: the two show
        // which way the station moves, which the orbit's fit needs.
        for attempt in 0..<2 {
            if attempt == 1 {
                guard let tracker = model.iss, tracker.elementsStale, tracker.fit == nil else { break }
                Thread.sleep(forTimeInterval: 1.05)
            }
            switch client.fetchNow() {
            case let .success(fix): model.receiveIss(fix)
            case let .failure(e):
                model.issFeedFailed(at: Date().timeIntervalSince1970, reason: e.description)
                warn("\(e.description); keeping the last ISS position")
            }
            if model.iss?.lastFailure != nil { break }
        }
        model.advance(to: model.now)
    }
}
