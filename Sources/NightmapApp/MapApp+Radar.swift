import MapCore

/// The radar player: the timer's count, modulo the number of frames, is the frame the radar's
/// image source shows (the weather example's 1-second loop 0 -> 1 -> ... -> 4 -> 0).
extension MapApp {
    /// The radar layer's image source and its frame count.
    private var radarSource: (id: String, count: Int)? {
        guard let layer = radarLayerID, let id = model.style.layers.first(where: { $0.id == layer })?.source,
              let source = model.style.image(id), !source.frames.isEmpty else { return nil }
        return (id, source.frames.count)
    }

    /// The radar frame the timer points at now, the number of frames, and whether it plays.
    public var radarFrame: (index: Int, count: Int, playing: Bool)? {
        guard let (_, n) = radarSource else { return nil }
        return (Self.wrap(timer.ticks(at: model.now), n), n, timer.isPlaying)
    }

    /// Hands the engine the frame the timer points at, from the instant the count last changed
    /// (after the frame it changed from, so a cross-fade starts from that one).
    mutating func showRadarFrame() {
        guard let (id, n) = radarSource else { return }
        let now = model.now
        let index = Self.wrap(timer.ticks(at: now), n)
        guard index != model.imageFrame(source: id) else { return }
        let change = timer.lastChange(at: now)
        if let change { try? model.setImageFrame(source: id, index: Self.wrap(change.from, n), at: change.time) }
        try? model.setImageFrame(source: id, index: index, at: change?.time ?? now)
    }

    private static func wrap(_ i: Int, _ n: Int) -> Int { ((i % n) + n) % n }
}
