import Foundation
import MapCore
import Raster

/// Fill layers: polygons of geometry sets (tiled layers drawn alike, with their blocks passed
/// over off screen) and of features, scan-converted with exact-area anti-aliasing, by their
/// pixel centres when aliased, or with a repeated pattern. Outlines are stroked by the line
/// layer's machinery (`lines`).
final class FillRenderLayer: RenderLayer {
    private let lines: LineRenderLayer
    private var centreFill = CentreFill()

    init(lines: LineRenderLayer) { self.lines = lines }

    /// Draws `draw`; `background`, an opaque colour not painted yet under it, is painted in the
    /// same pass by a geometry set's fill (else first, over the rows).
    func draw(_ draw: FillDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer, over background: PremultipliedColor?) {
        switch draw {
        case let .uniform(g, paint):
            guard paint.opacity > 0, paint.color.a > 0 else {
                if let background { t.pixmap.clear(background, rows: t.rows) }
                return
            }
            drawUniform(g, paint, p, t, &rasterizer, over: background)
        case let .features(features):
            if let background { t.pixmap.clear(background, rows: t.rows) }
            if p.turn == nil {
                drawFeatures(features, p, t, &rasterizer, AxisMap.self)
            } else {
                drawFeatures(features, p, t, &rasterizer, RotatedMap.self)
            }
        }
    }

    func draw(_ draw: FillDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        self.draw(draw, p, t, &rasterizer, over: nil)
    }

    private func drawUniform(_ g: GeometrySet, _ paint: FillPaint, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer,
                             over background: PremultipliedColor?) {
        guard let level = g.level(forZoom: p.zoom) else {
            if let background { t.pixmap.clear(background, rows: t.rows) }
            return
        }
        if p.turn == nil { addFillEdges(g, level, p, t, &rasterizer, AxisMap.self) } else { addFillEdges(g, level, p, t, &rasterizer, RotatedMap.self) }
        if let background {
            rasterizer.fill(t.pixmap, color: paint.color.premultiplied(opacity: paint.opacity), over: background, rule: .nonZero)
        } else {
            rasterizer.fill(t.pixmap, color: paint.color.premultiplied(opacity: paint.opacity), rule: .nonZero)
        }
    }

    /// The visible edges of a polygon layer's rings into the rasterizer, mapped by `M`.
    private func addFillEdges<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, _ t: RenderTarget,
                                           _ rasterizer: inout Rasterizer, _: M.Type) {
        let top = p.cull.minY, bottom = p.cull.maxY, right = p.cull.maxX, left = p.cull.minX
        let pitched = p.isProjected
        let sphere = p.sphere
        // On the globe, the points' places on the sphere, kept by the set.
        let units = sphere == nil ? [] : g.unitVectors()
        g.points.withUnsafeBufferPointer { pts in
            units.withUnsafeBufferPointer { unit in
                g.blockBoxes.withUnsafeBufferPointer { boxes in
                    p.forEachVisibleChunk(g, level, margin: 1, M.self) { chunk, map in
                        @inline(__always) func point(_ i: Int) -> Point { map.point(pts[2 * i], pts[2 * i + 1]) }
                        for part in chunk.parts {
                            let start = g.partOffsets[part], n = g.partLengths[part]
                            guard n >= 3 else { continue }
                            // On the globe a ring wholly behind it adds nothing (see `SphereProjection`).
                            if let sphere, Self.ringIsBehind(g, part, boxes, sphere) { continue }
                            // Block by block: the edges of a block wholly above, below or right of
                            // the rows drawn add nothing (the rasterizer would drop each); those of
                            // a block wholly left of them become edges along x = 0, whose sum is
                            // the one edge from the block's first point to its last. (Projection
                            // keeps the order of coordinates, so the projected box holds every
                            // projected point; at a bearing the box holds the rotated one's corners.)
                            // Pitched, the box is what the rows show of the flat screen, and a block
                            // wholly beyond any side of it becomes its chord: the projection moves
                            // points only along the flat screen's columns (onto the near and far
                            // planes' rows), so chain and chord stay beyond that side, around
                            // nothing shown.
                            var first = 0
                            // On the globe, where a stretch of blocks wholly north (-1) or south (+1)
                            // of the seen side began: the stretch becomes one chord, which lies
                            // there too (what the chain and the chord add along the horizon cancel).
                            var behindFrom: (point: Int, side: Int)? = nil
                            // Where a stretch of blocks behind the horizon began, and the Mercator box
                            // of all of it: while that box lies wholly behind, so does the chord
                            // joining the stretch's ends (the box holds it), and the chord stands for
                            // the stretch. (The far side is laid on the horizon's circle continuously
                            // but at the antipode, whose winding the rasterizer counts from the edges
                            // it is given: chain and chord add the same winding to every seen point.)
                            var farFrom: (point: Int, box: SIMD4<Double>)? = nil
                            for b in g.blockStart[part]..<g.blockStart[part + 1] {
                                let last = min(first + g.blockLength, n)
                                defer { first = last }
                                let (minX, minY, maxX, maxY) = map.box(boxes, b)
                                if let sphere {
                                    let box = SIMD4(boxes[4 * b], boxes[4 * b + 1], boxes[4 * b + 2], boxes[4 * b + 3])
                                    let side = sphere.sideOutsideCap(minY: box[1], maxY: box[3])
                                    if let from = behindFrom, from.side != side {
                                        rasterizer.addEdge(point(start + from.point), point(start + first))
                                        behindFrom = nil
                                    }
                                    if side != 0 {
                                        if let from = farFrom { rasterizer.addEdge(point(start + from.point), point(start + first)); farFrom = nil }
                                        if behindFrom == nil { behindFrom = (first, side) }
                                        continue
                                    }
                                    if let from = farFrom {
                                        let union = SIMD4(min(from.box[0], box[0]), min(from.box[1], box[1]), max(from.box[2], box[2]), max(from.box[3], box[3]))
                                        if sphere.isBehind(minX: union[0], minY: union[1], maxX: union[2], maxY: union[3]) {
                                            farFrom = (from.point, union)
                                            continue
                                        }
                                        rasterizer.addEdge(point(start + from.point), point(start + first))
                                        farFrom = nil
                                    }
                                    if sphere.isOutsideCap(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3])
                                        || sphere.isBehind(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3]) {
                                        farFrom = (first, box)
                                        continue
                                    }
                                }
                                if pitched {
                                    if maxY <= top || minY >= bottom || minX >= right || maxX <= left {
                                        rasterizer.addEdge(point(start + first), point(start + (last < n ? last : 0)))
                                        continue
                                    }
                                } else if maxY <= top || minY >= bottom || minX >= right { continue }
                                if maxX <= left {
                                    rasterizer.addEdge(point(start + first), point(start + (last < n ? last : 0)))
                                    continue
                                }
                                @inline(__always) func onSphere(_ i: Int) -> SIMD3<Double> { SIMD3(unit[3 * i], unit[3 * i + 1], unit[3 * i + 2]) }
                                var i0 = start + first, prev = point(i0)
                                for k in (first + 1)...last {
                                    let i1 = start + (k < n ? k : 0), cur = point(i1)
                                    if unit.isEmpty { rasterizer.addEdge(prev, cur) } else { rasterizer.addEdge(prev, cur, units: onSphere(i0), onSphere(i1)) }
                                    prev = cur; i0 = i1
                                }
                            }
                            if let from = behindFrom { rasterizer.addEdge(point(start + from.point), point(start)) }
                            if let from = farFrom { rasterizer.addEdge(point(start + from.point), point(start)) }
                        }
                    }
                }
            }
        }
    }

    /// Whether ring `part` of `g` lies wholly behind the globe (its blocks' boxes all do).
    private static func ringIsBehind(_ g: GeometrySet, _ part: Int, _ boxes: UnsafeBufferPointer<Double>, _ sphere: SphereProjection) -> Bool {
        for b in g.blockStart[part]..<g.blockStart[part + 1] {
            if !sphere.isBehind(minX: boxes[4 * b], minY: boxes[4 * b + 1], maxX: boxes[4 * b + 2], maxY: boxes[4 * b + 3]) { return false }
        }
        return true
    }

    /// Every ring of a polygon feature as edges in the rasterizer.
    private func addRings<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, _ rasterizer: inout Rasterizer) {
        let c = g.coordinates
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 3 else { continue }
            var prev = map.point(c[2 * (r.upperBound - 1)], c[2 * (r.upperBound - 1) + 1])
            for i in r {
                let cur = map.point(c[2 * i], c[2 * i + 1])
                rasterizer.addEdge(prev, cur)
                prev = cur
            }
        }
    }

    /// Whether two fill features' paints cover as one: opaque fills of one colour without
    /// outline. The union of their coverage is then composited once, which draws what painting
    /// them one after the other draws but for their shared edges, where no background shows
    /// through. (Lines never do: wide solid ones blend triangle by triangle as the reference's
    /// do, thin ones keep one composite each, since where they cross the reference's blending
    /// darkens the fringes and the render tests see it.)
    static func coverTogether(_ a: FeatureFillPaint, _ b: FeatureFillPaint) -> Bool {
        guard a.outline == nil, b.outline == nil, a.antialias, b.antialias else { return false }
        let p = a.fill, q = b.fill
        return p.pattern == nil && q.pattern == nil && p.opacity >= 1 && p.color.a >= 1 && p.color == q.color && q.opacity >= 1
    }

    private func drawFeatures<M: ScreenMap>(_ draw: FeatureDraw<FeatureFillPaint>, _ p: Placement, _ t: RenderTarget,
                                            _ rasterizer: inout Rasterizer, _: M.Type) {
        let items = draw.items
        // Coverage added and not yet composited, and the paint it is in.
        var pending: FeatureFillPaint? = nil
        let ahead = M(p, copy: 0, translate: draw.translate)
        let unpitch = p.ground?.homography.inverted()
        let sphere = p.sphere
        for (k, item) in items.enumerated() {
            if k + featurePrefetchDistance < items.count {
                t.pixmap.prefetch(items[k + featurePrefetchDistance].geometry, ahead, reach: 2, rows: t.rows)
            }
            // Features that cover together (`coverTogether`) add their coverage; the last of
            // them composites it all.
            let together = Self.coverTogether(item.paint, item.paint)
            defer {
                if let q = pending, !(k + 1 < items.count && Self.coverTogether(q, items[k + 1].paint)) {
                    rasterizer.fill(t.pixmap, color: q.fill.color.premultiplied(opacity: q.fill.opacity), rule: .nonZero)
                    pending = nil
                }
            }
            let g = item.geometry
            guard !g.isEmpty else { continue }
            // (On the globe a feature wholly behind it draws nothing.)
            if let sphere, sphere.isBehind(minX: g.minX, minY: g.minY, maxX: g.maxX, maxY: g.maxY, margin: 0.01) { continue }
            let paint = item.paint.fill, outline = item.paint.outline, antialias = item.paint.antialias
            guard paint.opacity > 0 else { continue }
            p.forEachCopy(g, margin: 2, draw.translate) { (map: M) in
                if let pattern = paint.pattern {
                    // (The pattern's grid is the world's, so it runs on across world copies.)
                    let world = M(p, copy: 0, translate: draw.translate).transform
                    guard let inverse = world.inverted() else { return }
                    let toImage = Transform.scale(pattern.pixelsPerWorld, pattern.pixelsPerWorld).concatenating(inverse)
                    addRings(g, map, &rasterizer)
                    rasterizer.fill(t.pixmap, with: PatternBlitter(destination: t.pixmap, image: pattern.image, toImage: toImage,
                                                                    opacity: paint.opacity, unpitch: unpitch), aliased: !antialias)
                    return
                }
                let color = paint.color.premultiplied(opacity: paint.opacity)
                guard antialias || p.isProjected else {
                    // Aliased: the pixels whose centres the polygon holds, as a GPU fills it.
                    lines.collectParts(g, map, closeRings: true)
                    lines.runPoints.withUnsafeBufferPointer { centreFill.fill($0, ends: lines.runEnds, color: color, onto: t.pixmap, rows: t.rows) }
                    return
                }
                // A polygon within one pixel (a building at zoom 7): its coverage directly,
                // its projected rings kept for the outline.
                let box = map.box(g.minX, g.minY, g.maxX, g.maxY)
                let tiny = !together && !p.isProjected && box.2 - box.0 < 1 && box.3 - box.1 < 1
                var ringsCollected = false
                if tiny {
                    lines.collectParts(g, map, closeRings: true)
                    ringsCollected = g.outline == nil
                }
                if tiny, let one = lines.runPoints.withUnsafeBufferPointer({
                    Rasterizer.onePixelCoverage($0, ends: lines.runEnds, width: t.pixmap.width, height: t.rows.count, originY: t.rows.lowerBound)
                }) {
                    if one.alpha > 0 {
                        var blitter = SolidBlitter(pixmap: t.pixmap, color: color)
                        blitter.blitPixel(x: one.x, y: one.y, alpha: one.alpha)
                    }
                } else {
                    addRings(g, map, &rasterizer)
                    if together { pending = item.paint; return }
                    if antialias {
                        rasterizer.fill(t.pixmap, color: color, rule: .nonZero)
                    } else {
                        rasterizer.fill(t.pixmap, with: SolidBlitter(pixmap: t.pixmap, color: color), aliased: true)
                    }
                }
                // The outline: a 1-px line along the polygon's edges, over the fill. (The
                // reference draws it as a GPU hairline, not as a line layer, and area
                // coverage comes closer to that than the line shader's distance ramp.)
                if let outline {
                    // (Rings cut out of tiles: without the cuts along the tiles' sides.)
                    if let o = g.outline { lines.collectParts(o, map, closeRings: false) } else { lines.collectParts(g, map, closeRings: true) }
                    var line = LinePaint(color: outline, width: 1, opacity: paint.opacity)
                    line.emissiveStrength = 1
                    lines.paintRuns(line, t, &rasterizer, exactArea: true)
                } else if paint.opacity < 1 || paint.color.a < 1 {
                    // A translucent fill's own outline (the reference draws it, in the fill's
                    // colour, as 2-pixel GPU lines over the fill; under an opaque fill it only
                    // shows outside, where the area coverage already anti-aliases the edge).
                    // Its segments cover the columns or rows whose centres they cross: none
                    // when the polygon's box holds no pixel centre's column or row.
                    if p.isProjected { return }    // (not drawn in perspective or on the globe yet)
                    if (box.0 - 0.5).rounded(.down) == (box.2 - 0.5).rounded(.down)
                        && (box.1 - 0.5).rounded(.down) == (box.3 - 0.5).rounded(.down) { return }
                    if let o = g.outline {
                        lines.collectParts(o, map, closeRings: false)
                    } else if !ringsCollected {
                        lines.collectParts(g, map, closeRings: true)
                    }
                    lines.runPoints.withUnsafeBufferPointer {
                        SmoothHairline.draw($0, ends: lines.runEnds, closed: lines.runClosed, color: color, onto: t.pixmap, rows: t.rows)
                    }
                }
            }
        }
    }
}
