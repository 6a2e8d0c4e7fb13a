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
        /// The glyph source's arrivals (labels waiting for glyphs are evaluated again).
        let glyphs: Int
        /// The version of the feature states the layer reads (0: none).
        let states: Int
        let zoom: Double, pixelRatio: Double, light: Color
        /// The instant, for a layer in a transition (else -infinity).
        let time: Double
        /// The features evaluated are those around this box (nil: all).
        let region: MercatorBox?
        let draw: FrameDescription.DrawLayer?
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// Whether features evaluated around `region` serve a frame showing `visible`: all were
    /// (no region), or the view grown by a quarter on each side is still inside it.
    private static func covers(_ region: MercatorBox?, _ visible: MercatorBox?) -> Bool {
        guard let region else { return true }
        guard let visible else { return false }
        return region.contains(visible.grown(by: 0.25))
    }

    /// The layer's draw for `e`: the kept one when its inputs are the same (and, for a source
    /// with an index, the view still well inside the region it was made for), else `make`'s for
    /// the region of three views by three around the visible one (two by two for symbols).
    func draw(_ layer: StyledLayer, _ style: Style, _ e: StyleEvaluation,
              make: (MercatorBox?) -> FrameDescription.DrawLayer?) -> FrameDescription.DrawLayer? {
        let time = layer.isTransitioning(at: e.now) ? e.now : -.infinity
        let id = layer.definition.id
        let data = e.features(style, layer.definition)
        let states = layer.featureStateVersion(style)
        lock.lock()
        if let k = entries[id], k.layer === layer, k.data === data, k.sprite === style.sprite, k.images == style.imagesVersion,
           k.glyphs == (style.glyphs?.generation ?? 0), k.states == states,
           k.zoom == e.zoom || !layer.dependsOnZoom, k.pixelRatio == e.pixelRatio, k.light == e.light, k.time == time,
           Self.covers(k.region, e.visible) {
            lock.unlock()
            return k.draw
        }
        lock.unlock()
        // (Symbol layers over half a view each side: a zooming camera evaluates their filter
        // again every frame, while what else they evaluate is kept by feature.)
        let margin = layer.definition.type == .symbol ? 0.5 : 1
        let region = data?.index == nil ? nil : e.visible.map { $0.grown(by: margin) }
        let glyphs = style.glyphs?.generation ?? 0
        let draw = make(region)
        lock.lock()
        entries[id] = Entry(layer: layer, data: data, sprite: style.sprite, images: style.imagesVersion, glyphs: glyphs, states: states, zoom: e.zoom,
                            pixelRatio: e.pixelRatio, light: e.light, time: time, region: region, draw: draw)
        lock.unlock()
        return draw
    }
}
