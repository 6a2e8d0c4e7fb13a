import Foundation

/// Fill-extrusion layers: the polygon features around the view that pass the filter, each with
/// its colour, height and base, the layer's opacity and translate, and the style's light.
extension StyledLayer {
    /// The layer's draw, its features kept in `cache` while their inputs stay; the light (which
    /// turns with the bearing) is evaluated for every frame.
    func fillExtrusionLayer(_ style: Style, _ e: StyleEvaluation, cache: FeatureDrawCache?) -> FrameDescription.DrawLayer? {
        let made = cache.map { $0.draw(self, style, e) { fillExtrusionFeatures(style, e, region: $0) } }
            ?? fillExtrusionFeatures(style, e, region: nil)
        guard let made, case let .fillExtrusion(draw) = made.content else { return nil }
        return .init(id: made.id, .fillExtrusion(draw.lit(by: style.light.evaluate(zoom: e.zoom, bearing: e.bearing))))
    }

    /// `region`: evaluate only the features whose boxes touch it (nil: all).
    func fillExtrusionFeatures(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        typealias P = FillExtrusionPaintProperty
        let d = definition
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        let opacity = min(max(number(P.opacity, zc), 0), 1)
        // (An opacity of 0 draws nothing, as in MapLibre.)
        guard opacity > 0, let data = e.features(style, d) else { return nil }
        let chosen = candidates(data, region)
        let count = chosen?.count ?? data.features.count
        var items: [FeatureDraw<FillExtrusionPaint>.Item] = []
        // (`.some(nil)`: a pattern the style has no image for, nothing drawn.)
        var shared: FillExtrusionPaint?? = nil
        for k in 0..<count {
            let feature = data.features[chosen.map { Int($0[k]) } ?? k]
            if !passesFilter(feature.evaluation, zoom: e.zoom) { continue }
            let g = feature.geometry
            guard !g.isEmpty, g.kind == .polygons else { continue }
            if let shared {
                if let shared { items.append(.init(paint: shared, geometry: g)) }
                continue
            }
            let c = featureContext(feature.evaluation, style, e)
            let p = fillExtrusionPaint(style, c, e)
            if !paintReadsFeatures { shared = .some(p) }
            if let p { items.append(.init(paint: p, geometry: g)) }
        }
        guard !items.isEmpty else { return nil }
        let t = pair(P.translate, zc)
        var translate = (x: e.length(t.0 * e.pixelRatio), y: e.length(t.1 * e.pixelRatio))
        // Anchored to the viewport: at a bearing, the screen offset turned back onto the map's axes.
        if e.bearing != 0, string(P.translateAnchor, zc) == "viewport" {
            let b = e.bearing * Double.pi / 180
            translate = (translate.x * cos(b) - translate.y * sin(b), translate.x * sin(b) + translate.y * cos(b))
        }
        let gradient = paint(P.verticalGradient, zc) != .bool(false)
        // A GeoJSON source's vertices lie on its tiles' grid (8192 units a tile, at the zoom
        // its tiles are cut at) in the reference engines: the renderer puts them there too.
        let tileZoom = style.geojson(d.source).map { Int(min(max(finite(e.zoom).rounded(.down), 0), Double($0.options.maxZoom))) }
        // A vector source's polygons are cut to their tiles' squares (and joined again).
        let cuts = tileZoom == nil ? d.source.flatMap { e.tiles?.vector[$0]?.entries.map(\.square.z).max() } : nil
        return .init(id: d.id, .fillExtrusion(FillExtrusionDraw(features: FeatureDraw(items: items, translate: translate, tileZoom: tileZoom),
                                                                opacity: opacity, verticalGradient: gradient, zoom: e.zoom,
                                                                tileBuffer: (style.geojson(d.source)?.options.buffer ?? 128) * 16, cutZoom: cuts)))
    }

    /// A feature's colour (red, green and blue premultiplied by its alpha, then lit by the map's
    /// light preset), height and base in metres, both at least 0; nil when its
    /// `fill-extrusion-pattern` names an image the style does not have (it draws nothing, as in
    /// MapLibre).
    func fillExtrusionPaint(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> FillExtrusionPaint? {
        typealias P = FillExtrusionPaintProperty
        var pattern: FillPattern? = nil
        if isSet(P.pattern) {
            let name = string(P.pattern, style.withImages(c))
            guard !name.isEmpty, let icon = style.sprite?.icons[name] else { return nil }
            // (Repeating in pixels of the integer zoom, overscaled tiles' too.)
            pattern = FillPattern(image: icon.image, imagePixelRatio: icon.pixelRatio, zoom: e.zoom)
        }
        let s = color(P.color, c)
        let premultiplied = Color(r: s.r * s.a, g: s.g * s.a, b: s.b * s.a).lit(by: e.light, emissive: 0)
        func metres(_ v: Double) -> Double { v.isFinite ? max(v, 0) : (v > 0 ? 1e7 : 0) }
        return FillExtrusionPaint(color: premultiplied, height: metres(number(P.height, c)), base: metres(number(P.base, c)), pattern: pattern)
    }
}
