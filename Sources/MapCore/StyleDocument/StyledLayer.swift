import Foundation
import Raster

/// A style-document layer inside the map's style: its definition and the paint properties on
/// their way to a new value (both immutable; a change makes a new `StyledLayer`), evaluated for
/// each frame by `drawLayer`.
public final class StyledLayer: Sendable {
    public let definition: LayerDefinition
    /// Paint properties changed with a transition, by name (a finished one may stay until the
    /// property changes again: it evaluates to its value).
    public let transitions: [String: PaintTransition]
    /// When the last of `transitions` ends (-infinity: none).
    public let transitionsEnd: Double
    private let paintSpecs: [String: PropertySpec]
    private let layoutSpecs: [String: PropertySpec]

    /// The line dash array when it depends on nothing (made once, not per frame), else nil.
    private let constantDashes: [Double]?
    /// Whether what the layer draws can change with the zoom: a zoom-dependent property or
    /// filter, dashes and fill patterns (laid out per tile zoom), symbols along lines (spaced in
    /// pixels), or a zoom function in a transition.
    let dependsOnZoom: Bool
    /// `<type>-translate` (made once: interpolating it every frame would allocate).
    private let translateName: String
    /// Whether a symbol's icon or text can change with the zoom (a zoom function among the
    /// layer's properties, or anchors spaced along lines in pixels); else they are kept in
    /// `symbolMemo` while only the zoom changes.
    let symbolsReadZoom: Bool
    let symbolMemo = SymbolMemo()
    /// Whether every feature draws with one paint: no filter, nothing read from a feature, and
    /// only properties the geometry-set path draws. A tiled source's features are then drawn
    /// as one geometry set (`TileFrame.geometry`), as fast as an embedded one.
    let drawsAlike: Bool
    /// Whether a paint or layout property reads the feature: else every feature of a layer drawn
    /// feature by feature gets the paint evaluated for the first (a filter may still read them).
    let paintReadsFeatures: Bool

    public init(_ definition: LayerDefinition, transitions: [String: PaintTransition] = [:]) {
        self.definition = definition
        self.transitions = transitions
        transitionsEnd = transitions.values.lazy.map(\.end).max() ?? -.infinity
        paintSpecs = StyleProperties.paint(definition.type.rawValue)
        layoutSpecs = StyleProperties.layout(definition.type.rawValue)
        translateName = "\(definition.type.rawValue)-translate"
        let values = Array(definition.paint.values) + Array(definition.layout.values)
        dependsOnZoom = (definition.type == .symbol && definition.layout["symbol-placement"] != nil) || transitions.values.contains { $0.isZoomDependent } || definition.filter != nil
            || values.contains { $0.isZoomDependent } || definition.paint["line-dasharray"] != nil
            || definition.paint["fill-pattern"] != nil
        symbolsReadZoom = definition.layout["symbol-placement"] != nil || transitions.values.contains { $0.isZoomDependent }
            || values.contains { $0.isZoomDependent }
        paintReadsFeatures = values.contains { $0.isFeatureDependent } || transitions.values.contains { $0.isFeatureDependent }
        drawsAlike = definition.filter == nil && !values.contains { $0.isFeatureDependent }
            && definition.layout.keys.allSatisfy { Self.alikeLayout.contains($0) }
            && definition.paint.keys.allSatisfy { Self.alikePaint.contains($0) }
            && definition.paint["fill-antialias"]?.constant != .bool(false)
        if definition.type == .line && transitions["line-dasharray"] == nil {
            let given = definition.paint["line-dasharray"]
            let value = given == nil ? paintSpecs["line-dasharray"]?.defaultValue : given?.constant
            constantDashes = value.map { ($0.asNumbers ?? []).map { $0.isNaN ? 0 : max($0, 0) } }
        } else {
            constantDashes = nil
        }
    }

    /// The properties a layer drawn as one geometry set may set (`drawsAlike`).
    private static let alikeLayout: Set<String> = ["visibility", "line-cap", "line-join", "line-miter-limit", "line-round-limit"]
    private static let alikePaint: Set<String> = [
        "fill-color", "fill-opacity", "fill-emissive-strength", "fill-antialias",
        "line-color", "line-width", "line-opacity", "line-dasharray", "line-gap-width", "line-blur", "line-emissive-strength",
    ]

    /// True while a paint property is on its way to a new value at `now`.
    public func isTransitioning(at now: Double) -> Bool { now < transitionsEnd }

    /// The layer with paint property `name` set to `json` at instant `now`, animated from the
    /// value shown then by the property's own `<name>-transition` or else `styleTransition`
    /// (properties the specification does not transition change at once).
    public func settingPaint(_ name: String, _ json: JSON, now: Double, styleTransition: TransitionOptions) throws -> StyledLayer {
        var d = definition
        try d.setPaint(name, json)
        var running = transitions
        if let spec = paintSpecs[name], spec.transition, !(d.paint[name]?.isFeatureDependent ?? false) {
            let prior = running[name] ?? PaintTransition(constant: definition.paint[name])
            let t = prior.retargeted(to: d.paint[name], options: d.transitions[name] ?? styleTransition, now: now)
            running[name] = t.prior == nil ? nil : t
        } else {
            running[name] = nil     // (a value read from the feature shows at once, as in MapLibre Native)
        }
        return StyledLayer(d, transitions: running)
    }

    /// The layer with another definition (layout, filter, zoom range), its transitions kept.
    public func with(_ change: (inout LayerDefinition) throws -> Void) rethrows -> StyledLayer {
        var d = definition
        try change(&d)
        return StyledLayer(d, transitions: transitions)
    }

    /// A paint property's value for `context` (at `context.time` while it transitions), or the
    /// specification default when unset.
    @inline(__always)
    func paint(_ name: String, _ context: EvaluationContext) -> StyleValue {
        if !transitions.isEmpty, let t = transitions[name] {
            return t.evaluate(context, fallback: paintSpecs[name]?.defaultValue ?? .null)
        }
        if let v = definition.paint[name] { return v.evaluate(context) }
        return paintSpecs[name]?.defaultValue ?? .null
    }

    /// A paint property's value at `zoom` and instant `now`, for a feature without properties.
    public func paintValue(_ name: String, zoom: Double, now: Double) -> StyleValue {
        paint(name, EvaluationContext(zoom: zoom, time: now))
    }

    /// A layout property's value for `context`, or the specification default when unset.
    @inline(__always)
    func layout(_ name: String, _ context: EvaluationContext) -> StyleValue {
        if let v = definition.layout[name] { return v.evaluate(context) }
        return layoutSpecs[name]?.defaultValue ?? .null
    }

    func number(_ name: String, _ c: EvaluationContext, layout: Bool = false) -> Double {
        (layout ? self.layout(name, c) : paint(name, c)).asNumber ?? 0
    }

    func color(_ name: String, _ c: EvaluationContext) -> Color {
        paint(name, c).asColor ?? .black
    }

    func string(_ name: String, _ c: EvaluationContext, layout: Bool = true) -> String {
        (layout ? self.layout(name, c) : paint(name, c)).asString ?? ""
    }

    /// A two-number property (`*-translate`, `icon-offset`), read without making an array.
    func pair(_ name: String, _ c: EvaluationContext, layout: Bool = false) -> (Double, Double) {
        let v = layout ? self.layout(name, c) : paint(name, c)
        guard case let .array(a) = v, a.count == 2, let x = a[0].asNumber, let y = a[1].asNumber else { return (0, 0) }
        return (x, y)
    }

    /// True when a paint property is set (rather than left to its default).
    func isSet(_ name: String) -> Bool { definition.paint[name] != nil || transitions[name] != nil }
}

/// What evaluating a document layer needs from the map: the instant's zoom, the screen's pixel
/// ratio and the light, and the style's data.
public struct StyleEvaluation: Sendable {
    /// The zoom expressions see (the camera's, without the pixel ratio).
    public let zoom: Double
    public let pixelRatio: Double
    /// Ground radiance: colours are lit by it according to their emissive strength.
    public let light: Color
    /// The world's width in device pixels (collision boxes of icons are laid out in it).
    public let worldSize: Double
    /// The instant (seconds on the map's clock) transitions are evaluated at.
    public let now: Double
    /// What the window shows (nil: everything may be needed); layers drawn feature by feature
    /// evaluate only the features around it.
    public let visible: MercatorBox?
    /// The camera's bearing: icon collision boxes stand upright on screen.
    public let bearing: Double
    /// What the frame draws of the tiled sources (nil: none, or not resolved for a view).
    public let tiles: TileFrame?
    /// The camera is still: raster tiles are drawn with texels on the pixel grid, as the
    /// reference engines draw them then.
    public let still: Bool
    public init(zoom: Double, pixelRatio: Double, light: Color, worldSize: Double, now: Double = 0, visible: MercatorBox? = nil,
                bearing: Double = 0, tiles: TileFrame? = nil, still: Bool = true) {
        self.zoom = zoom; self.pixelRatio = pixelRatio; self.light = light; self.worldSize = worldSize; self.now = now
        self.visible = visible; self.bearing = bearing; self.tiles = tiles; self.still = still
    }

    /// The features layer `d` draws: its GeoJSON source's, or its source layer's of a tiled
    /// vector source in this frame's cover.
    func features(_ style: Style, _ d: LayerDefinition) -> GeoJSONData? {
        style.geojson(d.source) ?? tiles?.features(d.source, layer: d.sourceLayer)
    }

    /// The largest length (device pixels) evaluation hands the renderer: four world widths. Style
    /// values can be absurd (1e308) or infinite (["/", 1, 0]), and the renderer turns screen
    /// positions into integers; a stroke, circle, icon or offset beyond a few world widths covers
    /// (or leaves) the whole world just as one at the limit does.
    var lengthLimit: Double { worldSize.isFinite && worldSize > 0 ? 4 * worldSize : 2048 }

    /// `v` made finite and within +-`lengthLimit` (NaN: 0).
    func length(_ v: Double) -> Double {
        let limit = lengthLimit
        return v.isNaN ? 0 : min(max(v, -limit), limit)
    }
}

/// A miter limit the renderer can use: 1000 (the miter of a 179.9-degree turn) at most, as a
/// larger one only grows the margin every stroke is culled with. NaN: the default, 2.
@inline(__always) func boundedMiterLimit(_ m: Double) -> Double { m.isNaN ? 2 : min(m, 1000) }

/// A finite number, or `fallback`.
@inline(__always) func finite(_ v: Double, or fallback: Double = 0) -> Double { v.isFinite ? v : fallback }

/// An angle in degrees the renderer can turn into radians: infinite or NaN gives 0, and an
/// absurd one (times pi / 180, 1e308 would overflow) is taken modulo 360. Others are kept as
/// they are.
@inline(__always) func degrees(_ v: Double) -> Double {
    !v.isFinite ? 0 : abs(v) < 1e15 ? v : v.truncatingRemainder(dividingBy: 360)
}

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
            let color = color("background-color", zc).lit(by: e.light, emissive: number("background-emissive-strength", zc))
            return .init(id: d.id, .background(color: color, opacity: number("background-opacity", zc)))
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
        }
    }

    /// The indices of the features of `data` whose boxes touch `region` (nil: all of them).
    private func candidates(_ data: GeoJSONData, _ region: MercatorBox?) -> [Int32]? {
        guard let region, let index = data.index else { return nil }
        var candidates: [Int32] = [], seen: [Bool] = []
        index.query(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY, into: &candidates, seen: &seen)
        return candidates
    }

    private func symbolLayer(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        guard let data = e.features(style, definition),
              let set = symbolSet(style, data, e, candidates: candidates(data, region)) else { return nil }
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        return .init(id: definition.id, .symbol(SymbolDraw(set: set, iconTranslate: screenTranslate("icon-translate", zc, e),
                                                           textTranslate: screenTranslate("text-translate", zc, e))))
    }

    /// A symbol layer's `icon-translate` or `text-translate` on screen, in device pixels: anchored
    /// to the map (the default), it turns with the map at a bearing; to the viewport, it does not.
    private func screenTranslate(_ name: String, _ zc: EvaluationContext, _ e: StyleEvaluation) -> (x: Double, y: Double) {
        guard paintSpecs[name] != nil else { return (0, 0) }
        let t = pair(name, zc)
        let x = e.length(t.0 * e.pixelRatio), y = e.length(t.1 * e.pixelRatio)
        guard x != 0 || y != 0 else { return (0, 0) }
        guard e.bearing != 0, string("\(name)-anchor", zc, layout: false) != "viewport" else { return (x, y) }
        let b = e.bearing * Double.pi / 180
        return (x * cos(b) + y * sin(b), -x * sin(b) + y * cos(b))
    }

    /// `region`: evaluate only the features whose boxes touch it (nil: all).
    private func featureLayer(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?) -> FrameDescription.DrawLayer? {
        let d = definition
        switch d.type {
        case .fill:
            return features(style, e, region: region, draws: { $0 == .polygons }) { c in
                let outline: Color? = isSet("fill-outline-color")
                    ? color("fill-outline-color", c).lit(by: e.light, emissive: number("fill-emissive-strength", c)) : nil
                let aa = layout("fill-antialias", c) == .bool(false) || paint("fill-antialias", c) == .bool(false) ? false : true
                var fill = fillPaint(c, e)
                if isSet("fill-pattern") {
                    // A pattern the style has no image for draws nothing, as in the reference engines.
                    guard let pattern = fillPattern(style, c, e) else { return nil }
                    fill.pattern = pattern
                }
                return FeatureFillPaint(fill: fill, outline: outline, antialias: aa)
            }.map { .init(id: d.id, .fill(.features($0))) }
        case .line:
            return features(style, e, region: region, draws: { $0 != .points }) { linePaint($0, e) }
                .map { .init(id: d.id, .line(.features($0))) }
        case .circle:
            return features(style, e, region: region, draws: { _ in true }) { c in
                var p = CirclePaint()
                p.radius = e.length(number("circle-radius", c) * e.pixelRatio)
                p.color = color("circle-color", c).lit(by: e.light, emissive: number("circle-emissive-strength", c))
                // (A fraction of the radius: with 1e6 or more a circle has faded out entirely, and
                // any negative blur is none.)
                p.blur = min(max(finite(number("circle-blur", c), or: 1e6), -1e6), 1e6)
                p.opacity = number("circle-opacity", c)
                p.strokeWidth = e.length(number("circle-stroke-width", c) * e.pixelRatio)
                p.strokeColor = color("circle-stroke-color", c).lit(by: e.light, emissive: number("circle-emissive-strength", c))
                p.strokeOpacity = number("circle-stroke-opacity", c)
                return p
            }.map { .init(id: d.id, .circle($0)) }
        default:
            return nil
        }
    }

    /// The layer's features around `region` (nil: all) that pass its filter and whose geometry
    /// kind it `draws`, each with the paint `paint` evaluates for it (nil: the feature draws
    /// nothing); nil when none draws.
    private func features<Paint>(_ style: Style, _ e: StyleEvaluation, region: MercatorBox?, draws: (FeatureGeometry.Kind) -> Bool,
                                 paint: (EvaluationContext) -> Paint?) -> FeatureDraw<Paint>? {
        let d = definition
        guard let data = e.features(style, d) else { return nil }
        let chosen = candidates(data, region)
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        var items: [FeatureDraw<Paint>.Item] = []
        let translateName = self.translateName
        var translate = (x: 0.0, y: 0.0)
        if paintSpecs[translateName] != nil {
            let t = pair(translateName, zc)
            translate = (e.length(t.0 * e.pixelRatio), e.length(t.1 * e.pixelRatio))
            // Anchored to the viewport: at a bearing, the screen offset turned back onto the
            // map's axes (the renderer applies it before the view's rotation).
            if e.bearing != 0, string("\(translateName)-anchor", zc, layout: false) == "viewport" {
                let b = e.bearing * Double.pi / 180
                translate = (translate.x * cos(b) - translate.y * sin(b), translate.x * sin(b) + translate.y * cos(b))
            }
        }
        let count = chosen?.count ?? data.features.count
        // The paint of the features drawn, when no property reads them (nil: not made yet, or
        // made for each feature; `.some(nil)`: a pattern the style has no image for, nothing drawn).
        var shared: Paint?? = nil
        for k in 0..<count {
            let feature = data.features[chosen.map { Int($0[k]) } ?? k]
            if let f = d.filter, !f.matches(feature.evaluation, zoom: e.zoom) { continue }
            let g = feature.geometry
            // (An empty MultiPoint, Polygon, ...: nothing to draw or place.)
            guard !g.isEmpty, draws(g.kind) else { continue }
            if let shared {
                if let shared { items.append(.init(paint: shared, geometry: g)) }
                continue
            }
            let p = paint(EvaluationContext(zoom: e.zoom, feature: feature.evaluation, time: e.now))
            if !paintReadsFeatures { shared = .some(p) }
            if let p { items.append(.init(paint: p, geometry: g)) }
        }
        guard !items.isEmpty else { return nil }
        // GeoJSON sources: maxzoom 18; tiled ones are overzoomed into tiles of the camera's zoom.
        let tileZoom = Int(min(max(finite(e.zoom).rounded(.down), 0), style.geojson(d.source) == nil ? 30 : 18))
        return FeatureDraw(items: items, translate: translate, tileZoom: tileZoom)
    }

    /// The raster paint at `zoom` and instant `now` (raster properties cannot read features).
    public func rasterPaint(zoom: Double, now: Double = 0) -> RasterPaint {
        let zc = EvaluationContext(zoom: zoom, time: now)
        var p = RasterPaint()
        p.opacity = number("raster-opacity", zc)
        p.fadeDuration = number("raster-fade-duration", zc) / 1000
        p.resampling = RasterPaint.Resampling(rawValue: string("raster-resampling", zc, layout: false)) ?? .linear
        p.brightnessMin = number("raster-brightness-min", zc)
        p.brightnessMax = number("raster-brightness-max", zc)
        // Contrast 1 (the maximum) means an infinite gain, which makes NaN of a mid-grey texel:
        // kept just below, where the gain is large enough to push every texel to 0 or 1 all the same.
        p.contrast = min(number("raster-contrast", zc), 1 - 1e-7)
        p.saturation = number("raster-saturation", zc)
        p.hueRotate = degrees(number("raster-hue-rotate", zc))
        p.emissiveStrength = number("raster-emissive-strength", zc)
        return p
    }

    func fillPaint(_ c: EvaluationContext, _ e: StyleEvaluation) -> FillPaint {
        FillPaint(color: color("fill-color", c).lit(by: e.light, emissive: number("fill-emissive-strength", c)),
                  opacity: number("fill-opacity", c), emissiveStrength: 1)
    }

    /// The feature's `fill-pattern` image from the sprite (or an image added to it), or nil when
    /// it names none the style has.
    func fillPattern(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> FillPattern? {
        let name = string("fill-pattern", c, layout: false)
        guard !name.isEmpty, let icon = style.sprite?.icons[name] else { return nil }
        return FillPattern(image: icon.image, imagePixelRatio: icon.pixelRatio, zoom: e.zoom)
    }

    /// `typed`: for the renderer's line path of geometry sets (basemap layers), which strokes every segment within reach x miter limit of the view, in
    /// every world copy that reach spans, each across as many rows as the line is wide: there
    /// widths (and gaps and blurs) are at most one world width and 1024 device pixels, and the
    /// miter limit keeps the reach x miter limit within that (or the line's own reach).
    func linePaint(_ c: EvaluationContext, _ e: StyleEvaluation, typed: Bool = false) -> LinePaint {
        let r = e.pixelRatio
        var p = LinePaint()
        let typedLimit = min(e.lengthLimit / 4, 1024 * finite(r, or: 1))
        func length(_ v: Double) -> Double { typed ? min(e.length(v), typedLimit) : e.length(v) }
        p.color = color("line-color", c).lit(by: e.light, emissive: number("line-emissive-strength", c))
        p.emissiveStrength = 1
        p.width = length(number("line-width", c) * r)
        p.opacity = number("line-opacity", c)
        p.cap = LineCap(rawValue: string("line-cap", c)) ?? .butt
        p.join = LineJoin(rawValue: string("line-join", c)) ?? .miter
        p.miterLimit = boundedMiterLimit(number("line-miter-limit", c, layout: true))
        // Dash lengths are in line widths: bounded like lengths, so that times the width they
        // stay finite (a dash or gap longer than the world draws the same).
        let dashLimit = e.lengthLimit
        if let dashes = constantDashes, dashes.allSatisfy({ $0 <= dashLimit }) {
            p.dasharray = dashes
        } else {
            p.dasharray = (paint("line-dasharray", c).asNumbers ?? []).map { $0.isNaN ? 0 : min(max($0, 0), dashLimit) }
        }
        // The reference engines lay dashes out in tile units at the integer zoom of the tile, so
        // between integer zooms the pattern grows with the map.
        let growth = finite(exp2(e.zoom - e.zoom.rounded(.down)), or: 1)
        if growth != 1, !p.dasharray.isEmpty { p.dasharray = p.dasharray.map { $0 * growth } }
        p.gapWidth = length(number("line-gap-width", c) * r)
        p.blur = length(number("line-blur", c) * r)
        p.offset = length(number("line-offset", c) * r)
        if typed {
            let reach = p.gapWidth / 2 + p.width + abs(p.offset)
            if reach > 0 { p.miterLimit = min(p.miterLimit, max(1, typedLimit / reach)) }
        }
        return p
    }
}
