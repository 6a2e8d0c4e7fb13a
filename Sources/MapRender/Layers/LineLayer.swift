import Foundation
import MapCore
import Raster

/// Line layers: runs of segments collected in view, stroked with caps, joins, dashes, gap width and
/// blur; GeoJSON lines with dashes laid out per tile as the reference engines cut them. Owns the
/// runs it collects and the strokers that cover them (fills borrow both for their outlines).
final class LineRenderLayer: RenderLayer {
    /// The runs collected for the line being drawn: points, where each run ends, how far along
    /// its line each starts (dashes go on from there).
    var runPoints: [Point] = []
    var runEnds: [Int] = []
    var runOffsets: [Double] = []
    /// Runs that are closed rings (joined at their first vertex, no caps); empty: none are.
    var runClosed: [Bool] = []
    /// Runs that go on with the line of the run before (cut from it off screen or at a tile's
    /// edge), composited with it as one line; empty: none do.
    var runContinues: [Bool] = []
    private var stroker = Stroker()
    private var offsetScratch: [Point] = []
    private var offsetEnds: [Int] = []
    private var strokeStyles: [(paint: LinePaint, style: StrokeStyle)] = []
    private let mask = CoverageMask(width: 1, height: 1)
    /// Coverage of lines at most two pixels wide (see `ThinStroke`).
    private var thin = ThinStroke()
    /// Style lines as the reference engines' triangles (see `LineMesh`), and their screen positions.
    private var lineMesh = LineMesh()
    private var meshPositions: [Double] = []

    init() {
        runPoints.reserveCapacity(1 << 16)
        runEnds.reserveCapacity(4096)
    }


    func draw(_ draw: LineDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        switch draw {
        case let .uniform(g, paint):
            guard paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { return }
            drawUniform(g, paint, p, t, &rasterizer)
        case let .features(features):
            if p.turn == nil { drawFeatures(features, p, t, &rasterizer, AxisMap.self) } else { drawFeatures(features, p, t, &rasterizer, RotatedMap.self) }
        }
    }

    private func drawFeatures<M: ScreenMap>(_ draw: FeatureDraw<LinePaint>, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer, _: M.Type) {
        for item in draw.items {
            let paint = item.paint
            guard !item.geometry.isEmpty, paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { continue }
            // Polygons cut out of tiles are stroked along their outline, not along the cuts.
            let g = item.geometry.outline ?? item.geometry
            let reach = paint.gapWidth / 2 + paint.width + abs(paint.offset)
            let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
            p.forEachCopy(g, margin: margin, draw.translate) { (map: M) in
                // (Tiles are cut north up; at a bearing a dash pattern runs along the whole line.)
                if let tileZoom = draw.tileZoom, !paint.dasharray.isEmpty, let a = map.axis {
                    drawTiledLine(g, paint, tileZoom: tileZoom, margin: margin, a.sx, a.ox, a.sy, a.oy, t, &rasterizer)
                } else {
                    collectParts(g, map, closeRings: g.kind == .polygons)
                    if Self.isMeshed(paint) { meshRuns(paint, t, tileZoom: draw.tileZoom, p) } else { paintRuns(paint, t, &rasterizer) }
                }
            }
        }
    }

    private func drawUniform(_ g: GeometrySet, _ paint: LinePaint, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard let level = g.level(forZoom: p.zoom) else { return }
        let reach = paint.gapWidth / 2 + paint.width + abs(paint.offset)
        let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
        collectRuns(g, level, p, margin: margin, t, dashed: !paint.dasharray.isEmpty)
        if Self.isMeshed(paint) { meshRuns(paint, t, tileZoom: nil, p) } else { paintRuns(paint, t, &rasterizer) }
    }

    /// Whether `paint`'s lines are covered by distance (`ThinStroke`), not by the area rasterizer.
    @inline(__always) static func isThin(_ paint: LinePaint) -> Bool {
        paint.blur <= 0 && paint.gapWidth <= 0 && paint.offset == 0 && paint.width <= ThinStroke.maxWidth
    }

    /// Whether `paint`'s lines are drawn as the reference engines' triangles (`meshRuns`): solid
    /// lines but the thin ones, whose distance coverage (`ThinStroke`) is the same shader ramp
    /// at a fraction of the cost for the many short segments of a basemap.
    @inline(__always) static func isMeshed(_ paint: LinePaint) -> Bool {
        paint.dasharray.isEmpty && !isThin(paint)
    }

    /// Strokes the collected runs with `paint` and composites them. Lines up to two pixels wide
    /// are covered by distance (`ThinStroke`) unless `exactArea` asks for the area rasterizer.
    func paintRuns(_ paint: LinePaint, _ t: RenderTarget, _ rasterizer: inout Rasterizer, clip: PixelRect? = nil, exactArea: Bool = false) {
        guard !runEnds.isEmpty else { return }
        let color = paint.color.premultiplied(opacity: paint.opacity)
        let base = strokeStyle(paint)
        if !exactArea && Self.isThin(paint) {
            // Thin lines: coverage by distance, each pixel painted once per line (where lines
            // cross, each blends over the other, as in the reference engines).
            if thin.width != t.pixmap.width || thin.originY != t.rows.lowerBound || thin.height != t.rows.count {
                thin.reset(width: t.pixmap.width, height: t.rows.count, originY: t.rows.lowerBound)
            }
            var start = 0
            var style = base
            runPoints.withUnsafeBufferPointer { all in
                for (r, end) in runEnds.enumerated() {
                    if r > 0 && !(r < runContinues.count && runContinues[r]) { thin.composite(color, onto: t.pixmap, clip: clip) }
                    if !base.dashes.isEmpty { style.dashOffset = base.dashOffset + runOffsets[r] }
                    let closed = r < runClosed.count && runClosed[r]
                    thin.stroke(UnsafeBufferPointer(rebasing: all[start..<end]), closed: closed, style: style)
                    start = end
                }
            }
            thin.composite(color, onto: t.pixmap, clip: clip)
            return
        }
        if paint.blur <= 0 {
            strokeRuns(paint, base, &rasterizer)
            if let clip {
                var b = ClipBlitter(SolidBlitter(pixmap: t.pixmap, color: color), clip: clip)
                rasterizer.sweep(.nonZero, &b)
            } else {
                rasterizer.fill(t.pixmap, color: color, rule: .nonZero)
            }
            return
        }
        // Blur: as in MapLibre's line shader, the edge fades over blur + 1 px, centred blur / 2
        // inside the line's edge. Drawn as a stack of concentric strokes, half-widths spread evenly
        // over `blur`, each anti-aliased over 1 px, whose coverages add up in a mask composited once.
        let layers = min(32, max(2, Int((paint.blur * 2).rounded(.up))))
        mask.reset(width: t.pixmap.width, height: t.pixmap.height)   // (only this band's rows get touched)
        for k in 0..<layers {
            var style = base
            style.width = paint.width - 2 * paint.blur * (Double(k) + 0.5) / Double(layers)
            guard style.width > 0 else { continue }
            strokeRuns(paint, style, &rasterizer)
            mask.accumulate(&rasterizer, weight: UInt32(256 / layers))
        }
        mask.composite(color, onto: t.pixmap, clip: clip)
    }

    /// Draws the collected runs as the reference engines do: cut into their triangles
    /// (`LineMesh`) and shaded one triangle after another (`LineShading`).
    private func meshRuns(_ paint: LinePaint, _ t: RenderTarget, tileZoom: Int?, _ p: Placement) {
        guard !runEnds.isEmpty else { return }
        lineMesh.removeAll()
        // Sharp corners get vertices 15 px (at the zoom of the 512-px tile) either side.
        let tz = Double(tileZoom ?? Int(max(p.zoom, 0).rounded(.down)))
        let sharp = 15 * p.world / (512 * exp2(tz))
        var start = 0
        runPoints.withUnsafeBufferPointer { all in
            for (r, end) in runEnds.enumerated() {
                let closed = r < runClosed.count && runClosed[r]
                lineMesh.add(UnsafeBufferPointer(rebasing: all[start..<end]), closed: closed, cap: paint.cap,
                             join: paint.join, miterLimit: paint.miterLimit, sharpCornerOffset: sharp)
                start = end
            }
        }
        let shading = LineShading(width: paint.width, gapWidth: paint.gapWidth, blur: paint.blur, offset: paint.offset,
                                  color: paint.color.premultiplied(opacity: paint.opacity))
        lineMesh.draw(shading, onto: t.pixmap, rows: t.rows, scratch: &meshPositions)
    }

    /// The stroke of a line paint, remembered for the last few paints (a dashed style's scaled
    /// dash array would otherwise be made anew every frame).
    private func strokeStyle(_ paint: LinePaint) -> StrokeStyle {
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
    private func collectRuns(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, _ t: RenderTarget,
                             dashed: Bool) {
        if p.turn == nil {
            collectRuns(g, level, p, margin: margin, t, dashed: dashed, AxisMap.self)
        } else {
            collectRuns(g, level, p, margin: margin, t, dashed: dashed, RotatedMap.self)
        }
    }

    private func collectRuns<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, _ t: RenderTarget,
                                           dashed: Bool, _: M.Type) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
        runContinues.removeAll(keepingCapacity: true)
        let minXView = -margin, minYView = Double(t.rows.lowerBound) - margin
        let maxXView = Double(t.width) + margin, maxYView = Double(t.rows.upperBound) + margin
        @inline(__always) func outcode(_ q: Point) -> UInt8 {
            (q.x < minXView ? 1 : 0) | (q.x > maxXView ? 2 : 0) | (q.y < minYView ? 4 : 0) | (q.y > maxYView ? 8 : 0)
        }
        var runStart = 0
        // Distance along the part where the current run starts: dashes continue across culled
        // stretches, so cutting a line (off screen, or at a band edge) never shifts its pattern.
        var along = 0.0, runAlong = 0.0
        var partRuns = 0                    // the runs before the current part's
        @inline(__always) func endRun() {
            if runPoints.count - runStart >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(runAlong); runContinues.append(runEnds.count - 1 > partRuns)
            } else {
                runPoints.removeLast(runPoints.count - runStart)
            }
            runStart = runPoints.count
        }
        g.points.withUnsafeBufferPointer { pts in
            g.blockBoxes.withUnsafeBufferPointer { boxes in
                p.forEachVisibleChunk(g, level, margin: margin, M.self) { chunk, map in
                    @inline(__always) func point(_ i: Int) -> Point { map.point(pts[2 * i], pts[2 * i + 1]) }
                    for part in chunk.parts {
                        let start = g.partOffsets[part], n = g.partLengths[part]
                        guard n >= 2 else { continue }
                        var prev = point(start)
                        var prevCode = outcode(prev)
                        along = 0
                        partRuns = runEnds.count
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
    /// either side of the gap instead of one; with an offset, moved to the right of the run's
    /// direction by it (both: the two lines either side of the moved centre).
    private func strokeRuns(_ paint: LinePaint, _ base: StrokeStyle, _ rasterizer: inout Rasterizer) {
        var start = 0
        var style = base
        for (r, end) in runEnds.enumerated() {
            if !base.dashes.isEmpty { style.dashOffset = base.dashOffset + runOffsets[r] }
            let closed = r < runClosed.count && runClosed[r]
            if paint.gapWidth > 0 || paint.offset != 0 {
                let d = paint.gapWidth > 0 ? paint.gapWidth / 2 + paint.width / 2 : 0
                let run = Array(runPoints[start..<end])
                for side in d > 0 ? [paint.offset + d, paint.offset - d] : [paint.offset] {
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

    /// Every part of a feature as a run for the stroker (rings as closed runs, so their first
    /// vertex is joined like the others).
    func collectParts<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, closeRings: Bool) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
        runContinues.removeAll(keepingCapacity: true)
        let c = g.coordinates
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            let start = runPoints.count
            for i in r {
                let q = map.point(c[2 * i], c[2 * i + 1])
                if runPoints.count > start, runPoints[runPoints.count - 1] == q { continue }
                runPoints.append(q)
            }
            var closed = false
            if closeRings && runPoints.count - start >= 3 {
                if runPoints[start] == runPoints[runPoints.count - 1] { runPoints.removeLast() }
                closed = runPoints.count - start >= 3
            }
            if runPoints.count - start >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(0); runClosed.append(closed)
            } else {
                runPoints.removeLast(runPoints.count - start)
            }
        }
    }

    /// A dashed line as the reference engines draw it from tiles: in each tile at `tileZoom` the
    /// line is cut to the tile grown by its buffer (128/512 of a side), each piece's dash pattern
    /// starts where the piece does, and only the tile's own pixels are drawn.
    ///
    /// Each piece is stroked only where it comes within `margin` of the rows drawn (its dash
    /// pattern carried across the rest), so a tile far larger than the view (zoom 24) or a
    /// pattern of fine dashes costs what the view shows, not what the tile holds.
    private func drawTiledLine(_ g: FeatureGeometry, _ paint: LinePaint, tileZoom: Int, margin: Double,
                               _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        let tile = sx / exp2(Double(tileZoom)), buffer = tile / 4
        // The tiles whose own area shows pixels of the stroke: they meet both the viewport's rows
        // being drawn and the line's box grown by its reach (a few at most: a tile is at least
        // 512 px wide).
        let minX = max(g.minX * sx + ox - margin, 0), maxX = min(g.maxX * sx + ox + margin, Double(t.pixmap.width))
        let minY = max(g.minY * sy + oy - margin, Double(t.rows.lowerBound))
        let maxY = min(g.maxY * sy + oy + margin, Double(t.rows.upperBound))
        guard minX <= maxX, minY <= maxY, tile >= 1 else { return }
        let tx0 = Int(((minX - ox) / tile).rounded(.down)), tx1 = Int(((maxX - ox) / tile).rounded(.down))
        let ty0 = Int(((minY - oy) / tile).rounded(.down)), ty1 = Int(((maxY - oy) / tile).rounded(.down))
        let view = (-margin, Double(t.rows.lowerBound) - margin, Double(t.pixmap.width) + margin, Double(t.rows.upperBound) + margin)
        for ty in ty0...ty1 {
            for tx in tx0...tx1 {
                let x0 = ox + Double(tx) * tile, y0 = oy + Double(ty) * tile
                collectClippedParts(g, sx, ox, sy, oy, box: (x0 - buffer, y0 - buffer, x0 + tile + buffer, y0 + tile + buffer), view: view)
                paintRuns(paint, t, &rasterizer, clip: PixelRect(centresIn: x0, y0, x0 + tile, y0 + tile))
            }
        }
    }

    /// The part t0...t1 of a -> a + d (within `t0...t1` given) inside `box` (Liang-Barsky), or nil.
    @inline(__always)
    private func clipSegment(_ a: Point, _ d: Point, _ box: (Double, Double, Double, Double),
                             _ t0: Double, _ t1: Double) -> (Double, Double)? {
        var t0 = t0, t1 = t1
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            return t0 <= t1
        }
        guard edge(-d.x, a.x - box.0), edge(d.x, box.2 - a.x), edge(-d.y, a.y - box.1), edge(d.y, box.3 - a.y) else { return nil }
        return (t0, t1)
    }

    /// Every part of a feature cut to `box` (Liang-Barsky per segment): a new piece starts
    /// wherever the line enters the box, so its dash pattern starts there. Of each piece only
    /// what lies in `view` is collected, as runs whose offsets carry the pattern on from where
    /// the piece starts.
    private func collectClippedParts(_ g: FeatureGeometry, _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double,
                                     box: (Double, Double, Double, Double), view: (Double, Double, Double, Double)) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
        runContinues.removeAll(keepingCapacity: true)
        let c = g.coordinates
        var start = 0
        var runAlong = 0.0
        var partRuns = 0                    // the runs before the current part's
        func endRun() {
            if runPoints.count - start >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(runAlong); runContinues.append(runEnds.count - 1 > partRuns)
            } else {
                runPoints.removeLast(runPoints.count - start)
            }
            start = runPoints.count
        }
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            endRun()
            partRuns = runEnds.count
            var inPiece = false
            var along = 0.0                 // from the piece's start to where this segment enters the box
            var a = Point(c[2 * r.lowerBound] * sx + ox, c[2 * r.lowerBound + 1] * sy + oy)
            for i in (r.lowerBound + 1)..<r.upperBound {
                let b = Point(c[2 * i] * sx + ox, c[2 * i + 1] * sy + oy)
                defer { a = b }
                let d = b - a
                guard let (t0, t1) = clipSegment(a, d, box, 0, 1) else { endRun(); inPiece = false; continue }
                if t0 > 0 || !inPiece { endRun(); inPiece = true; along = 0 }
                let length = d.length
                if let (s0, s1) = clipSegment(a, d, view, t0, t1) {
                    let q0 = Point(a.x + d.x * s0, a.y + d.y * s0), q1 = Point(a.x + d.x * s1, a.y + d.y * s1)
                    if s0 > t0 || runPoints.count == start {
                        endRun()
                        runPoints.append(q0)
                        runAlong = along + length * (s0 - t0)
                    }
                    if q1 != runPoints[runPoints.count - 1] { runPoints.append(q1) }
                    if s1 < t1 { endRun() }
                } else {
                    endRun()
                }
                along += length * (t1 - t0)
                if t1 < 1 { endRun(); inPiece = false }
            }
            endRun()
        }
    }
}

extension StrokeStyle {
    /// The raster stroke for a line paint (dash lengths are in line widths in the style spec).
    init(_ paint: LinePaint) {
        let w = paint.width
        self.init(width: w,
                  cap: paint.cap,
                  join: paint.join,
                  miterLimit: paint.miterLimit,
                  dashes: paint.dasharray.map { $0 * max(w, 1) })
    }
}
