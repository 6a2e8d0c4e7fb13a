import Foundation
import Raster

/// Fill, line and circle layers drawn feature by feature: the features around the view that
/// pass the filter, each with its paint.
extension StyledLayer {
    /// `region`: evaluate only the features whose boxes touch it (nil: all).
    func featureLayer(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        let d = definition
        switch d.type {
        case .fill:
            return features(style, e, region: region, translate: FillPaintProperty.translate, .translateAnchor, draws: { $0 == .polygons }) {
                featureFillPaint(style, $0, e)
            }.map { .init(id: d.id, .fill(.features($0))) }
        case .line:
            return features(style, e, region: region, translate: LinePaintProperty.translate, .translateAnchor, draws: { $0 != .points }) {
                linePaint($0, e)
            }.map { .init(id: d.id, .line(.features($0))) }
        case .circle:
            return features(style, e, region: region, translate: CirclePaintProperty.translate, .translateAnchor, draws: { _ in true }) {
                circlePaint($0, e)
            }.map { .init(id: d.id, .circle($0)) }
        default:
            return nil
        }
    }

    /// The layer's features around `region` (nil: all) that pass its filter and whose geometry
    /// kind it `draws`, each with the paint `paint` evaluates for it (nil: the feature draws
    /// nothing), moved by the layer's `translate` (anchored by `anchor`); nil when none draws.
    private func features<Paint, P: PaintProperty>(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?, translate key: P, _ anchor: P,
                                                   draws: (FeatureGeometry.Kind) -> Bool,
                                                   paint: (EvaluationContext) -> Paint?) -> FeatureDraw<Paint>? {
        let d = definition
        guard let data = e.features(style, d) else { return nil }
        let chosen = candidates(data, region)
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        var items: [FeatureDraw<Paint>.Item] = []
        let t = pair(key, zc)
        var translate = (x: e.length(t.0 * e.pixelRatio), y: e.length(t.1 * e.pixelRatio))
        // Anchored to the viewport: at a bearing, the screen offset turned back onto the
        // map's axes (the renderer applies it before the view's rotation).
        if e.bearing != 0, string(anchor, zc) == "viewport" {
            let b = e.bearing * Double.pi / 180
            translate = (translate.x * cos(b) - translate.y * sin(b), translate.x * sin(b) + translate.y * cos(b))
        }
        let count = chosen?.count ?? data.features.count
        // The paint of the features drawn, when no property reads them (nil: not made yet, or
        // made for each feature; `.some(nil)`: a pattern the style has no image for, nothing drawn).
        var shared: Paint?? = nil
        for k in 0..<count {
            let feature = data.features[chosen.map { Int($0[k]) } ?? k]
            if !passesFilter(feature.evaluation, zoom: e.zoom) { continue }
            let g = feature.geometry
            // (An empty MultiPoint, Polygon, ...: nothing to draw or place.)
            guard !g.isEmpty, draws(g.kind) else { continue }
            if let shared {
                if let shared { items.append(.init(paint: shared, geometry: g)) }
                continue
            }
            let p = paint(featureContext(feature.evaluation, style, e))
            if !paintReadsFeatures { shared = .some(p) }
            if let p { items.append(.init(paint: p, geometry: g)) }
        }
        guard !items.isEmpty else { return nil }
        // GeoJSON sources: their maxzoom (18 unless set); tiled ones are overzoomed into tiles of the camera's zoom.
        let tileZoom = Int(min(max(finite(e.zoom).rounded(.down), 0), Double(style.geojson(d.source)?.options.maxZoom ?? 30)))
        return FeatureDraw(items: items, translate: translate, tileZoom: tileZoom)
    }
}
