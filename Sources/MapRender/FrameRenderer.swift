import MapCore
import MapData
import Raster

/// Draws a `FrameDescription` into a `Pixmap`. It reads the description only and keeps its
/// scratch storage (rasterizer cells, stroker buffers) between frames, so a warm frame does
/// not allocate.
public final class FrameRenderer {
    var rasterizer: Rasterizer
    var stroker = Stroker()
    var runPoints: [Point] = []
    var runEnds: [Int] = []
    var runOffsets: [Double] = []
    /// Runs that are closed rings (joined at their first vertex, no caps); empty: none are.
    var runClosed: [Bool] = []
    var offsetScratch: [Point] = []
    var strokeStyles: [(paint: LinePaint, style: StrokeStyle)] = []
    var symbolPath = Path()
    var offsetEnds: [Int] = []
    var rowMaps: [ImageRowMap] = []
    var columnSamples: [AxisSamples] = []
    var rowSamples: [AxisSamples] = []
    /// Where each source column of a raster image starts and ends on screen (see `RunSkippingImageBlitter`).
    var columnReach: [Int32] = []
    /// Latitudes by Mercator y for the radar at a bearing (see `ImageQuadMapper.warp`).
    var latitudes: [Double] = []
    /// Transparent-run tables of the images drawn lately (images never change once decoded).
    var runsCache: [ObjectIdentifier: (image: Pixmap, runs: ImageRuns)] = [:]
    let mask = CoverageMask(width: 1, height: 1)
    /// Coverage of lines at most two pixels wide (see `ThinStroke`).
    var thin = ThinStroke()
    // The bottom layers that stayed the same, drawn once.
    var lastFrame: FrameDescription?
    var cache: Pixmap?
    var cachedLayers: [FrameDescription.DrawLayer] = []
    var cachedView: ViewTransform?
    var cachedRows: Range<Int> = 0..<0
    struct LabelKey: Hashable { let text: String; let size: Double; let halo: Double; let spacing: Double }
    /// (A class: marking an entry used must not go through the dictionary, whose in-place
    /// accessor allocates.)
    final class MaskEntry {
        let text: AlphaMask, halo: AlphaMask
        /// The two composited in the colours last asked for (made on first use).
        var sprite: MaskSprite?
        var lastUsed: Int
        init(text: AlphaMask, halo: AlphaMask, lastUsed: Int) { self.text = text; self.halo = halo; self.lastUsed = lastUsed }
        /// Bytes held: both masks, and the sprite once made.
        var bytes: Int { text.width * text.height * (2 + (sprite == nil ? 0 : MaskSprite.bytesPerPixel)) }
    }
    /// Label masks by text and paint, kept near `maskBudget` bytes (least recently used go first;
    /// what the last two frames drew always stays, see `evictMasks`).
    var maskCache: [LabelKey: MaskEntry] = [:]
    var maskBytes = 0
    static let maskBudget = 1024 * 1024
    /// The frame that last evicted label masks.
    var lastEviction = -1
    /// Frames rendered so far (the mask cache's clock).
    var frameNumber = 0
    struct DotKey: Equatable { let radius: Double; let halo: Double }
    var dotCache: (key: DotKey, masks: (dot: AlphaMask, halo: AlphaMask, centre: Double))?
    /// The label placement of all label layers, kept while the view and those layers stay the same.
    var labelPlacement = LabelPlacement()
    /// Whether `labelPlacement` is made by someone else (a parallel renderer) for each frame.
    var placementIsShared = false
    /// What shows where no layer draws: opaque black in the window, transparent for images
    /// compared with the reference engines'.
    public var clearColor = PremultipliedColor(packed: 0xFF00_0000)
    /// An opaque background not drawn yet: the layer above it may draw it in its own pass.
    var pendingBackground: PremultipliedColor?
    /// The rows this renderer draws (all of them, or a band when several renderers share a frame).
    var rows: Range<Int> = 0..<1

    public init() {
        rasterizer = Rasterizer(width: 1, height: 1)
        runPoints.reserveCapacity(1 << 16)
        runEnds.reserveCapacity(4096)
    }

    deinit { rasterizer.deallocate(); thin.deallocate() }

    /// Makes this renderer read its labels from `placement`, which its owner places for each frame
    /// before drawing (several band renderers share one placement instead of each making its own).
    public func usePlacement(_ placement: LabelPlacement) {
        labelPlacement = placement
        placementIsShared = true
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
        rows = band.clamped(to: 0..<pixmap.height)
        guard !rows.isEmpty else { return }
        frameNumber += 1
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
            // Start from the clear colour unless the first layer paints every pixel anyway.
            if case let .background(c, o)? = layers.first?.paint, c.a >= 1, o >= 1 {} else {
                pixmap.clear(clearColor, rows: rows)
            }
        }
        for index in first..<layers.count {
            draw(layers[index], index, placement, frame, pixmap)
            // Keep the stable part once it is complete (and worth keeping: not the whole frame).
            if index + 1 == stable && stable < layers.count && stable > cachedLayers.count {
                flushBackground(pixmap)
                if cache?.width != pixmap.width || cache?.height != pixmap.height {
                    cache = Pixmap(width: pixmap.width, height: pixmap.height)
                }
                cache?.copy(from: pixmap, rows: rows)
                cachedLayers = Array(layers[..<stable])
                cachedView = frame.view
                cachedRows = rows
            }
        }
        flushBackground(pixmap)
        if stable < cachedLayers.count || cachedView != frame.view {
            cachedLayers = []
        }
        if !frame.markers.isEmpty { drawOffscreenMarkers(frame.markers, frame.view, pixmap) }
        if let overlay = frame.overlay, let font = overlay.font as? FontFace {
            drawOverlay(overlay, font, pixmap, height: frame.view.size.height)
        }
    }

    private func draw(_ layer: FrameDescription.DrawLayer, _ index: Int, _ placement: Placement, _ frame: FrameDescription,
                      _ pixmap: Pixmap) {
        if let background = pendingBackground {
            // An opaque background under a fill: both in one pass over the rows.
            if layer.features == nil, case let .fill(paint) = layer.paint, let g = layer.geometry,
               paint.opacity > 0, paint.color.a > 0 {
                pendingBackground = nil
                drawFill(g, paint, placement, pixmap, over: background)
                return
            }
            flushBackground(pixmap)
        }
        if let features = layer.features {
            drawFeatures(features, placement, pixmap)
            return
        }
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
        case let .labels(paint):
            guard let draw = layer.labels, let font = draw.font as? FontFace else { return }
            drawLabels(index, draw, paint, font, frame, pixmap)
        case .styled:
            return      // (the model evaluates these into the kinds above)
        }
    }

    /// Clears to a pending opaque background (one whose next layer did not draw it).
    private func flushBackground(_ pixmap: Pixmap) {
        guard let c = pendingBackground else { return }
        pendingBackground = nil
        pixmap.clear(c, rows: rows)
    }

    private func drawBackground(_ c: PremultipliedColor, _ pixmap: Pixmap) {
        // Opaque: drawn by the next layer in its own pass if that is a fill, else cleared just
        // before the next layer draws.
        if c.alpha == 255 { pendingBackground = c; return }
        let buf = pixmap.buffer
        for i in (rows.lowerBound * pixmap.width)..<(rows.upperBound * pixmap.width) { buf[i] = Blend.over(c.packed, buf[i]) }
    }

    private func drawFill(_ g: GeometrySet, _ paint: FillPaint, _ p: Placement, _ pixmap: Pixmap,
                          over background: PremultipliedColor? = nil) {
        guard let level = g.level(forZoom: p.zoom) else {
            if let background { pixmap.clear(background, rows: rows) }
            return
        }
        if p.turn == nil { addFillEdges(g, level, p, pixmap, AxisMap.self) } else { addFillEdges(g, level, p, pixmap, RotatedMap.self) }
        if let background {
            rasterizer.fill(pixmap, color: paint.color.premultiplied(opacity: paint.opacity), over: background, rule: .nonZero)
        } else {
            rasterizer.fill(pixmap, color: paint.color.premultiplied(opacity: paint.opacity), rule: .nonZero)
        }
    }

    /// The visible edges of a polygon layer's rings into the rasterizer, mapped by `M`.
    private func addFillEdges<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound), right = Double(pixmap.width)
        g.points.withUnsafeBufferPointer { pts in
            g.blockBoxes.withUnsafeBufferPointer { boxes in
                p.forEachVisibleChunk(g, level, margin: 1, M.self) { chunk, map in
                    @inline(__always) func point(_ i: Int) -> Point { map.point(Double(pts[2 * i]), Double(pts[2 * i + 1])) }
                    for part in chunk.parts {
                        let start = g.partOffsets[part], n = g.partLengths[part]
                        guard n >= 3 else { continue }
                        // Block by block: the edges of a block wholly above, below or right of
                        // the rows drawn add nothing (the rasterizer would drop each); those of
                        // a block wholly left of them become edges along x = 0, whose sum is
                        // the one edge from the block's first point to its last. (Projection
                        // keeps the order of coordinates, so the projected box holds every
                        // projected point; at a bearing the box holds the rotated one's corners.)
                        var first = 0
                        for b in g.blockStart[part]..<g.blockStart[part + 1] {
                            let last = min(first + g.blockLength, n)
                            defer { first = last }
                            let (minX, minY, maxX, maxY) = map.box(boxes, b)
                            if maxY <= top || minY >= bottom || minX >= right { continue }
                            if maxX <= 0 {
                                rasterizer.addEdge(point(start + first), point(start + (last < n ? last : 0)))
                                continue
                            }
                            var prev = point(start + first)
                            for k in (first + 1)...last {
                                let cur = point(start + (k < n ? k : 0))
                                rasterizer.addEdge(prev, cur)
                                prev = cur
                            }
                        }
                    }
                }
            }
        }
    }

    private func drawLine(_ g: GeometrySet, _ paint: LinePaint, _ p: Placement, _ pixmap: Pixmap) {
        guard let level = g.level(forZoom: p.zoom) else { return }
        let reach = paint.gapWidth / 2 + paint.width
        let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
        collectRuns(g, level, p, margin: margin, width: pixmap.width, dashed: !paint.dasharray.isEmpty)
        paintRuns(paint, pixmap)
    }

    /// Strokes the collected runs with `paint` and composites them. Lines up to two pixels wide
    /// are covered by distance (`ThinStroke`) unless `exactArea` asks for the area rasterizer.
    func paintRuns(_ paint: LinePaint, _ pixmap: Pixmap, clip: PixelRect? = nil, exactArea: Bool = false) {
        guard !runEnds.isEmpty else { return }
        let color = paint.color.premultiplied(opacity: paint.opacity)
        let base = strokeStyle(paint)
        if !exactArea && paint.blur <= 0 && paint.gapWidth <= 0 && paint.width <= ThinStroke.maxWidth {
            // Thin lines: coverage by distance, each pixel painted once per layer.
            if thin.width != pixmap.width || thin.originY != rows.lowerBound || thin.height != rows.count {
                thin.reset(width: pixmap.width, height: rows.count, originY: rows.lowerBound)
            }
            var start = 0
            var style = base
            runPoints.withUnsafeBufferPointer { all in
                for (r, end) in runEnds.enumerated() {
                    if !base.dashes.isEmpty { style.dashOffset = base.dashOffset + runOffsets[r] }
                    let closed = r < runClosed.count && runClosed[r]
                    thin.stroke(UnsafeBufferPointer(rebasing: all[start..<end]), closed: closed, style: style)
                    start = end
                }
            }
            thin.composite(color, onto: pixmap, clip: clip)
            return
        }
        if paint.blur <= 0 {
            strokeRuns(paint, base)
            if let clip {
                var b = ClipBlitter(SolidBlitter(pixmap: pixmap, color: color), clip: clip)
                rasterizer.sweep(.nonZero, &b)
            } else {
                rasterizer.fill(pixmap, color: color, rule: .nonZero)
            }
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
        mask.composite(color, onto: pixmap, clip: clip)
    }

    /// The stroke of a line paint, remembered for the last few paints (a dashed style's scaled
    /// dash array would otherwise be made anew every frame).
    func strokeStyle(_ paint: LinePaint) -> StrokeStyle {
        if paint.dasharray.isEmpty { return StrokeStyle(paint) }
        if let hit = strokeStyles.first(where: { $0.paint == paint }) { return hit.style }
        if strokeStyles.count >= 8 { strokeStyles.removeFirst() }
        let style = StrokeStyle(paint)
        strokeStyles.append((paint, style))
        return style
    }

    /// Gathers the layer's visible polylines in screen space into `runPoints` / `runEnds`.
    /// Segments wholly outside the viewport grown by `margin` are skipped: the polyline is cut
    /// there into runs, whose ends (and caps) are out of sight.
    private func collectRuns(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, width: Int,
                             dashed: Bool) {
        if p.turn == nil {
            collectRuns(g, level, p, margin: margin, width: width, dashed: dashed, AxisMap.self)
        } else {
            collectRuns(g, level, p, margin: margin, width: width, dashed: dashed, RotatedMap.self)
        }
    }

    private func collectRuns<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, width: Int,
                                           dashed: Bool, _: M.Type) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
        let minXView = -margin, minYView = Double(rows.lowerBound) - margin
        let maxXView = Double(width) + margin, maxYView = Double(rows.upperBound) + margin
        @inline(__always) func outcode(_ q: Point) -> UInt8 {
            (q.x < minXView ? 1 : 0) | (q.x > maxXView ? 2 : 0) | (q.y < minYView ? 4 : 0) | (q.y > maxYView ? 8 : 0)
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
            g.blockBoxes.withUnsafeBufferPointer { boxes in
                p.forEachVisibleChunk(g, level, margin: margin, M.self) { chunk, map in
                    @inline(__always) func point(_ i: Int) -> Point { map.point(Double(pts[2 * i]), Double(pts[2 * i + 1])) }
                    for part in chunk.parts {
                        let start = g.partOffsets[part], n = g.partLengths[part]
                        guard n >= 2 else { continue }
                        var prev = point(start)
                        var prevCode = outcode(prev)
                        along = 0
                        var first = 0
                        for b in g.blockStart[part]..<g.blockStart[part + 1] {
                            let last = min(first + g.blockLength, n - 1)
                            defer { first = last }
                            // A block wholly beyond one side of the grown viewport: each of its
                            // segments would end the run. (Not for dashes, whose pattern goes
                            // on by the length of every segment.)
                            if !dashed {
                                let (minX, minY, maxX, maxY) = map.box(boxes, b)
                                if maxX < minXView || minX > maxXView || maxY < minYView || minY > maxYView {
                                    endRun()
                                    prev = point(start + last); prevCode = outcode(prev)
                                    continue
                                }
                            }
                            for k in (first + 1)...last {
                                let cur = point(start + k)
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
                        }
                        endRun()
                    }
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
            let closed = r < runClosed.count && runClosed[r]
            if paint.gapWidth > 0 {
                let d = paint.gapWidth / 2 + paint.width / 2
                let run = Array(runPoints[start..<end])
                for side in [d, -d] {
                    PolylineOffset.offset(run, by: side, miterLimit: max(2, paint.miterLimit), splitSharp: !closed,
                                          into: &offsetScratch, ends: &offsetEnds)
                    offsetScratch.withUnsafeBufferPointer { all in
                        var from = 0
                        for end in offsetEnds {
                            let piece = UnsafeBufferPointer(rebasing: all[from..<end])
                            stroker.stroke(piece, closed: closed && offsetEnds.count == 1, style: style, into: &rasterizer)
                            from = end
                        }
                    }
                }
            } else {
                runPoints.withUnsafeBufferPointer { all in
                    stroker.stroke(UnsafeBufferPointer(rebasing: all[start..<end]), closed: closed, style: style, into: &rasterizer)
                }
            }
            start = end
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
