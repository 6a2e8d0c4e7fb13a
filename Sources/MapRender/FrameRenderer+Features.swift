import Foundation
import MapCore
import Raster

/// Layers drawn feature by feature: each feature with its own evaluated paint, drawn one after
/// another (overlapping features of a layer blend over each other, as the reference engines draw them).
extension FrameRenderer {
    func drawFills(_ draw: FeatureDraw<FeatureFillPaint>, _ p: Placement, _ pixmap: Pixmap) {
        if p.turn == nil { drawFills(draw, p, pixmap, AxisMap.self) } else { drawFills(draw, p, pixmap, RotatedMap.self) }
    }

    func drawLines(_ draw: FeatureDraw<LinePaint>, _ p: Placement, _ pixmap: Pixmap) {
        if p.turn == nil { drawLines(draw, p, pixmap, AxisMap.self) } else { drawLines(draw, p, pixmap, RotatedMap.self) }
    }

    func drawCircles(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ pixmap: Pixmap) {
        if p.turn == nil { drawCircles(draw, p, pixmap, AxisMap.self) } else { drawCircles(draw, p, pixmap, RotatedMap.self) }
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

    private func drawFills<M: ScreenMap>(_ draw: FeatureDraw<FeatureFillPaint>, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        let items = draw.items
        // Coverage added and not yet composited, and the paint it is in.
        var pending: FeatureFillPaint? = nil
        for (k, item) in items.enumerated() {
            // Features that cover together (`coverTogether`) add their coverage; the last of
            // them composites it all.
            let together = Self.coverTogether(item.paint, item.paint)
            defer {
                if let q = pending, !(k + 1 < items.count && Self.coverTogether(q, items[k + 1].paint)) {
                    rasterizer.fill(pixmap, color: q.fill.color.premultiplied(opacity: q.fill.opacity), rule: .nonZero)
                    pending = nil
                }
            }
            let g = item.geometry
            guard !g.isEmpty else { continue }
            let paint = item.paint.fill, outline = item.paint.outline, antialias = item.paint.antialias
            guard paint.opacity > 0 else { continue }
            forEachCopy(g, p, margin: 2, draw.translate) { (map: M) in
                if let pattern = paint.pattern {
                    // (The pattern's grid is the world's, so it runs on across world copies.)
                    let world = M(p, copy: 0, translate: draw.translate).transform
                    guard let inverse = world.inverted() else { return }
                    let toImage = Transform.scale(pattern.pixelsPerWorld, pattern.pixelsPerWorld).concatenating(inverse)
                    addRings(g, map)
                    rasterizer.fill(pixmap, pattern: PatternBlitter(destination: pixmap, image: pattern.image, toImage: toImage,
                                                                    opacity: paint.opacity), aliased: !antialias)
                    return
                }
                let color = paint.color.premultiplied(opacity: paint.opacity)
                guard antialias else {
                    // Aliased: the pixels whose centres the polygon holds, as a GPU fills it.
                    collectParts(g, map, closeRings: true)
                    runPoints.withUnsafeBufferPointer { centreFill.fill($0, ends: runEnds, color: color, onto: pixmap, rows: rows) }
                    return
                }
                addRings(g, map)
                if together { pending = item.paint; return }
                rasterizer.fill(pixmap, color: color, rule: .nonZero)
                // The outline: a 1-px line along the polygon's edges, over the fill. (The
                // reference draws it as a GPU hairline, not as a line layer, and area
                // coverage comes closer to that than the line shader's distance ramp.)
                if let outline {
                    // (Rings cut out of tiles: without the cuts along the tiles' sides.)
                    if let o = g.outline { collectParts(o, map, closeRings: false) } else { collectParts(g, map, closeRings: true) }
                    var line = LinePaint(color: outline, width: 1, opacity: paint.opacity)
                    line.emissiveStrength = 1
                    paintRuns(line, pixmap, exactArea: true)
                } else if paint.opacity < 1 || paint.color.a < 1 {
                    // A translucent fill's own outline (the reference draws it, in the fill's
                    // colour, as 2-pixel GPU lines over the fill; under an opaque fill it only
                    // shows outside, where the area coverage already anti-aliases the edge).
                    if let o = g.outline { collectParts(o, map, closeRings: false) } else { collectParts(g, map, closeRings: true) }
                    runPoints.withUnsafeBufferPointer {
                        SmoothHairline.draw($0, ends: runEnds, closed: runClosed, color: color, onto: pixmap, rows: rows)
                    }
                }
            }
        }
    }

    private func drawLines<M: ScreenMap>(_ draw: FeatureDraw<LinePaint>, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        for item in draw.items {
            let paint = item.paint
            guard !item.geometry.isEmpty, paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { continue }
            // Polygons cut out of tiles are stroked along their outline, not along the cuts.
            let g = item.geometry.outline ?? item.geometry
            let reach = paint.gapWidth / 2 + paint.width + abs(paint.offset)
            let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
            forEachCopy(g, p, margin: margin, draw.translate) { (map: M) in
                // (Tiles are cut north up; at a bearing a dash pattern runs along the whole line.)
                if let tileZoom = draw.tileZoom, !paint.dasharray.isEmpty, let a = map.axis {
                    drawTiledLine(g, paint, tileZoom: tileZoom, margin: margin, a.sx, a.ox, a.sy, a.oy, pixmap)
                } else {
                    collectParts(g, map, closeRings: g.kind == .polygons)
                    if Self.isMeshed(paint) { meshRuns(paint, pixmap, tileZoom: draw.tileZoom, p) } else { paintRuns(paint, pixmap) }
                }
            }
        }
    }

    private func drawCircles<M: ScreenMap>(_ draw: FeatureDraw<CirclePaint>, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        for item in draw.items {
            let g = item.geometry, paint = item.paint
            guard !g.isEmpty else { continue }
            let reach = paint.radius + paint.strokeWidth + 1
            forEachCopy(g, p, margin: reach, draw.translate) { (map: M) in
                for i in 0..<(g.coordinates.count / 2) {
                    drawCircle(paint, at: map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1]), pixmap)
                }
            }
        }
    }

    /// Calls `body` with the mapping of normalised Mercator to screen for each world copy the
    /// geometry shows in (grown by `margin` pixels), shifted by the layer's translation.
    ///
    /// A margin counts for at most 4 world widths (sizes are bounded, but a miter limit still
    /// multiplies a stroke's margin; the reference engines draw only the copies whose tiles
    /// show), and only copies within 2 worlds of that reach are drawn: geometry within
    /// longitudes -540...540 is drawn in every copy it shows in, geometry far outside the world
    /// (longitudes of 1e300) in none or a few, never in millions.
    private func forEachCopy<M: ScreenMap>(_ g: FeatureGeometry, _ p: Placement, margin: Double, _ t: (x: Double, y: Double),
                                           _ body: (M) -> Void) {
        var m = (margin + abs(t.x) + abs(t.y)) / p.world
        if !(m <= 4) { m = 4 }                  // (NaN too)
        guard g.maxY + m >= p.visible.minY, g.minY - m <= p.visible.maxY else { return }
        let first = max((p.visible.minX - m - g.maxX).rounded(.up), (p.visible.minX - m).rounded(.down) - 2)
        let last = min((p.visible.maxX + m - g.minX).rounded(.down), (p.visible.maxX + m).rounded(.up) + 2)
        guard first <= last, first > -1e9, last < 1e9 else { return }
        for copy in Int(first)...Int(last) {
            body(M(p, copy: Double(copy), translate: t))
        }
    }

    /// The pixels [floor(lo), ceil(hi)] within `range`, or nil when none (or lo, hi are NaN):
    /// screen bounds may be huge or infinite, and only clamped values become integers.
    func pixelSpan(_ lo: Double, _ hi: Double, in range: Range<Int>) -> ClosedRange<Int>? {
        guard lo <= hi, !range.isEmpty else { return nil }
        let a = max(lo.rounded(.down), Double(range.lowerBound)), b = min(hi.rounded(.up), Double(range.upperBound - 1))
        guard a <= b else { return nil }
        return Int(a)...Int(b)
    }

}

/// Premultiplied r, g, b, a in 0...1 for a straight colour at `opacity`.
func premultipliedFloats(_ c: MapCore.Color, _ opacity: Double) -> SIMD4<Double> {
    let a = min(max(c.a * opacity, 0), 1)
    return SIMD4(c.r * a, c.g * a, c.b * a, a)
}

/// Packs premultiplied floats into the pixmap's 0xAARRGGBB.
func packPremultiplied(_ p: SIMD4<Double>) -> UInt32 {
    func q(_ v: Double) -> UInt32 { UInt32((v > 0 ? min(v, 1) : 0) * 255 + 0.5) }     // (NaN: 0)
    let a = q(p[3])
    return a << 24 | min(q(p[0]), a) << 16 | min(q(p[1]), a) << 8 | min(q(p[2]), a)
}

@inline(__always) func smoothstep01(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}

@inline(__always) func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    smoothstep01((x - e0) / (e1 - e0))
}
