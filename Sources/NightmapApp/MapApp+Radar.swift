import MapCore
import Raster

/// The radar player: the radar's series (its slots and their frames) in the radar layer's image
/// source, and the loop's clock choosing the frame shown (`RadarLoop`: the weather example's
/// 1-second loop for untimed frames; newest first, a dwell, then oldest to newest for
/// time-stamped ones).
extension MapApp {
    /// The radar layer's image source id.
    var radarSourceID: String? {
        guard let layer = radarLayerID else { return nil }
        return model.style.layers.first(where: { $0.id == layer })?.source
    }

    /// What the radar shows now.
    public struct RadarShown: Equatable, Sendable {
        /// The slot shown (oldest 0) of `slots`.
        public let slot: Int, slots: Int
        /// The frame shown (oldest 0) of the loop's `frames`.
        public let frame: Int, frames: Int
        public let playing: Bool
        /// The frame's valid time (UTC seconds), nil for untimed frames.
        public let time: Double?
        public let origin: RadarSeries.Origin
        public let name: String
    }

    /// The radar frame shown now, or nil when the radar has none.
    public var radarFrame: RadarShown? {
        guard let series = radar, let f = loop.frame(at: model.now) else { return nil }
        guard f < series.frameSlots.count else { return nil }
        let slot = series.frameSlots[f]
        return RadarShown(slot: slot, slots: series.slots.count, frame: f, frames: series.frameSlots.count, playing: loop.isPlaying,
                          time: series.slots[slot].time, origin: series.origin, name: series.slots[slot].name)
    }

    /// Shows `series` from now: its frames go into the radar's image source (images already
    /// shown stay the same objects, so nothing is redrawn for them), and the loop keeps showing
    /// the frame it showed, wherever it now is in the series.
    /// `since`: the instant the loop counts from when these are its first frames (default now;
    /// a snapshot passes 0, so its loop is the one a window that had the frames from the start
    /// shows at the same elapsed time).
    public mutating func showRadar(_ series: RadarSeries, since: Double? = nil) {
        guard let id = radarSourceID, let old = model.style.image(id) else { return }
        let shown = radarFrame.map { (image: radar?.slots[$0.slot].image, time: $0.time) }
        let slots = series.frameSlots
        let images = slots.map { series.slots[$0].image }
        radar = series
        // The frame shown stays shown: the same image, or (a frame made again, a provider's
        // loop of the same times) the frame of the same time.
        let keeping = images.firstIndex { $0 != nil && $0 === shown?.image ?? nil }
            ?? shown?.time.flatMap { t in slots.firstIndex { series.slots[$0].time == t } }
        loop.setFrames(count: images.count, timed: series.timed, keeping: keeping,
                       at: loop.count == 0 ? min(since ?? model.now, model.now) : model.now)
        let place = series.placement ?? radarHome ?? (old.corners, old.placement)
        let source = ImageSource(corners: place.corners, placement: place.placement, frames: images, names: slots.map { series.slots[$0].name },
                                 times: slots.map { series.slots[$0].time }, runs: slots.map { series.slots[$0].runs })
        try? model.updateImageSource(id, source)
        showAttribution()
        showRadarFrame()
        showCloudsFrame()
        showRadarOverlay()
    }

    /// The attribution: the credits (data, clouds, warnings), then the radar's words.
    mutating func showAttribution() {
        model.attribution = (credits + (radar.map { [$0.attribution] } ?? [])).joined(separator: " · ")
    }

    /// The timeline (every slot, the one shown) and the legend (while `g` has it shown), in the
    /// overlay; changed only when they change.
    mutating func showRadarOverlay() {
        guard let series = radar else {
            if overlay.timeline != nil { overlay.timeline = nil }
            if overlay.legend != nil { overlay.legend = nil }
            return
        }
        let shown = radarFrame?.slot
        // Both describe the radar image: shown while it is in view.
        let area = radarArea
        if series.slots.count >= 2 {
            if overlay.timeline?.current != shown || overlay.timeline?.filled.count != series.slots.count || overlay.timeline?.area != area
                || !(overlay.timeline?.filled.elementsEqual(series.slots.lazy.map { $0.image != nil }) ?? false) {
                overlay.timeline = FrameTimeline(filled: series.slots.map { $0.image != nil }, current: shown, area: area)
            }
        } else if overlay.timeline != nil {
            overlay.timeline = nil
        }
        var legend = showsLegend ? RadarLegend.legend(for: series) : nil
        legend?.area = area
        if overlay.legend != legend { overlay.legend = legend }
    }

    /// The box around the radar image's four corners (nil without a radar layer).
    var radarArea: LngLatBounds? { model.style.image(radarSourceID)?.corners.bounds }

    /// Hands the engine the frame the loop shows, from the instant it changed (after the frame
    /// it changed from, so a cross-fade starts from that one).
    mutating func showRadarFrame() {
        guard let id = radarSourceID, let index = loop.frame(at: model.now) else { return }
        let now = model.now
        guard index != model.imageFrame(source: id) else { return }
        let change = loop.lastChange(at: now)
        if let change { try? model.setImageFrame(source: id, index: change.from, at: change.time) }
        try? model.setImageFrame(source: id, index: index, at: change?.time ?? now)
        showCloudsFrame()
        showRadarOverlay()
    }
}
