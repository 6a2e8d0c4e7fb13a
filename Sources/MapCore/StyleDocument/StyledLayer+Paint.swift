import Foundation
import Raster

/// The renderer's paint of each layer kind evaluated from the layer's typed properties: lengths
/// scaled to device pixels and bounded, colours lit.
extension StyledLayer {
    /// The raster paint at `zoom` and instant `now` (raster properties cannot read features).
    public func rasterPaint(zoom: Double, now: Double = 0) -> RasterPaint {
        typealias P = RasterPaintProperty
        let zc = EvaluationContext(zoom: zoom, time: now)
        var p = RasterPaint()
        p.opacity = number(P.opacity, zc)
        p.fadeDuration = number(P.fadeDuration, zc) / 1000
        p.resampling = RasterPaint.Resampling(rawValue: string(P.resampling, zc)) ?? .linear
        p.brightnessMin = number(P.brightnessMin, zc)
        p.brightnessMax = number(P.brightnessMax, zc)
        // Contrast 1 (the maximum) means an infinite gain, which makes NaN of a mid-grey texel:
        // kept just below, where the gain is large enough to push every texel to 0 or 1 all the same.
        p.contrast = min(number(P.contrast, zc), 1 - 1e-7)
        p.saturation = number(P.saturation, zc)
        p.hueRotate = degrees(number(P.hueRotate, zc))
        p.emissiveStrength = number(P.emissiveStrength, zc)
        return p
    }

    func fillPaint(_ c: EvaluationContext, _ e: StyleEvaluation) -> FillPaint {
        FillPaint(color: color(FillPaintProperty.color, c).lit(by: e.light, emissive: number(FillPaintProperty.emissiveStrength, c)),
                  opacity: number(FillPaintProperty.opacity, c), emissiveStrength: 1)
    }

    /// A feature's fill with its outline, antialiasing and pattern; nil when its `fill-pattern`
    /// names an image the style does not have (it draws nothing, as in the reference engines).
    func featureFillPaint(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> FeatureFillPaint? {
        typealias P = FillPaintProperty
        let outline: Color? = isSet(P.outlineColor) ? color(P.outlineColor, c).lit(by: e.light, emissive: number(P.emissiveStrength, c)) : nil
        let aa = paint(P.antialias, c) != .bool(false)
        var fill = fillPaint(c, e)
        if isSet(P.pattern) {
            guard let pattern = fillPattern(style, c, e) else { return nil }
            fill.pattern = pattern
        }
        return FeatureFillPaint(fill: fill, outline: outline, antialias: aa)
    }

    /// The feature's `fill-pattern` image from the sprite (or an image added to it), or nil when
    /// it names none the style has.
    func fillPattern(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> FillPattern? {
        let name = string(FillPaintProperty.pattern, style.withImages(c))
        guard !name.isEmpty, let icon = style.sprite?.icons[name] else { return nil }
        return FillPattern(image: icon.image, imagePixelRatio: icon.pixelRatio, zoom: e.zoom)
    }

    /// `typed`: for the renderer's line path of geometry sets (basemap layers), which strokes every segment within reach x miter limit of the view, in
    /// every world copy that reach spans, each across as many rows as the line is wide: there
    /// widths (and gaps and blurs) are at most one world width and 1024 device pixels, and the
    /// miter limit keeps the reach x miter limit within that (or the line's own reach).
    func linePaint(_ c: EvaluationContext, _ e: StyleEvaluation, typed: Bool = false) -> LinePaint {
        typealias P = LinePaintProperty
        typealias L = LineLayoutProperty
        let r = e.pixelRatio
        var p = LinePaint()
        let typedLimit = min(e.lengthLimit / 4, 1024 * finite(r, or: 1))
        func length(_ v: Double) -> Double { typed ? min(e.length(v), typedLimit) : e.length(v) }
        p.color = color(P.color, c).lit(by: e.light, emissive: number(P.emissiveStrength, c))
        p.emissiveStrength = 1
        p.width = length(number(P.width, c) * r)
        p.opacity = number(P.opacity, c)
        p.cap = LineCap(rawValue: string(L.cap, c)) ?? .butt
        p.join = LineJoin(rawValue: string(L.join, c)) ?? .miter
        p.miterLimit = boundedMiterLimit(number(L.miterLimit, c))
        // Dash lengths are in line widths: bounded like lengths, so that times the width they
        // stay finite (a dash or gap longer than the world draws the same).
        let dashLimit = e.lengthLimit
        if let dashes = constantDashes, dashes.allSatisfy({ $0 <= dashLimit }) {
            p.dasharray = dashes
        } else {
            p.dasharray = (paint(P.dasharray, c).asNumbers ?? []).map { $0.isNaN ? 0 : min(max($0, 0), dashLimit) }
        }
        // The reference engines lay dashes out in tile units at the integer zoom of the tile, so
        // between integer zooms the pattern grows with the map.
        let growth = finite(exp2(e.zoom - e.zoom.rounded(.down)), or: 1)
        if growth != 1, !p.dasharray.isEmpty { p.dasharray = p.dasharray.map { $0 * growth } }
        p.gapWidth = length(number(P.gapWidth, c) * r)
        p.blur = length(number(P.blur, c) * r)
        p.offset = length(number(P.offset, c) * r)
        if typed {
            let reach = p.gapWidth / 2 + p.width + abs(p.offset)
            if reach > 0 { p.miterLimit = min(p.miterLimit, max(1, typedLimit / reach)) }
        }
        if definition.type == .line && isSet(P.gradient) { p.gradient = lineGradient() }
        return p
    }

    func circlePaint(_ c: EvaluationContext, _ e: StyleEvaluation) -> CirclePaint {
        typealias P = CirclePaintProperty
        var p = CirclePaint()
        p.radius = e.length(number(P.radius, c) * e.pixelRatio)
        p.color = color(P.color, c).lit(by: e.light, emissive: number(P.emissiveStrength, c))
        // (A fraction of the radius: with 1e6 or more a circle has faded out entirely, and
        // any negative blur is none.)
        p.blur = min(max(finite(number(P.blur, c), or: 1e6), -1e6), 1e6)
        p.opacity = number(P.opacity, c)
        p.strokeWidth = e.length(number(P.strokeWidth, c) * e.pixelRatio)
        p.strokeColor = color(P.strokeColor, c).lit(by: e.light, emissive: number(P.emissiveStrength, c))
        p.strokeOpacity = number(P.strokeOpacity, c)
        p.pitchesWithMap = string(P.pitchAlignment, c) == "map"; p.scalesWithMap = string(P.pitchScale, c) != "viewport"
        return p
    }
}
