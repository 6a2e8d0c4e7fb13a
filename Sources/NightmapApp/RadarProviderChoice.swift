import MapCore

/// Which radar provider a view gets (`--radar-provider auto|iem|rainviewer`): IEM's NEXRAD mosaic
/// (5-minute frames, sharper) where the view lies within its box, RainViewer's global radar
/// elsewhere. "Within" is: the view's centre in the box and at least `enterShare` of the view (by
/// area in Web Mercator), so the US Northeast with a strip of the Atlantic is IEM's. `auto`
/// switches as the user pans, with some hold: a view showing IEM keeps it while at least
/// `keepShare` of it lies in the box, so panning along the box's edge does not flip the
/// providers back and forth.
public enum RadarProviderChoice: String, Sendable, CaseIterable {
    case auto, iem, rainviewer

    /// The mosaic's extent (IEM's `n0q` composite: 126 to 66 degrees west, 24 to 50 north).
    public static let iemBox = LngLatBounds(west: -126, south: 24, east: -66, north: 50)
    public static let enterShare = 0.75, keepShare = 0.55

    /// The provider for a view of `view`, given the one shown now (nil: none yet); `box` is
    /// where the WMS feed's frames are (IEM's whole mosaic, or the part the feed asks for).
    public func provider(for view: LngLatBounds, current: RadarProvider?, box: LngLatBounds = iemBox) -> RadarProvider {
        switch self {
        case .iem: return .iem
        case .rainviewer: return .rainviewer
        case .auto:
            let share = Self.share(of: view, in: box)
            if current == .iem { return share >= Self.keepShare ? .iem : .rainviewer }
            let centre = LngLat(lng: (view.west + view.east) / 2, lat: (view.south + view.north) / 2)
            let inside = centre.lng >= box.west && centre.lng <= box.east && centre.lat >= box.south && centre.lat <= box.north
            return inside && share >= Self.enterShare ? .iem : .rainviewer
        }
    }

    /// The share (0...1) of `view`'s area in Web Mercator that lies in `box`; 0 for an empty or
    /// not finite view. A view wider than the world counts the part beyond it as outside.
    public static func share(of view: LngLatBounds, in box: LngLatBounds) -> Double {
        func x(_ lng: Double) -> Double { WebMercator.x(lng: lng) }
        func y(_ lat: Double) -> Double { WebMercator.y(lat: min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)) }
        let vw = x(view.east) - x(view.west), vh = y(view.south) - y(view.north)
        guard vw.isFinite, vh.isFinite, vw > 0, vh > 0 else { return 0 }
        let iw = max(0, min(x(view.east), x(box.east)) - max(x(view.west), x(box.west)))
        let ih = max(0, min(y(view.south), y(box.south)) - max(y(view.north), y(box.north)))
        return min(1, iw * ih / (vw * vh))
    }
}

/// A radar provider (what `RadarProviderChoice` picks).
public enum RadarProvider: String, Sendable {
    case iem, rainviewer

    /// Its name in the status line and the attribution.
    public var name: String { self == .iem ? RadarFeed.Source.iemProvider : "RainViewer" }
}
