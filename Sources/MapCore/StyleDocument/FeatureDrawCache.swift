import Foundation

/// The frame description of each document layer drawn feature by feature, kept while nothing it
/// depends on changes: the layer (a property change makes a new one), its source's data, the
/// style's images, the zoom (for a layer whose drawing can change with it), the pixel ratio,
/// the light and, while one of its properties transitions, the instant. So a frame that only moves the camera evaluates no feature again and
/// allocates nothing for them.
final class FeatureDrawCache: @unchecked Sendable {
    private struct Entry {
        let layer: StyledLayer
        let data: GeoJSONData?
        let sprite: SpriteSheet?
        let images: Int
        let zoom: Double, pixelRatio: Double, light: Color
        /// The instant, for a layer in a transition (else -infinity).
        let time: Double
        let draw: FrameDescription.DrawLayer?
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The layer's draw for `e`: the kept one when its inputs are the same, else `make()`'s.
    func draw(_ layer: StyledLayer, _ style: Style, _ e: StyleEvaluation,
              make: () -> FrameDescription.DrawLayer?) -> FrameDescription.DrawLayer? {
        let time = layer.isTransitioning(at: e.now) ? e.now : -.infinity
        let id = layer.definition.id
        let data = layer.definition.source.flatMap { style.features[$0] }
        lock.lock()
        if let k = entries[id], k.layer === layer, k.data === data, k.sprite === style.sprite, k.images == style.imagesVersion,
           k.zoom == e.zoom || !layer.dependsOnZoom, k.pixelRatio == e.pixelRatio, k.light == e.light, k.time == time {
            lock.unlock()
            return k.draw
        }
        lock.unlock()
        let draw = make()
        lock.lock()
        entries[id] = Entry(layer: layer, data: data, sprite: style.sprite, images: style.imagesVersion, zoom: e.zoom,
                            pixelRatio: e.pixelRatio, light: e.light, time: time, draw: draw)
        lock.unlock()
        return draw
    }
}
