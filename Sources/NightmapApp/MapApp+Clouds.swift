import MapCore
import Raster

/// The clouds layer (`clouds`, a raster layer on an image source, below the radar): the clouds'
/// frames (`CloudsSource` through a `TileLoopFeed`), and for each radar frame shown the clouds
/// of its time (the newest clouds frame at or before it). `c` shows or hides the layer.
extension MapApp {
    /// The clouds layer's id.
    public static let cloudsID = "clouds"

    /// The clouds layer's image source (nil: the map has no clouds layer on an image source).
    var cloudsSourceID: String? {
        guard let source = model.style.layers.first(where: { $0.id == Self.cloudsID })?.source, model.style.image(source) != nil else { return nil }
        return source
    }

    /// Whether the map has a clouds layer, and whether it is shown.
    public var hasClouds: Bool { cloudsSourceID != nil }
    public var cloudsShown: Bool { hasClouds && isShown(Self.cloudsID) }

    /// Shows `series` in the clouds layer: its frames (placed by the series) and, at once, the
    /// one for the radar frame shown.
    public mutating func showClouds(_ series: RadarSeries) {
        guard let id = cloudsSourceID, let old = model.style.image(id) else { return }
        clouds = series
        let slots = series.frameSlots
        let place = series.placement ?? (old.corners, old.placement)
        let source = ImageSource(corners: place.corners, placement: place.placement, frames: slots.map { series.slots[$0].image },
                                 names: slots.map { series.slots[$0].name }, times: slots.map { series.slots[$0].time },
                                 runs: slots.map { series.slots[$0].runs })
        try? model.updateImageSource(id, source)
        showCloudsFrame()
        creditClouds()
    }

    /// The clouds' makers in the attribution while the layer shows frames ("clouds: NASA EOSDIS GIBS").
    mutating func creditClouds() {
        let credit = clouds.map { "clouds: \($0.provider)" }
        let wanted = cloudsShown && clouds?.frameSlots.isEmpty == false ? credit : nil
        let present = credits.filter { $0.hasPrefix("clouds: ") }
        guard present != (wanted.map { [$0] } ?? []) else { return }
        credits.removeAll { $0.hasPrefix("clouds: ") }
        if let wanted { credits.append(wanted) }
        showAttribution()
    }

    /// The clouds frame (of the clouds' frames) for the radar frame shown: the last that is not
    /// later than it; the newest without a timed radar frame. Nil without clouds frames.
    public var cloudsFrame: Int? {
        guard let series = clouds, !series.frameSlots.isEmpty else { return nil }
        let times = series.frameSlots.map { series.slots[$0].time ?? 0 }
        guard let t = radarFrame?.time else { return times.count - 1 }
        return times.lastIndex { $0 <= t } ?? 0
    }

    /// Hands the engine the clouds frame for the radar frame shown (no fade: the radar's cut).
    mutating func showCloudsFrame() {
        guard let id = cloudsSourceID, let index = cloudsFrame, index != model.imageFrame(source: id) else { return }
        try? model.setImageFrame(source: id, index: index, at: model.now)
    }
}
