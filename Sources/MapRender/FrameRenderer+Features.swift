import Foundation
import MapCore
import Raster

/// Style-document layers: each feature with its own evaluated paint, drawn one after another
/// (overlapping features of a layer blend over each other, as the reference engines draw them).
extension FrameRenderer {
    func drawFeatures(_ draw: FeatureDraw, _ p: Placement, _ pixmap: Pixmap) {
        if p.turn == nil { drawFeatures(draw, p, pixmap, AxisMap.self) } else { drawFeatures(draw, p, pixmap, RotatedMap.self) }
    }

    private func drawFeatures<M: ScreenMap>(_ draw: FeatureDraw, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        for item in draw.items {
            let g = item.geometry
            guard !g.isEmpty else { continue }
            switch item.paint {
            case let .fill(paint, outline, antialias):
                guard paint.opacity > 0 else { continue }
                forEachCopy(g, p, margin: 2, draw.translate) { (map: M) in
                    addRings(g, map)
                    let color = paint.color.premultiplied(opacity: paint.opacity)
                    if antialias {
                        rasterizer.fill(pixmap, color: color, rule: .nonZero)
                    } else {
                        var b = ThresholdBlitter(SolidBlitter(pixmap: pixmap, color: color))
                        rasterizer.sweep(.nonZero, &b)
                    }
                    // The outline: a 1-px line along the polygon's edges, over the fill. (The
                    // reference draws it as a GPU hairline, not as a line layer, and area
                    // coverage comes closer to that than the line shader's distance ramp.)
                    if antialias, let outline {
                        collectParts(g, map, closeRings: true)
                        var line = LinePaint(color: outline, width: 1, opacity: paint.opacity)
                        line.emissiveStrength = 1
                        paintRuns(line, pixmap, exactArea: true)
                    }
                }
            case let .line(paint):
                guard paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { continue }
                let reach = paint.gapWidth / 2 + paint.width
                let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
                forEachCopy(g, p, margin: margin, draw.translate) { (map: M) in
                    // (Tiles are cut north up; at a bearing a dash pattern runs along the whole line.)
                    if let tileZoom = draw.tileZoom, !paint.dasharray.isEmpty, let a = map.axis {
                        drawTiledLine(g, paint, tileZoom: tileZoom, margin: margin, a.sx, a.ox, a.sy, a.oy, pixmap)
                    } else {
                        collectParts(g, map, closeRings: g.kind == .polygons)
                        paintRuns(paint, pixmap)
                    }
                }
            case let .circle(paint):
                let reach = paint.radius + paint.strokeWidth + 1
                forEachCopy(g, p, margin: reach, draw.translate) { (map: M) in
                    for i in 0..<(g.coordinates.count / 2) {
                        drawCircle(paint, at: map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1]), pixmap)
                    }
                }
            case var .vectorIcon(paint):
                // `icon-rotation-alignment: map`: the icon turns with the map.
                if paint.rotatesWithMap && p.bearing != 0 { paint.rotate -= p.bearing }
                forEachCopy(g, p, margin: paint.reach + 2, draw.translate) { (map: M) in
                    for i in 0..<(g.coordinates.count / 2) {
                        drawVectorIcon(paint, at: map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1]), pixmap)
                    }
                }
            case var .icon(paint):
                let w = Double(paint.icon.image.width) * paint.scale, h = Double(paint.icon.image.height) * paint.scale
                // `icon-rotation-alignment: map`: the icon turns with the map.
                if paint.rotatesWithMap && p.bearing != 0 { paint.rotate -= p.bearing; paint.smooth = true }
                forEachCopy(g, p, margin: (w * w + h * h).squareRoot() + abs(paint.offset.x) + abs(paint.offset.y) + 2, draw.translate) { (map: M) in
                    for i in 0..<(g.coordinates.count / 2) {
                        drawIcon(paint, at: map.point(g.coordinates[2 * i], g.coordinates[2 * i + 1]), pixmap)
                    }
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
    private func pixelSpan(_ lo: Double, _ hi: Double, in range: Range<Int>) -> ClosedRange<Int>? {
        guard lo <= hi, !range.isEmpty else { return nil }
        let a = max(lo.rounded(.down), Double(range.lowerBound)), b = min(hi.rounded(.up), Double(range.upperBound - 1))
        guard a <= b else { return nil }
        return Int(a)...Int(b)
    }

    /// Every ring of a polygon feature as edges in the rasterizer.
    private func addRings<M: ScreenMap>(_ g: FeatureGeometry, _ map: M) {
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

    /// Every part of a feature as a run for the stroker (rings as closed runs, so their first
    /// vertex is joined like the others).
    private func collectParts<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, closeRings: Bool) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
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
                               _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double, _ pixmap: Pixmap) {
        let tile = sx / exp2(Double(tileZoom)), buffer = tile / 4
        // The tiles whose own area shows pixels of the stroke: they meet both the viewport's rows
        // being drawn and the line's box grown by its reach (a few at most: a tile is at least
        // 512 px wide).
        let minX = max(g.minX * sx + ox - margin, 0), maxX = min(g.maxX * sx + ox + margin, Double(pixmap.width))
        let minY = max(g.minY * sy + oy - margin, Double(rows.lowerBound))
        let maxY = min(g.maxY * sy + oy + margin, Double(rows.upperBound))
        guard minX <= maxX, minY <= maxY, tile >= 1 else { return }
        let tx0 = Int(((minX - ox) / tile).rounded(.down)), tx1 = Int(((maxX - ox) / tile).rounded(.down))
        let ty0 = Int(((minY - oy) / tile).rounded(.down)), ty1 = Int(((maxY - oy) / tile).rounded(.down))
        let view = (-margin, Double(rows.lowerBound) - margin, Double(pixmap.width) + margin, Double(rows.upperBound) + margin)
        for ty in ty0...ty1 {
            for tx in tx0...tx1 {
                let x0 = ox + Double(tx) * tile, y0 = oy + Double(ty) * tile
                collectClippedParts(g, sx, ox, sy, oy, box: (x0 - buffer, y0 - buffer, x0 + tile + buffer, y0 + tile + buffer), view: view)
                paintRuns(paint, pixmap, clip: PixelRect(centresIn: x0, y0, x0 + tile, y0 + tile))
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
        let c = g.coordinates
        var start = 0
        var runAlong = 0.0
        func endRun() {
            if runPoints.count - start >= 2 { runEnds.append(runPoints.count); runOffsets.append(runAlong) } else { runPoints.removeLast(runPoints.count - start) }
            start = runPoints.count
        }
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
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

    /// A circle as the reference engines shade it: a disc of `radius` ringed by the stroke, the
    /// edge faded over max(1 px, blur x radius) with a smoothstep, colours mixed premultiplied.
    private func drawCircle(_ paint: CirclePaint, at c: Point, _ pixmap: Pixmap) {
        let outer = paint.radius + paint.strokeWidth
        guard outer > 0 else { return }
        let aaBlur = max(1 / outer, paint.blur)
        let inner = paint.radius / outer
        let fill = premultipliedFloats(paint.color, paint.opacity)
        let stroke = premultipliedFloats(paint.strokeColor, paint.strokeOpacity)
        guard let xs = pixelSpan(c.x - outer, c.x + outer, in: 0..<pixmap.width),
              let ys = pixelSpan(c.y - outer, c.y + outer, in: rows) else { return }
        let buf = pixmap.buffer
        for y in ys {
            let dy = (Double(y) + 0.5 - c.y) / outer
            for x in xs {
                let dx = (Double(x) + 0.5 - c.x) / outer
                let len = (dx * dx + dy * dy).squareRoot()
                guard len <= 1 else { continue }
                let opacity = smoothstep01((len - 1) / -aaBlur)
                let t = paint.strokeWidth < 0.01 ? 0 : smoothstep01((len - inner + aaBlur) / aaBlur)
                var px = [0.0, 0.0, 0.0, 0.0]
                for k in 0..<4 { px[k] = opacity * (fill[k] + (stroke[k] - fill[k]) * t) }
                let i = y * pixmap.width + x
                buf[i] = Blend.over(packPremultiplied(px), buf[i])
            }
        }
    }

    /// An icon: its image placed by the anchor and offset, turned about its point, sampled
    /// exactly or bilinearly; an SDF icon shaded by its distance field (halo, then colour).
    private func drawIcon(_ paint: IconPaint, at point: Point, _ pixmap: Pixmap) {
        guard let image = paint.icon.image as? Pixmap, paint.opacity > 0 else { return }
        let s = paint.scale
        let w = Double(image.width) * s, h = Double(image.height) * s
        let f = paint.anchor.fraction
        // Icon-space box corner relative to the point, before rotation.
        let left = -w * f.x + paint.offset.x, top = -h * f.y + paint.offset.y
        let angle = paint.rotate * Double.pi / 180
        let cosA = cos(angle), sinA = sin(angle)
        // Screen bounds of the rotated box.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (u, v) in [(left, top), (left + w, top), (left, top + h), (left + w, top + h)] {
            let x = point.x + u * cosA - v * sinA, y = point.y + u * sinA + v * cosA
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard let xs = pixelSpan(minX, maxX, in: 0..<pixmap.width), let ys = pixelSpan(minY, maxY, in: rows) else { return }
        let buf = pixmap.buffer
        let src = image.buffer
        let iw = image.width, ih = image.height
        // SDF shading (the reference engines' symbol shader: buffer 0.75, edge gamma 0.105 / ratio).
        let gamma = 0.105 / paint.pixelRatio / max(paint.size, 1e-6)
        let haloGamma = (paint.haloBlur / paint.pixelRatio * 1.19 / 8 + 0.105 / paint.pixelRatio) / max(paint.size, 1e-6)
        let haloBuffer = (6 - paint.haloWidth / paint.pixelRatio / max(paint.size, 1e-6)) / 8
        let fillColor = premultipliedFloats(paint.color, paint.opacity)
        let haloColor = premultipliedFloats(paint.haloColor, paint.opacity)
        for y in ys {
            for x in xs {
                // Screen pixel centre back into image pixels.
                let dx = Double(x) + 0.5 - point.x, dy = Double(y) + 0.5 - point.y
                let u = (dx * cosA + dy * sinA - left) / s, v = (-dx * sinA + dy * cosA - top) / s
                guard u >= 0, v >= 0, u < Double(iw), v < Double(ih) else { continue }
                let i = y * pixmap.width + x
                if paint.icon.sdf {
                    let d = Double(bilinear(src, iw, ih, u, v) >> 24) / 255
                    if paint.haloWidth > 0 && paint.haloColor.a > 0 {
                        let a = smoothstep(haloBuffer - haloGamma, haloBuffer + haloGamma, d)
                        if a > 0 { buf[i] = Blend.over(packPremultiplied(haloColor.map { $0 * a }), buf[i]) }
                    }
                    let a = smoothstep(0.75 - gamma, 0.75 + gamma, d)
                    if a > 0 { buf[i] = Blend.over(packPremultiplied(fillColor.map { $0 * a }), buf[i]) }
                } else {
                    var c = paint.smooth ? bilinear(src, iw, ih, u, v) : src[Int(v) * iw + Int(u)]
                    if paint.opacity < 1 { c = Blend.scale(c, UInt32((paint.opacity * 256).rounded())) }
                    if c >> 24 != 0 { buf[i] = Blend.over(c, buf[i]) }
                }
            }
        }
    }

    /// Bilinear sample of a premultiplied image at image coordinates (u, v) (pixel centres at +0.5).
    /// Outside the image is transparent, as the transparent padding around each icon in the
    /// reference engines' atlas is: edges fade over half a texel.
    private func bilinear(_ src: UnsafeMutableBufferPointer<UInt32>, _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> UInt32 {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> UInt32 { x < 0 || y < 0 || x >= w || y >= h ? 0 : src[y * w + x] }
        var out: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            func ch(_ p: UInt32) -> Double { Double(p >> UInt32(shift) & 255) }
            let top = ch(at(x0, y0)) * (1 - tx) + ch(at(x0 + 1, y0)) * tx
            let bottom = ch(at(x0, y0 + 1)) * (1 - tx) + ch(at(x0 + 1, y0 + 1)) * tx
            out |= UInt32(min(255, max(0, (top * (1 - ty) + bottom * ty).rounded()))) << UInt32(shift)
        }
        return out
    }
}

/// Premultiplied r, g, b, a in 0...1 for a straight colour at `opacity`.
func premultipliedFloats(_ c: MapCore.Color, _ opacity: Double) -> [Double] {
    let a = min(max(c.a * opacity, 0), 1)
    return [c.r * a, c.g * a, c.b * a, a]
}

/// Packs premultiplied floats into the pixmap's 0xAARRGGBB.
func packPremultiplied(_ p: [Double]) -> UInt32 {
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

/// Aliased coverage: a pixel is either in (its coverage at least half) or out, as an
/// un-antialiased fill samples pixel centres.
struct ThresholdBlitter<B: SpanBlitter>: SpanBlitter {
    var inner: B
    init(_ inner: B) { self.inner = inner }
    mutating func blitPixel(x: Int, y: Int, alpha: UInt32) { if alpha >= 128 { inner.blitSpan(x: x, y: y, count: 1, alpha: 255) } }
    mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) { if alpha >= 128 { inner.blitSpan(x: x, y: y, count: count, alpha: 255) } }
}
