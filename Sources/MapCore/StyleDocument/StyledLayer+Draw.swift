import Foundation
import Raster

/// The layer as the frame draws it: which path each layer type takes to its `DrawLayer`.
extension StyledLayer {
    /// The layer as the frame draws it, or nil when it shows nothing: paint evaluated for the
    /// zoom and each feature (filtered), lengths scaled to device pixels, colours lit.
    public func drawLayer(_ style: Style, _ e: StyleEvaluation,
                          image: (ImageSource, RasterPaint) -> FrameDescription.ImageDraw?) -> FrameDescription.DrawLayer? {
        drawLayer(style, e, cache: nil, image: image)
    }

    /// The same, with layers drawn feature by feature kept in `cache` while their inputs stay.
    func drawLayer(_ style: Style, _ e: StyleEvaluation, cache: FeatureDrawCache?,
                   image: (ImageSource, RasterPaint) -> FrameDescription.ImageDraw?) -> FrameDescription.DrawLayer? {
        let d = definition
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        switch d.type {
        case .background:
            let color = color(BackgroundPaintProperty.color, zc).lit(by: e.light, emissive: number(BackgroundPaintProperty.emissiveStrength, zc))
            return .init(id: d.id, .background(color: color, opacity: number(BackgroundPaintProperty.opacity, zc)))
        case .raster:
            if let tiles = e.tiles?.rasterTiles(d.source) {
                let p = rasterPaint(zoom: e.zoom, now: e.now)
                let light = Color.white.lit(by: e.light, emissive: p.emissiveStrength)
                let draws = tiles.map {
                    FrameDescription.ImageDraw(image: $0.image, previous: nil, fade: 1, corners: $0.corners, placement: .linear, light: light,
                                               pixelAligned: e.still, gridStep: e.pixelRatio, aliased: true)
                }
                return .init(id: d.id, .raster(RasterDraw(paint: p, tiles: draws)))
            }
            guard let source = style.image(d.source) else { return nil }
            let p = rasterPaint(zoom: e.zoom, now: e.now)
            guard let draw = image(source, p) else { return nil }
            return .init(id: d.id, .raster(RasterDraw(paint: p, image: draw)))
        case .fill, .line:
            // A layer that draws every feature alike: one paint for all its geometry.
            if drawsAlike, let g = e.tiles?.geometry(d.source, layer: d.sourceLayer, lines: d.type == .line) {
                return .init(id: d.id, d.type == .fill ? .fill(.uniform(g, fillPaint(zc, e))) : .line(.uniform(g, linePaint(zc, e, typed: true))))
            }
            return cache.map { $0.draw(self, style, e) { featureLayer(style, e, region: $0) } } ?? featureLayer(style, e, region: nil)
        case .circle:
            return cache.map { $0.draw(self, style, e) { featureLayer(style, e, region: $0) } } ?? featureLayer(style, e, region: nil)
        case .symbol:
            return cache.map { $0.draw(self, style, e) { symbolLayer(style, e, region: $0) } } ?? symbolLayer(style, e, region: nil)
        case .heatmap:
            return cache.map { $0.draw(self, style, e) { heatmapLayer(style, e, region: $0) } } ?? heatmapLayer(style, e, region: nil)
        case .hillshade: return hillshadeLayer(e)
        case .colorRelief: return colorReliefLayer(e)
        case .fillExtrusion: return fillExtrusionLayer(style, e, cache: cache)
        }
    }

    /// The indices of the features of `data` whose boxes touch `region` (nil: all of them).
    func candidates(_ data: GeoJSONData, _ region: MercatorBox?) -> [Int32]? {
        guard let region, let index = data.index else { return nil }
        var candidates: [Int32] = [], seen: [Bool] = []
        index.query(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY, into: &candidates, seen: &seen)
        return candidates
    }

    private func symbolLayer(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        guard let data = e.features(style, definition),
              let set = symbolSet(style, data, e, candidates: candidates(data, region)) else { return nil }
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        return .init(id: definition.id, .symbol(SymbolDraw(set: set, iconTranslate: screenTranslate(.iconTranslate, .iconTranslateAnchor, zc, e),
                                                           textTranslate: screenTranslate(.textTranslate, .textTranslateAnchor, zc, e))))
    }

    /// A symbol layer's `icon-translate` or `text-translate` on screen, in device pixels: anchored
    /// to the map (the default), it turns with the map at a bearing; to the viewport, it does not.
    private func screenTranslate(_ translate: SymbolPaintProperty, _ anchor: SymbolPaintProperty, _ zc: EvaluationContext,
                                 _ e: StyleEvaluation) -> (x: Double, y: Double) {
        let t = pair(translate, zc)
        let x = e.length(t.0 * e.pixelRatio), y = e.length(t.1 * e.pixelRatio)
        guard x != 0 || y != 0 else { return (0, 0) }
        guard e.bearing != 0, string(anchor, zc) != "viewport" else { return (x, y) }
        let b = e.bearing * Double.pi / 180
        return (x * cos(b) + y * sin(b), -x * sin(b) + y * cos(b))
    }
}
