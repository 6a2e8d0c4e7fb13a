import Foundation

/// Heatmap layers: the features around the view that pass the filter, each with its weight and
/// radius, and the layer's intensity, opacity and colour ramp.
extension StyledLayer {
    /// The ramp of the layer's `heatmap-color` (made once per layer: it reads neither the zoom
    /// nor the features).
    static func heatmapRamp(_ definition: LayerDefinition, _ paintValues: [PropertyValue?]) -> HeatmapRamp? {
        guard definition.type == .heatmap else { return nil }
        return paintValues[HeatmapPaintProperty.color.rawValue].map(HeatmapRamp.init) ?? HeatmapRamp.standard
    }

    /// `region`: evaluate only the features whose boxes touch it (nil: all).
    func heatmapLayer(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        typealias P = HeatmapPaintProperty
        let d = definition
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        let opacity = number(P.opacity, zc)
        // (An opacity of 0 draws nothing, as in MapLibre.)
        guard opacity > 0, let ramp = heatmapRamp, let data = e.features(style, d) else { return nil }
        let chosen = candidates(data, region)
        let count = chosen?.count ?? data.features.count
        var items: [FeatureDraw<HeatmapPointPaint>.Item] = []
        var shared: HeatmapPointPaint? = nil
        for k in 0..<count {
            let feature = data.features[chosen.map { Int($0[k]) } ?? k]
            if let f = d.filter, !f.matches(feature.evaluation, zoom: e.zoom) { continue }
            let g = feature.geometry
            guard !g.isEmpty else { continue }
            if let shared { items.append(.init(paint: shared, geometry: g)); continue }
            let c = EvaluationContext(zoom: e.zoom, feature: feature.evaluation, time: e.now)
            let p = HeatmapPointPaint(weight: number(P.weight, c), radius: e.length(number(P.radius, c) * e.pixelRatio))
            if !paintReadsFeatures { shared = p }
            items.append(.init(paint: p, geometry: g))
        }
        guard !items.isEmpty else { return nil }
        // A vector source's lines and polygons are cut to their tiles' squares and joined again:
        // the renderer leaves out the vertices the cuts made, on the deepest tiles' edges.
        let cuts = style.geojson(d.source) == nil ? d.source.flatMap { e.tiles?.vector[$0]?.entries.map(\.square.z).max() } : nil
        return .init(id: d.id, .heatmap(HeatmapDraw(points: FeatureDraw(items: items, tileZoom: cuts), intensity: number(P.intensity, zc),
                                                    opacity: opacity, ramp: ramp)))
    }
}
