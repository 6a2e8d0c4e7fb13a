import MapCore
import MapData
import Raster

/// Draws a `FrameDescription` into a `Pixmap`. It reads the description only and keeps its
/// scratch storage (rasterizer cells, stroker buffers) between frames, so a warm frame does
/// not allocate.
public final class FrameRenderer {
    private var rasterizer: Rasterizer
    private var stroker = Stroker()
    private var runPoints: [Point] = []
    private var runEnds: [Int] = []
    private var runOffsets: [Double] = []
    private var offsetScratch: [Point] = []
    private var rowMaps: [ImageRowMap] = []
    private var columnSamples: [AxisSamples] = []
    private var rowSamples: [AxisSamples] = []
    /// Transparent-run tables of the images drawn lately (images never change once decoded).
    private var runsCache: [ObjectIdentifier: (image: Pixmap, runs: ImageRuns)] = [:]
    private let mask = CoverageMask(width: 1, height: 1)
    // The bottom layers that stayed the same, drawn once.
    private var lastFrame: FrameDescription?
    private var cache: Pixmap?
    private var cachedLayers: [FrameDescription.DrawLayer] = []
    private var cachedView: ViewTransform?
    private var cachedRows: Range<Int> = 0..<0
    private struct LabelKey: Hashable { let text: String; let size: Double; let halo: Double; let spacing: Double }
    private var maskCache: [LabelKey: (text: AlphaMask, halo: AlphaMask)] = [:]
    /// Label placements by place set, kept while the view, the places and the paint stay the same.
    private var labelCache: (view: ViewTransform, layers: [FrameDescription.DrawLayer], placed: [String: [PlacedLabel]])?
    /// The rows this renderer draws (all of them, or a band when several renderers share a frame).
    private var rows: Range<Int> = 0..<1

    public init() {
        rasterizer = Rasterizer(width: 1, height: 1)
        runPoints.reserveCapacity(1 << 16)
        runEnds.reserveCapacity(4096)
    }

    deinit { rasterizer.deallocate() }

    /// Hands this renderer a label placement made elsewhere for `frame` (several band renderers
    /// share one placement instead of each making its own).
    public func usePlacement(_ placed: [String: [PlacedLabel]], for frame: FrameDescription) {
        labelCache = (frame.view, frame.layers.filter { $0.labels != nil }, placed)
    }

    /// Renders `frame` into `pixmap` (whose size should match the frame's viewport).
    ///
    /// Layers at the bottom that did not change since the previous frame (same camera, same
    /// evaluated paint) are kept as a cached image: when only the layers above them change (a
    /// pulsing route over a still map), the frame is that image plus the changed layers.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap) {
        render(frame, into: pixmap, rows: 0..<pixmap.height)
    }

    /// Renders only the rows `band` of the frame (other rows of `pixmap` are left alone), so
    /// several renderers can draw one frame at once, each its own band.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap, rows band: Range<Int>) {
        rows = band.clamped(to: 0..<pixmap.height)
        guard !rows.isEmpty else { return }
        rasterizer.reset(width: pixmap.width, height: rows.count, originY: rows.lowerBound)
        let placement = Placement(view: frame.view, width: pixmap.width, rows: rows)
        let layers = frame.layers
        // Layers unchanged since the previous frame, from the bottom.
        var stable = 0
        if let last = lastFrame, last.view == frame.view {
            while stable < min(layers.count, last.layers.count) && layers[stable] == last.layers[stable] { stable += 1 }
        }
        lastFrame = frame
        var first = 0
        if cachedRows != rows { cachedLayers = [] }
        if let cache, cache.width == pixmap.width, cache.height == pixmap.height, cachedView == frame.view,
           cachedLayers.count <= stable, cachedLayers[...] == layers[..<cachedLayers.count], !cachedLayers.isEmpty {
            pixmap.copy(from: cache, rows: rows)
            first = cachedLayers.count
        } else {
            // Start from opaque black unless the first layer paints every pixel anyway.
            if case let .background(c, o)? = layers.first?.paint, c.a >= 1, o >= 1 {} else {
                pixmap.clear(PremultipliedColor(packed: 0xFF00_0000), rows: rows)
            }
        }
        for index in first..<layers.count {
            draw(layers[index], placement, frame, pixmap)
            // Keep the stable part once it is complete (and worth keeping: not the whole frame).
            if index + 1 == stable && stable < layers.count && stable > cachedLayers.count {
                if cache?.width != pixmap.width || cache?.height != pixmap.height {
                    cache = Pixmap(width: pixmap.width, height: pixmap.height)
                }
                cache?.copy(from: pixmap, rows: rows)
                cachedLayers = Array(layers[..<stable])
                cachedView = frame.view
                cachedRows = rows
            }
        }
        if stable < cachedLayers.count || cachedView != frame.view {
            cachedLayers = []
        }
        if let overlay = frame.overlay, let font = overlay.font as? FontFace {
            drawOverlay(overlay, font, pixmap, height: frame.view.size.height)
        }
    }

    /// Attribution (bottom right), status line and scale bar (bottom left), help panel (centre).
    private func drawOverlay(_ o: Overlay, _ font: FontFace, _ pixmap: Pixmap, height: Int) {
        let w = Double(pixmap.width), h = Double(height)
        var ui = LabelPaint(textSize: 11.5)
        ui.haloWidth = 1.6
        let (ascent, descent) = font.metrics(size: ui.textSize)
        let text = ui.textColor.premultiplied(opacity: 1)
        let halo = ui.haloColor.premultiplied(opacity: 0.9)
        let pad = (ui.haloWidth + 1).rounded(.up)
        func put(_ s: String, x: Double, baseline: Double, color: PremultipliedColor = text) {
            let m = labelMasks(s, paint: ui, font: font)
            let px = Int((x - pad).rounded()), py = Int((baseline - ascent - pad).rounded())
            m.halo.composite(halo, onto: pixmap, x: px, y: py, rows: rows)
            m.text.composite(color, onto: pixmap, x: px, y: py, rows: rows)
        }
        let bottom = h - 6 - descent
        if !o.attribution.isEmpty {
            let width = LabelPlacer.advance(o.attribution, font: font, paint: ui)
            put(o.attribution, x: w - 6 - width, baseline: bottom)
        }
        if let status = o.status { put(status, x: 6, baseline: bottom) }
        if let scale = o.scale {
            let y = bottom - ascent - descent - 10, x0 = 10.0, x1 = 10 + scale.pixels
            var bar = Path()
            bar.moveTo(Point(x0, y - 5)); bar.lineTo(Point(x0, y)); bar.lineTo(Point(x1, y)); bar.lineTo(Point(x1, y - 5))
            stroker.stroke(path: bar, style: StrokeStyle(width: 4.5, cap: .square, join: .miter), into: &rasterizer)
            rasterizer.fill(pixmap, color: halo)
            stroker.stroke(path: bar, style: StrokeStyle(width: 1.5, cap: .square, join: .miter), into: &rasterizer)
            rasterizer.fill(pixmap, color: text)
            put(scale.label, x: x1 + 8, baseline: y + ascent / 2 - 1)
        }
        if let help = o.help {
            let lineHeight = (ascent + descent) * 1.5
            let widths = help.map { LabelPlacer.advance($0, font: font, paint: ui) }
            let pw = (widths.max() ?? 0) + 32, ph = Double(help.count) * lineHeight + 28
            let left = ((w - pw) / 2).rounded(), top = ((h - ph) / 2).rounded()
            var panel = Path()
            panel.addRect(Rect(minX: left, minY: top, maxX: left + pw, maxY: top + ph))
            panel.replay(into: &rasterizer)
            rasterizer.fill(pixmap, color: RGBA8(11, 16, 22, 242).premultiplied)
            for (i, line) in help.enumerated() {
                put(line, x: left + 16, baseline: top + 14 + ascent + Double(i) * lineHeight)
            }
        }
    }

    private func draw(_ layer: FrameDescription.DrawLayer, _ placement: Placement, _ frame: FrameDescription, _ pixmap: Pixmap) {
        switch layer.paint {
        case let .background(color, opacity):
            drawBackground(color.premultiplied(opacity: opacity), pixmap)
        case let .fill(paint):
            guard let g = layer.geometry, paint.opacity > 0, paint.color.a > 0 else { return }
            drawFill(g, paint, placement, pixmap)
        case let .line(paint):
            guard let g = layer.geometry, paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { return }
            drawLine(g, paint, placement, pixmap)
        case let .raster(paint):
            guard let draw = layer.image, paint.opacity > 0 else { return }
            drawRaster(draw, paint, placement, pixmap)
        case let .symbol(paint):
            guard let draw = layer.symbols, paint.iconOpacity > 0, paint.iconSize > 0 else { return }
            drawSymbols(draw, paint, placement, pixmap)
        case let .labels(paint):
            guard let draw = layer.labels, let font = draw.font as? FontFace else { return }
            drawLabels(layer.id, draw, paint, font, frame, pixmap)
        }
    }

    /// Labels: each label's text and halo are rasterized once into two coverage masks (glyph
    /// outlines filled, and stroked for the halo, by our rasterizer), then composited at whole
    /// pixels every frame; dots are drawn directly. Placement is kept while the view stays put.
    private func drawLabels(_ id: String, _ draw: FrameDescription.LabelDraw, _ paint: LabelPaint, _ font: FontFace,
                            _ frame: FrameDescription, _ pixmap: Pixmap) {
        // All label layers are placed together, once per view and set of label layers.
        let key = frame.layers.filter { $0.labels != nil }
        if labelCache?.view != frame.view || labelCache?.layers != key {
            labelCache = (frame.view, key, LabelPlacer.placeAll(frame))
        }
        let labels = labelCache?.placed[id] ?? []
        let visible = labels.filter { $0.box.maxY >= Double(rows.lowerBound) && $0.box.minY <= Double(rows.upperBound) }
        guard !visible.isEmpty else { return }
        let lit = { (c: MapCore.Color) in MapCore.Color(r: c.r * draw.light.r, g: c.g * draw.light.g, b: c.b * draw.light.b, a: c.a) }
        let haloColor = lit(paint.haloColor).premultiplied(opacity: 0.9)
        let textColor = lit(paint.textColor).premultiplied(opacity: 1)
        // Dots and their halos.
        for label in visible {
            guard let d = label.dot else { continue }
            var c = Path()
            c.addCircle(center: d, radius: paint.dotRadius + paint.haloWidth)
            c.replay(into: &rasterizer)
        }
        rasterizer.fill(pixmap, color: haloColor, rule: .nonZero)
        for label in visible {
            guard let d = label.dot else { continue }
            var c = Path()
            c.addCircle(center: d, radius: paint.dotRadius)
            c.replay(into: &rasterizer)
        }
        rasterizer.fill(pixmap, color: textColor, rule: .nonZero)
        // Text: halo masks under text masks.
        let (ascent, _) = font.metrics(size: paint.textSize)
        let pad = (paint.haloWidth + 1).rounded(.up)
        for label in visible {
            let masks = labelMasks(label.text, paint: paint, font: font)
            let x = Int((label.origin.x - pad).rounded()), y = Int((label.origin.y - ascent - pad).rounded())
            masks.halo.composite(haloColor, onto: pixmap, x: x, y: y, rows: rows)
            masks.text.composite(textColor, onto: pixmap, x: x, y: y, rows: rows)
        }
    }

    /// The text and halo masks of one label (cached by text and paint).
    private func labelMasks(_ text: String, paint: LabelPaint, font: FontFace) -> (text: AlphaMask, halo: AlphaMask) {
        let key = LabelKey(text: text, size: paint.textSize, halo: paint.haloWidth, spacing: paint.letterSpacing)
        if let m = maskCache[key] { return m }
        if maskCache.count > 4000 { maskCache.removeAll() }
        let (ascent, descent) = font.metrics(size: paint.textSize)
        let pad = (paint.haloWidth + 1).rounded(.up)
        let width = LabelPlacer.advance(text, font: font, paint: paint)
        let w = Int((width + 2 * pad).rounded(.up)) + 1, h = Int((ascent + descent + 2 * pad).rounded(.up)) + 1
        let origin = PlacedLabel(text: text, kind: .city, dot: nil, origin: Point(pad, pad + ascent),
                                 box: .init(minX: 0, minY: 0, maxX: 0, maxY: 0))
        var r = Rasterizer(width: w, height: h)
        defer { r.deallocate() }
        var textAlpha = [UInt8](repeating: 0, count: w * h), haloAlpha = [UInt8](repeating: 0, count: w * h)
        let halo = StrokeStyle(width: paint.haloWidth * 2, cap: .round, join: .round)
        LabelPlacer.forEachGlyph(origin, font: font, paint: paint) { path, pen in
            stroker.stroke(path: path, style: halo, transform: .translation(pen.x, pen.y), into: &r)
            path.replay(into: &r, transform: .translation(pen.x, pen.y))
        }
        haloAlpha.withUnsafeMutableBufferPointer { r.fill(mask: $0.baseAddress!) }
        LabelPlacer.forEachGlyph(origin, font: font, paint: paint) { path, pen in
            path.replay(into: &r, transform: .translation(pen.x, pen.y))
        }
        textAlpha.withUnsafeMutableBufferPointer { r.fill(mask: $0.baseAddress!) }
        let m = (AlphaMask(width: w, height: h, alpha: textAlpha), AlphaMask(width: w, height: h, alpha: haloAlpha))
        maskCache[key] = m
        return m
    }

    /// Each feature's icon: its shapes filled (non-zero) after scaling by `icon-size`, rotating by
    /// `icon-rotate` (plus the feature's bearing when asked) about the anchor, and moving the
    /// anchor onto the point; in every world copy the viewport shows.
    private func drawSymbols(_ draw: FrameDescription.SymbolDraw, _ paint: SymbolPaint, _ p: Placement, _ pixmap: Pixmap) {
        let icon = draw.icon
        let size = paint.iconSize
        let a = paint.iconAnchor.fraction
        let reach = (icon.width * icon.width + icon.height * icon.height).squareRoot() * size
        let viewHeight = Double(p.viewHeight)
        for feature in draw.features {
            let mx = WebMercator.x(lng: feature.position.lng), my = WebMercator.y(lat: feature.position.lat)
            let rotation = (paint.iconRotate + (paint.rotateWithBearing ? feature.bearing : 0)) * Double.pi / 180
            let first = Int((p.visible.minX - mx - reach / p.world).rounded(.down))
            let last = Int((p.visible.maxX - mx + reach / p.world).rounded(.up))
            if paint.edgeMarker {
                // The copy nearest the view centre; when it is out of the window, an arrow at the edge.
                let cx = Double(pixmap.width) / 2
                var sx = mx * p.world + p.ox
                let shift = ((cx - sx) / p.world).rounded()
                sx += shift * p.world
                let sy = my * p.world + p.oy
                if sx < 0 || sx > Double(pixmap.width) || sy < 0 || sy > viewHeight {
                    drawEdgeArrow(towards: Point(sx, sy), width: Double(pixmap.width), height: viewHeight,
                                  color: icon.shapes.first?.color ?? .white, light: draw.light, pixmap)
                }
            }
            for copy in first...max(first, last) {
                let sx = (mx + Double(copy)) * p.world + p.ox, sy = my * p.world + p.oy
                guard sx > -reach, sx < Double(pixmap.width) + reach,
                      sy > Double(rows.lowerBound) - reach, sy < Double(rows.upperBound) + reach else { continue }
                let t = Transform.translation(sx, sy)
                    .concatenating(.rotation(rotation))
                    .concatenating(.scale(size, size))
                    .concatenating(.translation(-a.x * icon.width, -a.y * icon.height))
                for shape in icon.shapes {
                    var path = Path()
                    for c in shape.commands {
                        switch c {
                        case let .move(x, y): path.moveTo(t.apply(Point(x, y)))
                        case let .line(x, y): path.lineTo(t.apply(Point(x, y)))
                        case let .cubic(x1, y1, x2, y2, x, y):
                            path.cubicTo(t.apply(Point(x1, y1)), t.apply(Point(x2, y2)), t.apply(Point(x, y)))
                        case let .quad(x1, y1, x, y): path.quadTo(t.apply(Point(x1, y1)), t.apply(Point(x, y)))
                        case .close: path.close()
                        }
                    }
                    path.replay(into: &rasterizer)
                    let c = shape.color
                    let lit = MapCore.Color(r: c.r * draw.light.r, g: c.g * draw.light.g, b: c.b * draw.light.b, a: c.a)
                    rasterizer.fill(pixmap, color: lit.premultiplied(opacity: paint.iconOpacity), rule: .nonZero)
                }
            }
        }
    }

    private func imageRuns(_ image: Pixmap) -> ImageRuns {
        let key = ObjectIdentifier(image)
        if let r = runsCache[key] { return r.runs }       // (the entry keeps the image, so the key stays its own)
        if runsCache.count >= 32 { runsCache.removeAll() }
        let r = ImageRuns(image)
        runsCache[key] = (image, r)
        return r
    }

    /// A 14-px arrow 10 px inside the window's edge, on the line from the centre to `target`.
    private func drawEdgeArrow(towards target: Point, width: Double, height: Double, color: MapCore.Color, light: MapCore.Color,
                               _ pixmap: Pixmap) {
        let c = Point(width / 2, height / 2)
        let d = target - c
        let len = d.length
        guard len > 0 else { return }
        let u = d * (1 / len)
        // Scale the direction to touch the inset rectangle.
        let inset = 14.0
        let kx = u.x == 0 ? Double.infinity : (width / 2 - inset) / abs(u.x)
        let ky = u.y == 0 ? Double.infinity : (height / 2 - inset) / abs(u.y)
        let tip = c + u * min(kx, ky, len)
        let n = Point(-u.y, u.x)
        rasterizer.moveTo(tip)
        rasterizer.lineTo(tip - u * 14 + n * 7)
        rasterizer.lineTo(tip - u * 10)
        rasterizer.lineTo(tip - u * 14 - n * 7)
        rasterizer.close()
        let lit = MapCore.Color(r: color.r * light.r, g: color.g * light.g, b: color.b * light.b, a: 0.9)
        rasterizer.fill(pixmap, color: lit.premultiplied(opacity: 1), rule: .nonZero)
    }

    /// An image source's current frame on its quad: coverage from the rasterizer (anti-aliased
    /// edges), colour from the image.
    private func drawRaster(_ draw: FrameDescription.ImageDraw, _ paint: RasterPaint, _ p: Placement, _ pixmap: Pixmap) {
        guard let image = draw.image as? Pixmap,
              let mapper = ImageQuadMapper(corners: draw.corners, placement: draw.placement, world: p.world, ox: p.ox, oy: p.oy)
        else { return }
        // World copies: draw the quad in each copy the viewport shows.
        let xs = draw.corners.all.map { WebMercator.x(lng: $0.lng) }
        let minX = xs.min()!, maxX = xs.max()!
        for copy in Int((p.visible.minX - maxX).rounded(.down))...Int((p.visible.maxX - minX).rounded(.up)) {
            let shifted = ImageQuadMapper(corners: draw.corners, placement: draw.placement, world: p.world,
                                          ox: p.ox + Double(copy) * p.world, oy: p.oy) ?? mapper
            let pts = draw.corners.all.map { shifted.screen($0) }
            let top = max(rows.lowerBound, Int(pts.map(\.y).min()!.rounded(.down)))
            let bottom = min(rows.upperBound - 1, Int(pts.map(\.y).max()!.rounded(.up)))
            let left = pts.map(\.x).min()!, right = pts.map(\.x).max()!
            guard top <= bottom, right >= 0, left <= Double(pixmap.width) else { continue }
            rowMaps.removeAll(keepingCapacity: true)
            for y in top...bottom { rowMaps.append(shifted.row(y)) }
            rasterizer.moveTo(pts[0]); rasterizer.lineTo(pts[1]); rasterizer.lineTo(pts[2]); rasterizer.lineTo(pts[3]); rasterizer.close()
            let adjustment = paint.hasNoAdjustments ? nil : ColorAdjustment(
                brightnessMin: paint.brightnessMin, brightnessMax: paint.brightnessMax, contrast: paint.contrast,
                saturation: paint.saturation, hueRotate: paint.hueRotate)
            let previous = draw.previous as? Pixmap
            let sampling: ImageSampling = paint.resampling == .nearest ? .nearest : .bilinear
            let light = (draw.light.r, draw.light.g, draw.light.b)
            if draw.corners.isAxisAligned && (previous == nil || (previous!.width == image.width && previous!.height == image.height)) {
                // Source column from screen column, source row from screen row: tables, then lookups.
                columnSamples.removeAll(keepingCapacity: true)
                for x in 0..<pixmap.width {
                    let m = rowMaps[0]
                    let fx = Float(x) + 0.5
                    let u = fx < m.split ? m.s0 + m.ds * fx : m.s1 + m.ds1 * fx
                    columnSamples.append(AxisSamples.make(Double(u), size: image.width, sampling: sampling))
                }
                rowSamples.removeAll(keepingCapacity: true)
                for m in rowMaps { rowSamples.append(AxisSamples.make(Double(m.t0), size: image.height, sampling: sampling)) }
                columnSamples.withUnsafeBufferPointer { cols in
                    rowSamples.withUnsafeBufferPointer { rows in
                        let blitter = SeparableImageBlitter(destination: pixmap, image: image, previous: previous, fade: draw.fade,
                                                            columns: cols.baseAddress!, rows: rows.baseAddress!, firstRow: top,
                                                            opacity: paint.opacity, light: light, adjustment: adjustment)
                        if previous == nil && adjustment == nil {
                            // Skip the image's clear runs (most of a radar frame).
                            let runs = imageRuns(image)
                            rasterizer.fill(pixmap, runSkippingImage: RunSkippingImageBlitter(blitter, runs: runs, width: image.width))
                        } else {
                            rasterizer.fill(pixmap, separableImage: blitter)
                        }
                    }
                }
            } else {
                rowMaps.withUnsafeBufferPointer { rows in
                    let blitter = ImageBlitter(destination: pixmap, image: image, previous: previous, fade: draw.fade,
                                               rows: rows.baseAddress!, firstRow: top, sampling: sampling,
                                               opacity: paint.opacity, light: light, adjustment: adjustment)
                    rasterizer.fill(pixmap, image: blitter)
                }
            }
        }
    }

    private func drawBackground(_ c: PremultipliedColor, _ pixmap: Pixmap) {
        if c.alpha == 255 { pixmap.clear(c, rows: rows); return }
        let buf = pixmap.buffer
        for i in (rows.lowerBound * pixmap.width)..<(rows.upperBound * pixmap.width) { buf[i] = Blend.over(c.packed, buf[i]) }
    }

    private func drawFill(_ g: GeometrySet, _ paint: FillPaint, _ p: Placement, _ pixmap: Pixmap) {
        guard let level = g.level(forZoom: p.zoom) else { return }
        g.points.withUnsafeBufferPointer { pts in
            p.forEachVisibleChunk(g, level, margin: 1) { chunk, sx, ox, sy, oy in
                for part in chunk.parts {
                    let start = g.partOffsets[part], n = g.partLengths[part]
                    guard n >= 3 else { continue }
                    var i = (start + n - 1) * 2
                    var prev = Point(Double(pts[i]) * sx + ox, Double(pts[i + 1]) * sy + oy)
                    for k in 0..<n {
                        i = (start + k) * 2
                        let cur = Point(Double(pts[i]) * sx + ox, Double(pts[i + 1]) * sy + oy)
                        rasterizer.addEdge(prev, cur)
                        prev = cur
                    }
                }
            }
        }
        rasterizer.fill(pixmap, color: paint.color.premultiplied(opacity: paint.opacity), rule: .nonZero)
    }

    private func drawLine(_ g: GeometrySet, _ paint: LinePaint, _ p: Placement, _ pixmap: Pixmap) {
        guard let level = g.level(forZoom: p.zoom) else { return }
        let reach = paint.gapWidth / 2 + paint.width
        let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
        collectRuns(g, level, p, margin: margin, width: pixmap.width, dashed: !paint.dasharray.isEmpty)
        guard !runEnds.isEmpty else { return }
        let color = paint.color.premultiplied(opacity: paint.opacity)
        let base = StrokeStyle(paint)
        if paint.blur <= 0 {
            strokeRuns(paint, base)
            rasterizer.fill(pixmap, color: color, rule: .nonZero)
            return
        }
        // Blur: as in MapLibre's line shader, the edge fades over blur + 1 px, centred blur / 2
        // inside the line's edge. Drawn as a stack of concentric strokes, half-widths spread evenly
        // over `blur`, each anti-aliased over 1 px, whose coverages add up in a mask composited once.
        let layers = min(32, max(2, Int((paint.blur * 2).rounded(.up))))
        mask.reset(width: pixmap.width, height: pixmap.height)   // (only this band's rows get touched)
        for k in 0..<layers {
            var style = base
            style.width = paint.width - 2 * paint.blur * (Double(k) + 0.5) / Double(layers)
            guard style.width > 0 else { continue }
            strokeRuns(paint, style)
            mask.accumulate(&rasterizer, weight: UInt32(256 / layers))
        }
        mask.composite(color, onto: pixmap)
    }

    /// Gathers the layer's visible polylines in screen space into `runPoints` / `runEnds`.
    /// Segments wholly outside the viewport grown by `margin` are skipped: the polyline is cut
    /// there into runs, whose ends (and caps) are out of sight.
    private func collectRuns(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, width: Int,
                             dashed: Bool) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        let minX = -margin, minY = Double(rows.lowerBound) - margin
        let maxX = Double(width) + margin, maxY = Double(rows.upperBound) + margin
        @inline(__always) func outcode(_ q: Point) -> UInt8 {
            (q.x < minX ? 1 : 0) | (q.x > maxX ? 2 : 0) | (q.y < minY ? 4 : 0) | (q.y > maxY ? 8 : 0)
        }
        var runStart = 0
        // Distance along the part where the current run starts: dashes continue across culled
        // stretches, so cutting a line (off screen, or at a band edge) never shifts its pattern.
        var along = 0.0, runAlong = 0.0
        @inline(__always) func endRun() {
            if runPoints.count - runStart >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(runAlong)
            } else {
                runPoints.removeLast(runPoints.count - runStart)
            }
            runStart = runPoints.count
        }
        g.points.withUnsafeBufferPointer { pts in
            p.forEachVisibleChunk(g, level, margin: margin) { chunk, sx, ox, sy, oy in
                for part in chunk.parts {
                    let start = g.partOffsets[part], n = g.partLengths[part]
                    guard n >= 2 else { continue }
                    var prev = Point(Double(pts[start * 2]) * sx + ox, Double(pts[start * 2 + 1]) * sy + oy)
                    var prevCode = outcode(prev)
                    along = 0
                    for k in 1..<n {
                        let i = (start + k) * 2
                        let cur = Point(Double(pts[i]) * sx + ox, Double(pts[i + 1]) * sy + oy)
                        let code = outcode(cur)
                        if prevCode & code != 0 {
                            endRun()
                        } else {
                            if runPoints.count == runStart { runPoints.append(prev); runAlong = along }
                            runPoints.append(cur)
                        }
                        if dashed { along += (cur - prev).length }
                        prev = cur; prevCode = code
                    }
                    endRun()
                }
            }
        }
    }

    /// Strokes every collected run into the rasterizer; with a gap width, two lines offset to
    /// either side of the gap instead of one.
    private func strokeRuns(_ paint: LinePaint, _ base: StrokeStyle) {
        var start = 0
        var style = base
        for (r, end) in runEnds.enumerated() {
            if !base.dashes.isEmpty { style.dashOffset = base.dashOffset + runOffsets[r] }
            if paint.gapWidth > 0 {
                let d = paint.gapWidth / 2 + paint.width / 2
                let run = Array(runPoints[start..<end])
                for side in [d, -d] {
                    PolylineOffset.offset(run, by: side, miterLimit: max(2, paint.miterLimit), into: &offsetScratch)
                    offsetScratch.withUnsafeBufferPointer { stroker.stroke($0, closed: false, style: style, into: &rasterizer) }
                }
            } else {
                runPoints.withUnsafeBufferPointer { all in
                    stroker.stroke(UnsafeBufferPointer(rebasing: all[start..<end]), closed: false, style: style, into: &rasterizer)
                }
            }
            start = end
        }
    }
}

/// Where normalised Mercator coordinates land on screen, including horizontal world copies.
struct Placement {
    let zoom: Double
    let world: Double
    let ox: Double, oy: Double
    let visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The whole view's height (a band renderer draws only some of its rows).
    let viewHeight: Int

    /// For the rows `rows` of the view.
    init(view: ViewTransform, width: Int, rows: Range<Int>) {
        zoom = view.camera.zoom
        world = view.worldSize
        ox = Double(width) / 2 - view.centerPixel.x
        oy = Double(view.size.height) / 2 - view.centerPixel.y
        visible = (-ox / world, (Double(rows.lowerBound) - oy) / world, (Double(width) - ox) / world, (Double(rows.upperBound) - oy) / world)
        viewHeight = view.size.height
    }

    /// Calls `body` for each chunk of `level` that intersects the viewport (grown by `margin`
    /// pixels), once per world copy it shows in, with the scale and offset mapping its points.
    func forEachVisibleChunk(_ g: GeometrySet, _ level: GeometrySet.Level, margin: Double,
                             _ body: (GeometrySet.Chunk, Double, Double, Double, Double) -> Void) {
        let m = margin / world
        let minX = visible.minX - m, maxX = visible.maxX + m
        let minY = visible.minY - m, maxY = visible.maxY + m
        let firstCopy = Int((minX).rounded(.down)), lastCopy = Int((maxX).rounded(.down))
        for copy in firstCopy...max(firstCopy, lastCopy) {
            let shift = Double(copy)
            for ci in level.chunks {
                let c = g.chunks[ci]
                if Double(c.maxX) + shift < minX || Double(c.minX) + shift > maxX
                    || Double(c.maxY) < minY || Double(c.minY) > maxY { continue }
                body(c, world, ox + shift * world, world, oy)
            }
        }
    }
}

extension StrokeStyle {
    /// The raster stroke for a line paint (dash lengths are in line widths in the style spec).
    init(_ paint: LinePaint) {
        let w = paint.width
        self.init(width: w,
                  cap: LineCap(rawValue: paint.cap.rawValue) ?? .butt,
                  join: LineJoin(rawValue: paint.join.rawValue) ?? .miter,
                  miterLimit: paint.miterLimit,
                  dashes: paint.dasharray.map { $0 * max(w, 1) })
    }
}

extension MapCore.Color {
    /// Premultiplied 8-bit colour with `opacity` applied.
    func premultiplied(opacity: Double) -> PremultipliedColor {
        let b = bytes
        let a = UInt8((Double(b.a) * min(max(opacity, 0), 1)).rounded())
        return RGBA8(b.r, b.g, b.b, a).premultiplied
    }
}
