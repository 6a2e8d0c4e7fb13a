import Foundation

/// A style-document layer inside the map's style: its definition (immutable; a property change
/// makes a new `StyledLayer`), evaluated for each frame by `drawLayer`.
public final class StyledLayer: Sendable {
    public let definition: LayerDefinition
    private let paintSpecs: [String: PropertySpec]
    private let layoutSpecs: [String: PropertySpec]

    public init(_ definition: LayerDefinition) {
        self.definition = definition
        paintSpecs = StyleProperties.paint(definition.type.rawValue)
        layoutSpecs = StyleProperties.layout(definition.type.rawValue)
    }

    /// A paint property's value for `context`, or the specification default when unset.
    @inline(__always)
    func paint(_ name: String, _ context: EvaluationContext) -> StyleValue {
        if let v = definition.paint[name] { return v.evaluate(context) }
        return paintSpecs[name]?.defaultValue ?? .null
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

    func pair(_ name: String, _ c: EvaluationContext, layout: Bool = false) -> (Double, Double) {
        let a = (layout ? self.layout(name, c) : paint(name, c)).asNumbers ?? []
        return a.count == 2 ? (a[0], a[1]) : (0, 0)
    }

    /// True when a paint property is set (rather than left to its default).
    func isSet(_ name: String) -> Bool { definition.paint[name] != nil }
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
    public init(zoom: Double, pixelRatio: Double, light: Color, worldSize: Double) {
        self.zoom = zoom; self.pixelRatio = pixelRatio; self.light = light; self.worldSize = worldSize
    }
}

extension StyledLayer {
    /// The layer as the frame draws it, or nil when it shows nothing: paint evaluated for the
    /// zoom and each feature (filtered), lengths scaled to device pixels, colours lit.
    public func drawLayer(_ style: Style, _ e: StyleEvaluation,
                          image: (ImageSource, RasterPaint) -> FrameDescription.ImageDraw?) -> FrameDescription.DrawLayer? {
        let d = definition
        let zc = EvaluationContext(zoom: e.zoom)
        let r = e.pixelRatio
        switch d.type {
        case .background:
            let color = color("background-color", zc).lit(by: e.light, emissive: number("background-emissive-strength", zc))
            return .init(id: d.id, paint: .background(color: color, opacity: number("background-opacity", zc)), geometry: nil)
        case .raster:
            guard let source = d.source.flatMap({ style.images[$0] }) else { return nil }
            let p = rasterPaint(zoom: e.zoom)
            guard let draw = image(source, p) else { return nil }
            return .init(id: d.id, paint: .raster(p), geometry: nil, image: draw)
        case .fill, .line:
            // A basemap layer: one paint for all its geometry (no feature properties to read).
            if let name = d.sourceLayer, let g = style.sources[name], d.source.map({ style.features[$0] == nil }) ?? false {
                let paint: LayerPaint
                if d.type == .fill {
                    paint = .fill(fillPaint(zc, e))
                } else {
                    paint = .line(linePaint(zc, e))
                }
                return .init(id: d.id, paint: paint, geometry: g)
            }
            return featureLayer(style, e)
        case .circle, .symbol:
            return featureLayer(style, e)
        }
    }

    private func featureLayer(_ style: Style, _ e: StyleEvaluation) -> FrameDescription.DrawLayer? {
        let d = definition
        guard let data = d.source.flatMap({ style.features[$0] }) else { return nil }
        let zc = EvaluationContext(zoom: e.zoom)
        var items: [FeatureDraw.Item] = []
        var placed: [FrameDescription.ScreenBox] = []
        let translateName = "\(d.type.rawValue)-translate"
        var translate = (x: 0.0, y: 0.0)
        if paintSpecs[translateName] != nil {
            let t = pair(translateName, zc)
            translate = (t.0 * e.pixelRatio, t.1 * e.pixelRatio)
        }
        for feature in data.features {
            let c = EvaluationContext(zoom: e.zoom, feature: feature.evaluation)
            if let f = d.filter, !f.matches(feature.evaluation, zoom: e.zoom) { continue }
            let g = feature.geometry
            switch d.type {
            case .fill:
                guard g.kind == .polygons else { continue }
                let outline: Color? = isSet("fill-outline-color")
                    ? color("fill-outline-color", c).lit(by: e.light, emissive: number("fill-emissive-strength", c)) : nil
                let aa = layout("fill-antialias", c) == .bool(false) || paint("fill-antialias", c) == .bool(false) ? false : true
                items.append(.init(paint: .fill(fillPaint(c, e), outline: outline, antialias: aa), geometry: g))
            case .line:
                guard g.kind != .points else { continue }
                var p = linePaint(c, e)
                // The reference engines lay dashes out in tile units at the integer zoom of the
                // tile, so between integer zooms the pattern grows with the map.
                p.dasharray = p.dasharray.map { $0 * exp2(e.zoom - e.zoom.rounded(.down)) }
                items.append(.init(paint: .line(p), geometry: g))
            case .circle:
                var p = CirclePaint()
                p.radius = number("circle-radius", c) * e.pixelRatio
                p.color = color("circle-color", c).lit(by: e.light, emissive: number("circle-emissive-strength", c))
                p.blur = number("circle-blur", c)
                p.opacity = number("circle-opacity", c)
                p.strokeWidth = number("circle-stroke-width", c) * e.pixelRatio
                p.strokeColor = color("circle-stroke-color", c).lit(by: e.light, emissive: number("circle-emissive-strength", c))
                p.strokeOpacity = number("circle-stroke-opacity", c)
                items.append(.init(paint: .circle(p), geometry: g))
            case .symbol:
                guard let sprite = style.sprite, let icon = sprite.icons[string("icon-image", c)] else { continue }
                var p = IconPaint(icon: icon, scale: number("icon-size", c, layout: true) * e.pixelRatio / icon.pixelRatio)
                guard p.scale > 0 else { continue }
                p.rotate = number("icon-rotate", c, layout: true)
                p.anchor = IconAnchor(rawValue: string("icon-anchor", c)) ?? .center
                let off = pair("icon-offset", c, layout: true)
                let size = number("icon-size", c, layout: true)
                p.size = size
                p.pixelRatio = e.pixelRatio
                p.offset = (off.0 * size * e.pixelRatio, off.1 * size * e.pixelRatio)
                p.opacity = number("icon-opacity", c)
                let emissive = number("icon-emissive-strength", c)
                p.color = color("icon-color", c).lit(by: e.light, emissive: emissive)
                p.haloColor = color("icon-halo-color", c).lit(by: e.light, emissive: emissive)
                p.haloWidth = number("icon-halo-width", c) * e.pixelRatio
                p.haloBlur = number("icon-halo-blur", c) * e.pixelRatio
                p.smooth = p.scale * icon.pixelRatio / e.pixelRatio != 1 || p.rotate.truncatingRemainder(dividingBy: 360) != 0 || icon.sdf
                // Collision: an icon that overlaps one placed before it is hidden, unless allowed.
                let allow = layout("icon-allow-overlap", c) == .bool(true)
                let ignore = layout("icon-ignore-placement", c) == .bool(true)
                for (anchor, angle) in symbolAnchors(g, c, e, labelLength: icon.width) {
                    var q = p
                    q.rotate += angle
                    if angle != 0 { q.smooth = true }
                    let box = iconBox(q, at: anchor, worldSize: e.worldSize)
                    if !allow && placed.contains(where: { $0.intersects(box) }) { continue }
                    if !ignore { placed.append(box) }
                    items.append(.init(paint: .icon(q), geometry: anchor))
                }
            default:
                continue
            }
        }
        guard !items.isEmpty else { return nil }
        let kind: LayerPaint = d.type == .line ? .line(LinePaint()) : .fill(FillPaint())
        let tileZoom = Int(min(max(e.zoom.rounded(.down), 0), 18))      // GeoJSON sources: maxzoom 18
        return .init(id: d.id, paint: kind, geometry: nil, features: FeatureDraw(items: items, translate: translate, tileZoom: tileZoom))
    }

    /// Where a feature's symbols go, with the extra rotation (degrees) of each: its points for
    /// `symbol-placement: point` (the default); anchors along its lines or polygon rings for
    /// `line` and `line-center`, turned with the line unless `icon-rotation-alignment` is viewport.
    private func symbolAnchors(_ g: FeatureGeometry, _ c: EvaluationContext, _ e: StyleEvaluation,
                               labelLength: Double) -> [(FeatureGeometry, Double)] {
        let placement = string("symbol-placement", c)
        if g.kind == .points || placement == "point" {
            return g.kind == .points ? [(g, 0)] : []
        }
        let world = e.worldSize / e.pixelRatio          // CSS pixels: spacing and lengths are in them
        let follow = string("icon-rotation-alignment", c) != "viewport"
        let textMaxSize = layout("text-size", EvaluationContext(zoom: 18)).asNumber ?? 16
        let spacing = number("symbol-spacing", c, layout: true)
        var out: [(FeatureGeometry, Double)] = []
        for part in 0..<g.partCount {
            let line = g.part(part).map { (x: g.coordinates[2 * $0] * world, y: g.coordinates[2 * $0 + 1] * world) }
            let anchors = placement == "line-center" ? [LineAnchors.center(line)].compactMap { $0 }
                : LineAnchors.along(line, spacing: spacing, labelLength: labelLength, boxScale: textMaxSize / 24)
            for a in anchors {
                out.append((FeatureGeometry(kind: .points, parts: [[MercatorPoint(x: a.x / world, y: a.y / world)]]),
                            follow ? a.angle * 180 / Double.pi : 0))
            }
        }
        return out
    }

    /// The icon's box in world pixels (the screen shifted by the camera: collisions between
    /// icons do not depend on where the camera is).
    private func iconBox(_ p: IconPaint, at g: FeatureGeometry, worldSize: Double) -> FrameDescription.ScreenBox {
        let w = Double(p.icon.image.width) * p.scale, h = Double(p.icon.image.height) * p.scale
        let f = p.anchor.fraction
        let x = g.coordinates[0] * worldSize + p.offset.x, y = g.coordinates[1] * worldSize + p.offset.y
        return .init(minX: x - w * f.x, minY: y - h * f.y, maxX: x + w * (1 - f.x), maxY: y + h * (1 - f.y))
    }

    /// The raster paint at `zoom` (raster properties cannot read features).
    public func rasterPaint(zoom: Double) -> RasterPaint {
        let zc = EvaluationContext(zoom: zoom)
        var p = RasterPaint()
        p.opacity = number("raster-opacity", zc)
        p.fadeDuration = number("raster-fade-duration", zc) / 1000
        p.resampling = RasterPaint.Resampling(rawValue: string("raster-resampling", zc, layout: false)) ?? .linear
        p.brightnessMin = number("raster-brightness-min", zc)
        p.brightnessMax = number("raster-brightness-max", zc)
        p.contrast = number("raster-contrast", zc)
        p.saturation = number("raster-saturation", zc)
        p.hueRotate = number("raster-hue-rotate", zc)
        p.emissiveStrength = number("raster-emissive-strength", zc)
        return p
    }

    /// The line paint at `zoom` for a feature without properties, colour unlit (the model
    /// lights it by the emissive strength kept in the paint): the template of typed layers.
    public func linePaint(zoom: Double) -> LinePaint {
        let c = EvaluationContext(zoom: zoom)
        var p = linePaint(c, StyleEvaluation(zoom: zoom, pixelRatio: 1, light: .white, worldSize: 512 * exp2(zoom)))
        p.color = color("line-color", c)
        p.emissiveStrength = number("line-emissive-strength", c)
        return p
    }

    /// An icon layer's paint at `zoom` as a typed symbol paint (icon name, size, rotation,
    /// anchor, opacity, emissive strength).
    public func symbolPaint(zoom: Double) -> SymbolPaint {
        let c = EvaluationContext(zoom: zoom)
        return SymbolPaint(iconImage: string("icon-image", c), iconSize: number("icon-size", c, layout: true),
                           iconRotate: number("icon-rotate", c, layout: true),
                           iconAnchor: IconAnchor(rawValue: string("icon-anchor", c)) ?? .center,
                           iconOpacity: number("icon-opacity", c), emissiveStrength: number("icon-emissive-strength", c))
    }

    func fillPaint(_ c: EvaluationContext, _ e: StyleEvaluation) -> FillPaint {
        FillPaint(color: color("fill-color", c).lit(by: e.light, emissive: number("fill-emissive-strength", c)),
                  opacity: number("fill-opacity", c), emissiveStrength: 1)
    }

    func linePaint(_ c: EvaluationContext, _ e: StyleEvaluation) -> LinePaint {
        let r = e.pixelRatio
        var p = LinePaint()
        p.color = color("line-color", c).lit(by: e.light, emissive: number("line-emissive-strength", c))
        p.emissiveStrength = 1
        p.width = number("line-width", c) * r
        p.opacity = number("line-opacity", c)
        p.cap = LineCap(rawValue: string("line-cap", c)) ?? .butt
        p.join = LineJoin(rawValue: string("line-join", c)) ?? .miter
        p.miterLimit = number("line-miter-limit", c, layout: true)
        p.dasharray = paint("line-dasharray", c).asNumbers ?? []
        p.gapWidth = number("line-gap-width", c) * r
        p.blur = number("line-blur", c) * r
        return p
    }
}
