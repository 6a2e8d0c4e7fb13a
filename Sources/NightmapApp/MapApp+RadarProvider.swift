import MapCore

/// Which live radar provider the map shows: the choice (`--radar-provider`, `r` cycles it) and,
/// for `auto`, the view (IEM's mosaic within its box, RainViewer elsewhere; `RadarProviderChoice`).
extension MapApp {
    /// The view's box on the map (for the provider choice).
    public var viewBounds: LngLatBounds {
        let v = camera.view.visibleMercator
        let nw = WebMercator.unproject(MercatorPoint(x: v.minX, y: v.minY)), se = WebMercator.unproject(MercatorPoint(x: v.maxX, y: v.maxY))
        return LngLatBounds(west: nw.lng, south: se.lat, east: se.lng, north: nw.lat)
    }

    /// The provider the view should show now (nil: the radar is not live): IEM's where the view
    /// lies within the box its feed asks for (part of IEM's mosaic: the style's radar box).
    public var radarProviderWanted: RadarProvider? {
        radarChoice?.provider(for: viewBounds, current: radarProvider, box: radarLive?.box ?? RadarProviderChoice.iemBox)
    }

    /// The provider shown from now (the run loop shows its frames).
    public mutating func setRadarProvider(_ p: RadarProvider?) { radarProvider = p }

    /// `r`: auto, then IEM everywhere, then RainViewer everywhere, then auto again (only with a
    /// live radar that has both).
    mutating func cycleRadarProvider() {
        guard let c = radarChoice, radarProviderCycles else { return }
        let all = RadarProviderChoice.allCases
        radarChoice = all[((all.firstIndex(of: c) ?? 0) + 1) % all.count]
    }
}
