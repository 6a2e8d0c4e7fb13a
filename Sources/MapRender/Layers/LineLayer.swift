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
    /// On the globe, each run point's place on the sphere when `collectRuns` took it from a
    /// geometry set (`GeometrySet.unitVectors`, three values a point); empty otherwise.
    var runUnits: [Double] = []
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
    var gradientScratch = LineGradientScratch()
    /// The view is pitched: runs are collected on the flat screen, and either meshed and their
    /// vertices projected (`meshes`) or stroked and projected by the rasterizer (the other
    /// screen-space shortcuts, thin lines by distance and per-tile dashes, wait).
    private var projected = false
    /// On the globe: the surface the runs are drawn on (their width is laid on the sphere), and
    /// the cosine of the centre's latitude.
    var sphere: SphereProjection? = nil
    var centreCos = 1.0

    init() {
        runPoints.reserveCapacity(1 << 16)
        runEnds.reserveCapacity(4096)
    }


    func draw(_ draw: LineDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        projected = p.isProjected
        sphere = p.sphere
        if let s = p.sphere { centreCos = s.cosLatitude(atFlat: Point(Double(t.pixmap.width) / 2, Double(p.viewHeight) / 2)) }
        switch draw {
        case let .uniform(g, paint):
            guard paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { return }
            drawUniform(g, paint, p, t, &rasterizer)
        case let .features(features):
            if p.turn == nil { drawFeatures(features, p, t, &rasterizer, AxisMap.self) } else { drawFeatures(features, p, t, &rasterizer, RotatedMap.self) }
        }
    }

    private func drawFeatures<M: ScreenMap>(_ draw: FeatureDraw<LinePaint>, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer, _: M.Type) {
        let items = draw.items, ahead = M(p, copy: 0, translate: draw.translate)
        for (k, item) in items.enumerated() {
            if k + featurePrefetchDistance < items.count { prefetch(items[k + featurePrefetchDistance].geometry, ahead, t) }
            let paint = item.paint
            guard !item.geometry.isEmpty, paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { continue }
            // Polygons cut out of tiles are stroked along their outline, not along the cuts.
            let g = item.geometry.outline ?? item.geometry
            let reach = paint.gapWidth / 2 + paint.width + abs(paint.offset)
            let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
            p.forEachCopy(g, margin: margin, draw.translate) { (map: M) in
                if let gradient = paint.gradient { return drawGradient(g, paint, gradient, map, tileZoom: draw.tileZoom, p, t) }
                // (Tiles are cut north up; at a bearing a dash pattern runs along the whole line.)
                if let tileZoom = draw.tileZoom, !paint.dasharray.isEmpty, !projected, let a = map.axis {
                    drawTiledLine(g, paint, tileZoom: tileZoom, margin: margin, a.sx, a.ox, a.sy, a.oy, t, &rasterizer)
                } else {
                    collectParts(g, map, closeRings: g.kind == .polygons)
                    if meshes(paint, p, reach: margin) { meshRuns(paint, t, tileZoom: draw.tileZoom, p) } else { paintProjectedRuns(paint, t, &rasterizer) }
                }
            }
        }
    }

    /// Hints the pixels and the thin-line mask around feature `g`'s ends (see `FeaturePrefetch`).
    @inline(__always)
    private func prefetch<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, _ t: RenderTarget) {
        t.pixmap.prefetch(g, map, reach: 2, rows: t.rows)
        guard thin.width == t.pixmap.width, let (a, _) = map.ends(g) else { return }
        thin.prefetch(x: a.x, y: a.y, reach: 2)
    }

    private func drawUniform(_ g: GeometrySet, _ paint: LinePaint, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard let level = g.level(forZoom: p.zoom) else { return }
        let reach = paint.gapWidth / 2 + paint.width + abs(paint.offset)
        let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
        collectRuns(g, level, p, margin: margin, t, dashed: !paint.dasharray.isEmpty)
        if meshes(paint, p, reach: margin) { meshRuns(paint, t, tileZoom: nil, p) } else { paintProjectedRuns(paint, t, &rasterizer) }
    }

    /// Whether the runs collected for `paint` are drawn as the engines' triangles: on the flat
    /// map, solid lines but the thin ones (`isMeshed`); on the ground in perspective, every solid
    /// line, its runs first cut to the depths from `reach` flat pixels beyond the near plane to
    /// the far plane (the triangles' corners are projected one by one, as a GPU projects
    /// vertices: none may lie behind the eye). Others are stroked flat and projected edge by
    /// edge by the rasterizer.
    private func meshes(_ paint: LinePaint, _ p: Placement, reach: Double) -> Bool {
        if p.isGlobe { return false }
        guard let ground = p.ground else { return Self.isMeshed(paint) }
        guard paint.dasharray.isEmpty else { return false }
        let spare = (ground.m.6 * ground.m.6 + ground.m.7 * ground.m.7).squareRoot() * reach
        cutRuns(depth: ground, from: ground.near + spare, to: ground.far)
        return true
    }

    /// Strokes the collected runs: in perspective by the area rasterizer, projected edge by
    /// edge; on the globe, lines up to two pixels wide are first laid on the screen (projected
    /// point by point, subdivided on the globe's grid) and covered by distance as on the flat
    /// map (so thin, a line's narrowing towards the globe's edge is less than a pixel), wider
    /// ones stroked on the flat map and projected by the rasterizer.
    private func paintProjectedRuns(_ paint: LinePaint, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if let sphere {
            if Self.isThin(paint) {
                projectRunsOntoScreen(sphere)
                paintRuns(paint, t, &rasterizer)
                return
            }
            cutRunsBehind(sphere)
        }
        paintRuns(paint, t, &rasterizer, exactArea: projected)
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
        lineMesh.draw(shading, onto: t.pixmap, rows: t.rows, ground: p.ground, scratch: &meshPositions)
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

    /// On the globe, how much wider on the flat screen a line is stroked at flat point `p` to be
    /// as wide on the sphere as at the centre (`GlobeLineSurface.widthScale`).
    private func widthOnSphere(_ s: SphereProjection, _ p: Point) -> Double {
        GlobeLineSurface(sphere: s, centreCos: centreCos).widthScale(p)
    }

    /// Strokes every collected run into the rasterizer; with a gap width, two lines offset to
    /// either side of the gap instead of one; with an offset, moved to the right of the run's
    /// direction by it (both: the two lines either side of the moved centre).
    private func strokeRuns(_ paint: LinePaint, _ base: StrokeStyle, _ rasterizer: inout Rasterizer) {
        var start = 0
        var style = base
        for (r, end) in runEnds.enumerated() {
            if !base.dashes.isEmpty { style.dashOffset = base.dashOffset + runOffsets[r] }
            if let sphere, end > start { style.width = base.width * widthOnSphere(sphere, runPoints[(start + end) / 2]) }
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
