import MapCore
import Raster

/// Draws a `FrameDescription` into a `Pixmap`. It reads the description only and keeps its
/// scratch storage (rasterizer cells, stroker buffers) between frames, so a warm frame does
/// not allocate.
public final class FrameRenderer {
    /// The frame's rasterizer, lent to each layer as it draws.
    var rasterizer: Rasterizer
    // One render layer per kind of layer, each with its own scratch state.
    let labels: LabelSprites
    let lines: LineRenderLayer
    let fills: FillRenderLayer
    let circles = CircleRenderLayer()
    let rasters = RasterRenderLayer()
    let symbols: SymbolRenderLayer
    let backgrounds = BackgroundRenderLayer()
    let spacePaths = SpacePathRenderLayer()
    let atmosphere = AtmosphereRenderLayer()
    let heatmaps = HeatmapRenderLayer()
    let hillshades = HillshadeRenderLayer()
    let colorReliefs = ColorReliefRenderLayer()
    let sky = SkyRenderLayer()
    let extrusions = FillExtrusionRenderLayer()
    let overlay: OverlayRenderer
    /// Pixels of runs of layers kept for the view shown (see `drawUnchangedRun` and `draw`).
    let cache = PixelCache()
    /// Whether this frame's view is the previous frame's.
    var viewIsStill = false
    var lastFrame: FrameDescription?
    /// Frames rendered so far (the caches' clock).
    var frameNumber = 0
    /// What shows where no layer draws: opaque black in the window, transparent for images
    /// compared with the reference engines'.
    public var clearColor = PremultipliedColor(packed: 0xFF00_0000)

    /// Label glyphs shaded from their distance fields so far (a panning frame, its labels
    /// cached, adds none: the benchmark counts them).
    public var glyphsShaded: Int { labels.glyphsDrawn }

    public init() {
        rasterizer = Rasterizer(width: 1, height: 1)
        labels = LabelSprites()
        lines = LineRenderLayer()
        fills = FillRenderLayer(lines: lines)
        symbols = SymbolRenderLayer(labels: labels)
        overlay = OverlayRenderer(labels: labels)
    }

    /// Makes this renderer read its symbols from `placement`, which its owner places for each
    /// frame before drawing (several band renderers share one placement instead of each making its own).
    /// Symbols are still fading or a placement waits for its turn: draw the frame again soon,
    /// even if its description does not change.
    public var symbolsAnimating: Bool { symbols.placement.isAnimating }
    /// Symbols are fading (draw again at the display's pace), and when a placement that waits
    /// for its turn may run (draw again then).
    public var symbolsFading: Bool { symbols.placement.isFading }
    public var symbolPassDueAt: Double? { symbols.placement.passDueAt }
    /// The placement this renderer reads its symbols from (its own, or the one `usePlacement` gave).
    public var symbolPlacement: SymbolPlacement { symbols.placement }

    public func usePlacement(_ placement: SymbolPlacement) {
        symbols.usePlacement(placement)
    }

    /// Renders `frame` into `pixmap` (whose size should match the frame's viewport).
    ///
    /// Layers at the bottom that did not change since the previous frame (same camera, same
    /// evaluated paint) are kept as a cached image: when only the layers above them change (lines
    /// pulsing over a still map), the frame is that image plus the changed layers.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap) {
        render(frame, into: pixmap, rows: 0..<pixmap.height)
    }

    /// Renders only the rows `band` of the frame (other rows of `pixmap` are left alone), so
    /// several renderers can draw one frame at once, each its own band.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap, rows band: Range<Int>) {
        let rows = band.clamped(to: 0..<pixmap.height)
        guard !rows.isEmpty else { return }
        frameNumber += 1
        rasterizer.reset(width: pixmap.width, height: rows.count, originY: rows.lowerBound)
        let placement = Placement(view: frame.view, width: pixmap.width, rows: rows, surfaceMesh: frame.surfaceMesh)
        let layers = frame.layers
        // Layers unchanged since the previous frame, from the bottom.
        var stable = 0
        if let last = lastFrame, last.view == frame.view {
            while stable < min(layers.count, last.layers.count) && layers[stable] == last.layers[stable] { stable += 1 }
        }
        // The previous frame's layers when they can be compared one by one (same view, same count).
        let previous = lastFrame.flatMap { $0.view == frame.view && $0.layers.count == layers.count ? $0.layers : nil }
        viewIsStill = lastFrame?.view == frame.view
        lastFrame = frame
        cache.keep(view: frame.view, rows: rows, width: pixmap.width, height: pixmap.height)
        let target = RenderTarget(pixmap: pixmap, rows: rows)
        // The bottom layers as kept, or the clear colour (unless the first layer paints every
        // pixel anyway).
        var first = 0
        if let base = cache.entry(.bottom, 0, layers[..<stable]) {
            base.draw(into: target)
            first = base.layers.count
        } else if !placement.isProjected, case let .background(c, o)? = layers.first?.content, c.a >= 1, o >= 1 {
        } else {
            // (Pitched under an opaque background that fills the ground's rows whole, as it does
            // away from the world's north and south edges: only the rows above the ground.)
            var clear = rows
            if placement.isPitched && placement.groundWithinWorld, case let .background(c, o)? = layers.first?.content, c.a >= 1, o >= 1 {
                clear = rows.lowerBound..<placement.groundRows(target).lowerBound
            }
            pixmap.clear(clearColor, rows: clear)
            if let s = frame.sky, placement.isPitched { sky.draw(s, placement, target) }
        }
        // An opaque background not painted yet: the layer above it may paint it in its own pass.
        var under: PremultipliedColor? = nil
        var index = first
        while index < layers.count {
            // Above a change, a run of layers unchanged since the previous frame: from its kept
            // image when it has one (see `drawUnchangedRun`).
            if index >= stable, let previous, layers[index] == previous[index] {
                var end = index + 1
                while end < layers.count && layers[end] == previous[end] { end += 1 }
                drawUnchangedRun(layers, index..<end, placement, frame, target, under: &under)
                index = end
                continue
            }
            defer { index += 1 }
            draw(layers[index], index, placement, frame, target, under: &under)
            // Keep the stable part once it is complete (and worth keeping: not the whole frame).
            if index + 1 == stable && stable < layers.count && stable > first {
                paint(&under, target)
                cache.keepOpaque(layers[..<stable], from: target)
            }
        }
        paint(&under, target)
        if let a = frame.atmosphere { atmosphere.draw(a, frame.view, placement.sphere, target) }
        if !frame.spacePaths.isEmpty { spacePaths.draw(frame.spacePaths, frame.view, pixmap, &rasterizer) }
        if !frame.markers.isEmpty { OffscreenMarkers.draw(frame.markers, frame.view, pixmap, &rasterizer) }
        if let o = frame.overlay { overlay.draw(o, target, &rasterizer, frame: frameNumber) }
    }

    /// Draws one layer by its kind's render layer. `under`, an opaque background not painted
    /// yet, is painted first, or by a fill of a geometry set in its own pass; an opaque
    /// background becomes the next `under`.
    func draw(_ layer: FrameDescription.DrawLayer, _ index: Int, _ placement: Placement, _ frame: FrameDescription,
              _ target: RenderTarget, under: inout PremultipliedColor?) {
        if case let .fill(draw) = layer.content, case let .uniform(_, paint) = draw, paint.opacity > 0, paint.color.a > 0,
           let background = under, !placement.isProjected {
            // An opaque background under a fill: both in one pass over the rows.
            under = nil
            fills.draw(draw, placement, target, &rasterizer, over: background)
            return
        }
        paint(&under, target)
        switch layer.content {
        case let .background(color, opacity):
            let c = color.premultiplied(opacity: opacity)
            // Opaque: painted by the next layer in its own pass if that is a fill, else just
            // before the next layer draws.
            if c.alpha == 255 && !placement.isProjected { under = c } else { backgrounds.draw(c, placement, target, &rasterizer) }
        case let .fill(draw):
            rasterizer.ground = placement.ground; rasterizer.sphere = placement.sphere
            fills.draw(draw, placement, target, &rasterizer)
            rasterizer.ground = nil; rasterizer.sphere = nil
        case let .line(draw):
            rasterizer.ground = placement.ground; rasterizer.sphere = placement.sphere
            lines.draw(draw, placement, target, &rasterizer)
            rasterizer.ground = nil; rasterizer.sphere = nil
        case let .circle(draw): circles.draw(draw, placement, target, &rasterizer)
        case let .raster(draw):
            drawRaster(layer, index, draw, placement, target)
        case .symbol:
            symbols.draw(.init(index: index, frame: frame, frameNumber: frameNumber), placement, target, &rasterizer)
        case let .heatmap(draw): heatmaps.draw(draw, placement, target, &rasterizer)
        case let .hillshade(draw): hillshades.draw(draw, placement, target, &rasterizer)
        case let .colorRelief(draw): colorReliefs.draw(draw, placement, target, &rasterizer)
        case let .fillExtrusion(draw):
            // (The depth is kept for the frame when it has other fill-extrusion layers: the later
            // hide behind the earlier's buildings.)
            let others = frame.layers.indices.contains { i in
                if i != index, case .fillExtrusion = frame.layers[i].content { true } else { false }
            }
            extrusions.draw(draw, frame.view, target, frame: frameNumber, keepDepth: others)
        }
    }

    /// Paints the opaque background `under` (if any) over the target's rows, and forgets it.
    func paint(_ under: inout PremultipliedColor?, _ target: RenderTarget) {
        guard let c = under else { return }
        under = nil
        target.pixmap.clear(c, rows: target.rows)
    }
}

extension MapCore.Color {
    /// Premultiplied 8-bit colour with `opacity` applied.
    func premultiplied(opacity: Double) -> PremultipliedColor {
        let b = bytes
        let a = roundedByte(Double(b.a) * min(max(opacity, 0), 1))
        return RGBA8(b.r, b.g, b.b, a).premultiplied
    }
}
