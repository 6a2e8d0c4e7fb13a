import Foundation
import MapCore

/// The live radar's providers and the map they feed: IEM's mosaic (or the `--radar-url`
/// service) through a `RadarFeed`, RainViewer through a `TileLoopFeed` of a `RainViewerSource`,
/// and the clouds below them through a `TileLoopFeed` of a `CloudsSource`. `update` brings the
/// map up to date once per turn of the run loop: the provider its view wants (switching as the
/// user pans, only the shown provider's feed asking its service), the view the tiled feeds
/// cover, the radar's times the clouds follow, and each one's newest series.
public final class RadarProviders {
    public let wms: RadarFeed?
    public let rainViewer: TileLoopFeed?
    /// The clouds (asking their service only while the clouds layer is shown).
    public let clouds: TileLoopFeed?
    private var generations: [RadarProvider: Int] = [:]
    private var cloudsGeneration = 0

    public init(wms: RadarFeed?, rainViewer: TileLoopFeed?, clouds: TileLoopFeed? = nil) {
        self.wms = wms; self.rainViewer = rainViewer; self.clouds = clouds
        // (Each asks its service once `update` shows it: a provider the view does not want asks nothing.)
        wms?.setActive(false); rainViewer?.setActive(false); clouds?.setActive(false)
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
        clouds?.start(name: "nightmap.clouds")
    }

    public func stop() {
        wms?.stop()
        rainViewer?.stop()
        clouds?.stop()
    }

    /// Brings `app` up to date; true when the radar shown changed (a new provider or series).
    @discardableResult
    public func update(_ app: inout MapApp, since: Double? = nil) -> Bool {
        let cloudsChanged = updateClouds(&app)
        guard let wanted = app.radarProviderWanted else { return cloudsChanged }
        let switched = wanted != app.radarProvider
        if switched {
            app.setRadarProvider(wanted)
            wms?.setActive(wanted == .iem)
            rainViewer?.setActive(wanted == .rainviewer)
            generations[wanted] = 0            // (the new provider's newest series shows at once)
        }
        var changed = cloudsChanged || switched
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
        } else if switched {
            // Nothing from the new provider yet: its loading shows, not the other's frames.
            app.showRadar(.empty(provider: (wanted == .iem ? wms?.source.provider : rainViewer?.provider) ?? wanted.name), since: since)
        }
        return changed
    }

    /// The clouds: asked for while shown, for the view and the radar's times; true when new
    /// frames were shown.
    private func updateClouds(_ app: inout MapApp) -> Bool {
        guard let clouds else { return false }
        clouds.setActive(app.cloudsShown)
        guard app.cloudsShown else { return false }
        clouds.want(visible: app.camera.view.visibleMercator, zoom: app.camera.state.zoom)
        clouds.want(times: app.radar?.slots.compactMap(\.time) ?? [])
        guard let (series, generation) = clouds.take(after: cloudsGeneration) else { return false }
        cloudsGeneration = generation
        app.cloudsNewest = (clouds.source as? CloudsSource)?.newest
        app.showClouds(series)
        return true
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
        // Then the clouds of the frame shown.
        if let clouds, app.cloudsShown {
            clouds.want(visible: app.camera.view.visibleMercator, zoom: app.camera.state.zoom)
            clouds.want(times: app.radarFrame?.time.map { [$0] } ?? [])
            clouds.loadNewest(deadline: deadline)
            _ = updateClouds(&app)
        }
    }
}
