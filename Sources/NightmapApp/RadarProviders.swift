import Foundation
import MapCore

/// The live radar's providers and the map they feed: IEM's mosaic (or the `--radar-url`
/// service) through a `RadarFeed`, RainViewer through a `TileLoopFeed` of a `RainViewerSource`. `update` brings the
/// map up to date once per turn of the run loop: the provider its view wants (switching as the
/// user pans, only the shown provider's feed asking its service), the view the RainViewer feed
/// covers, and the shown provider's newest series.
public final class RadarProviders {
    public let wms: RadarFeed?
    public let rainViewer: TileLoopFeed?
    private var generations: [RadarProvider: Int] = [:]

    public init(wms: RadarFeed?, rainViewer: TileLoopFeed?) {
        self.wms = wms; self.rainViewer = rainViewer
    }

    /// The choices these providers allow: both when both are on, else the one there is.
    public func choice(_ wanted: RadarProviderChoice) -> RadarProviderChoice? {
        switch (wms, rainViewer) {
        case (nil, nil): return nil
        case (_?, nil): return .iem
        case (nil, _?): return .rainviewer
        case (_?, _?): return wanted
        }
    }

    /// Starts the feeds' threads (each asks its service only while its provider is shown).
    public func start() {
        wms?.start()
        rainViewer?.start(name: "nightmap.rainviewer")
    }

    public func stop() {
        wms?.stop()
        rainViewer?.stop()
    }

    /// Brings `app` up to date; true when the radar shown changed (a new provider or series).
    @discardableResult
    public func update(_ app: inout MapApp, since: Double? = nil) -> Bool {
        guard let wanted = app.radarProviderWanted else { return false }
        var changed = false
        if wanted != app.radarProvider {
            app.setRadarProvider(wanted)
            wms?.setActive(wanted == .iem)
            rainViewer?.setActive(wanted == .rainviewer)
            generations[wanted] = 0            // (the new provider's newest series shows at once)
            changed = true
        }
        if wanted == .rainviewer, let feed = rainViewer {
            feed.want(visible: app.camera.view.visibleMercator, zoom: app.camera.state.zoom)
        }
        let taken: (series: RadarSeries, generation: Int)?
        switch wanted {
        case .iem: taken = wms?.take(after: generations[.iem] ?? 0)
        case .rainviewer: taken = rainViewer?.take(after: generations[.rainviewer] ?? 0)
        }
        if let (series, generation) = taken {
            generations[wanted] = generation
            app.showRadar(series, since: since)
            changed = true
        } else if changed {
            // Nothing from the new provider yet: its loading shows, not the other's frames.
            app.showRadar(.empty(provider: (wanted == .iem ? wms?.source.provider : rainViewer?.provider) ?? wanted.name), since: since)
        }
        return changed
    }

    /// For `snapshot` and `state`: the provider of `app`'s view loads its first frames (at
    /// most until `deadline`, `ProcessInfo.systemUptime` seconds), shown as a window that had
    /// them from the start shows them.
    public func loadOnce(_ app: inout MapApp, deadline: Double) {
        guard let wanted = app.radarProviderWanted else { return }
        app.setRadarProvider(wanted)
        switch wanted {
        case .iem:
            wms?.refresh(deadline: deadline)
        case .rainviewer:
            guard let feed = rainViewer else { return }
            feed.want(visible: app.camera.view.visibleMercator, zoom: app.camera.state.zoom)
            feed.loadNewest(deadline: deadline)
        }
        generations[wanted] = 0
        let taken = wanted == .iem ? wms?.take(after: 0) : rainViewer?.take(after: 0)
        if let (series, generation) = taken {
            generations[wanted] = generation
            app.showRadar(series, since: 0)
        }
    }
}
