import Foundation
import MapCore
import Raster

/// Style-document layers: each feature with its own evaluated paint, drawn one after another
/// (overlapping features of a layer blend over each other, as the reference engines draw them).
extension FrameRenderer {
    func drawFeatures(_ draw: FeatureDraw, _ p: Placement, _ pixmap: Pixmap) {
        for item in draw.items {
            let g = item.geometry
            guard !g.isEmpty else { continue }
            switch item.paint {
            case let .fill(paint, outline, antialias):
                guard paint.opacity > 0 else { continue }
                forEachCopy(g, p, margin: 2, draw.translate) { sx, ox, sy, oy in
                    addRings(g, sx, ox, sy, oy)
                    let color = paint.color.premultiplied(opacity: paint.opacity)
                    if antialias {
                        rasterizer.fill(pixmap, color: color, rule: .nonZero)
                    } else {
                        var b = ThresholdBlitter(SolidBlitter(pixmap: pixmap, color: color))
                        rasterizer.sweep(.nonZero, &b)
                    }
                    // The outline: a 1-px line along the polygon's edges, over the fill.
                    if antialias, let outline {
                        collectParts(g, sx, ox, sy, oy, closeRings: true)
                        var line = LinePaint(color: outline, width: 1, opacity: paint.opacity)
                        line.emissiveStrength = 1
                        paintRuns(line, pixmap)
                    }
                }
            case let .line(paint):
                guard paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { continue }
                let reach = paint.gapWidth / 2 + paint.width
                let margin = reach * max(1, paint.miterLimit) + paint.blur + 2
                forEachCopy(g, p, margin: margin, draw.translate) { sx, ox, sy, oy in
                    if let tileZoom = draw.tileZoom, !paint.dasharray.isEmpty {
                        drawTiledLine(g, paint, tileZoom: tileZoom, margin: margin, sx, ox, sy, oy, pixmap)
                    } else {
                        collectParts(g, sx, ox, sy, oy, closeRings: g.kind == .polygons)
                        paintRuns(paint, pixmap)
                    }
                }
            case let .circle(paint):
                let reach = paint.radius + paint.strokeWidth + 1
                forEachCopy(g, p, margin: reach, draw.translate) { sx, ox, sy, oy in
                    for i in 0..<(g.coordinates.count / 2) {
                        drawCircle(paint, at: Point(g.coordinates[2 * i] * sx + ox, g.coordinates[2 * i + 1] * sy + oy), pixmap)
                    }
                }
            case let .icon(paint):
                let w = Double(paint.icon.image.width) * paint.scale, h = Double(paint.icon.image.height) * paint.scale
                forEachCopy(g, p, margin: (w * w + h * h).squareRoot() + abs(paint.offset.x) + abs(paint.offset.y) + 2, draw.translate) { sx, ox, sy, oy in
                    for i in 0..<(g.coordinates.count / 2) {
                        drawIcon(paint, at: Point(g.coordinates[2 * i] * sx + ox, g.coordinates[2 * i + 1] * sy + oy), pixmap)
                    }
                }
            }
        }
    }

    /// Calls `body` with the mapping of normalised Mercator to screen for each world copy the
    /// geometry shows in (grown by `margin` pixels), shifted by the layer's translation.
    private func forEachCopy(_ g: FeatureGeometry, _ p: Placement, margin: Double, _ t: (x: Double, y: Double),
                             _ body: (Double, Double, Double, Double) -> Void) {
        let m = (margin + abs(t.x) + abs(t.y)) / p.world
        guard g.maxY + m >= p.visible.minY, g.minY - m <= p.visible.maxY else { return }
        let first = Int((p.visible.minX - m - g.maxX).rounded(.up)), last = Int((p.visible.maxX + m - g.minX).rounded(.down))
        guard first <= last else { return }
        for copy in first...last {
            body(p.world, p.ox + Double(copy) * p.world + t.x, p.world, p.oy + t.y)
        }
    }

    /// Every ring of a polygon feature as edges in the rasterizer.
    private func addRings(_ g: FeatureGeometry, _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double) {
        let c = g.coordinates
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 3 else { continue }
            var prev = Point(c[2 * (r.upperBound - 1)] * sx + ox, c[2 * (r.upperBound - 1) + 1] * sy + oy)
            for i in r {
                let cur = Point(c[2 * i] * sx + ox, c[2 * i + 1] * sy + oy)
                rasterizer.addEdge(prev, cur)
                prev = cur
            }
        }
    }

    /// Every part of a feature as a run for the stroker (rings as closed runs, so their first
    /// vertex is joined like the others).
    private func collectParts(_ g: FeatureGeometry, _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double, closeRings: Bool) {
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
                let q = Point(c[2 * i] * sx + ox, c[2 * i + 1] * sy + oy)
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
        for ty in ty0...ty1 {
            for tx in tx0...tx1 {
                let x0 = ox + Double(tx) * tile, y0 = oy + Double(ty) * tile
                collectClippedParts(g, sx, ox, sy, oy, box: (x0 - buffer, y0 - buffer, x0 + tile + buffer, y0 + tile + buffer))
                paintRuns(paint, pixmap, clip: PixelRect(centresIn: x0, y0, x0 + tile, y0 + tile))
            }
        }
    }

    /// Every part of a feature cut to `box` (Liang-Barsky per segment): a new run starts
    /// wherever the line enters the box, so its dash pattern starts there.
    private func collectClippedParts(_ g: FeatureGeometry, _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double,
                                     box: (Double, Double, Double, Double)) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        runOffsets.removeAll(keepingCapacity: true)
        runClosed.removeAll(keepingCapacity: true)
        let c = g.coordinates
        var start = 0
        func endRun() {
            if runPoints.count - start >= 2 { runEnds.append(runPoints.count); runOffsets.append(0) } else { runPoints.removeLast(runPoints.count - start) }
            start = runPoints.count
        }
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            var a = Point(c[2 * r.lowerBound] * sx + ox, c[2 * r.lowerBound + 1] * sy + oy)
            for i in (r.lowerBound + 1)..<r.upperBound {
                let b = Point(c[2 * i] * sx + ox, c[2 * i + 1] * sy + oy)
                defer { a = b }
                // Liang-Barsky: the part of a -> b inside the box, as t0...t1.
                var t0 = 0.0, t1 = 1.0
                let d = b - a
                var inside = true
                for (p, q) in [(-d.x, a.x - box.0), (d.x, box.2 - a.x), (-d.y, a.y - box.1), (d.y, box.3 - a.y)] {
                    if p == 0 { if q < 0 { inside = false; break }; continue }
                    let t = q / p
                    if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                    if t0 > t1 { inside = false; break }
                }
                guard inside else { endRun(); continue }
                let p0 = Point(a.x + d.x * t0, a.y + d.y * t0), p1 = Point(a.x + d.x * t1, a.y + d.y * t1)
                if t0 > 0 || runPoints.count == start { endRun(); runPoints.append(p0) }
                if p1 != runPoints[runPoints.count - 1] { runPoints.append(p1) }
                if t1 < 1 { endRun() }
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
        let x0 = max(0, Int((c.x - outer).rounded(.down))), x1 = min(pixmap.width - 1, Int((c.x + outer).rounded(.up)))
        let y0 = max(rows.lowerBound, Int((c.y - outer).rounded(.down))), y1 = min(rows.upperBound - 1, Int((c.y + outer).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let buf = pixmap.buffer
        for y in y0...y1 {
            let dy = (Double(y) + 0.5 - c.y) / outer
            for x in x0...x1 {
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
        let x0 = max(0, Int(minX.rounded(.down))), x1 = min(pixmap.width - 1, Int(maxX.rounded(.up)))
        let y0 = max(rows.lowerBound, Int(minY.rounded(.down))), y1 = min(rows.upperBound - 1, Int(maxY.rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let buf = pixmap.buffer
        let src = image.buffer
        let iw = image.width, ih = image.height
        // SDF shading (the reference engines' symbol shader: buffer 0.75, edge gamma 0.105 / ratio).
        let gamma = 0.105 / paint.pixelRatio / max(paint.size, 1e-6)
        let haloGamma = (paint.haloBlur / paint.pixelRatio * 1.19 / 8 + 0.105 / paint.pixelRatio) / max(paint.size, 1e-6)
        let haloBuffer = (6 - paint.haloWidth / paint.pixelRatio / max(paint.size, 1e-6)) / 8
        let fillColor = premultipliedFloats(paint.color, paint.opacity)
        let haloColor = premultipliedFloats(paint.haloColor, paint.opacity)
        for y in y0...y1 {
            for x in x0...x1 {
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
    func q(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 1) * 255 + 0.5) }
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
