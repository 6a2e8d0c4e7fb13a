/// The reference engines' line shader, run over a `LineMesh` on the CPU.
///
/// Each triangle is scan-converted as a GPU does (the pixels whose centres it holds, half-open on
/// the right and bottom so triangles sharing an edge share no pixel), its `v_normal` interpolated
/// linearly to each centre, and every pixel blended source-over on its own, triangle after
/// triangle: where a line's triangles overlap (joins, self-crossings), the fringes blend twice,
/// as they do there. In device pixels, with gap g, width w and blur b:
///
///     outset = g/2 + w + 0.5 (no gap: w/2 + 0.5), inset = g/2 + 0.5 (no gap: 0)
///     d = |v_normal| * outset, ramp = b + 1
///     alpha = clamp(min(d - (inset - ramp), outset - d) / ramp, 0, 1)
///
/// An offset moves each vertex along its extrusion by -offset * extrusion * normal.y, turned by
/// the vertex's end direction, as the engines' vertex shader does.
public struct LineShading: Equatable, Sendable {
    public var width: Double
    public var gapWidth: Double
    public var blur: Double
    /// Pixels to the right of the line's direction (negative: left).
    public var offset: Double
    /// Premultiplied, opacity applied.
    public var color: PremultipliedColor

    public init(width: Double, gapWidth: Double = 0, blur: Double = 0, offset: Double = 0, color: PremultipliedColor) {
        self.width = width; self.gapWidth = gapWidth; self.blur = blur; self.offset = offset; self.color = color
    }

    /// The distance from the centre line at which the outer edge has faded out.
    public var outset: Double { gapWidth > 0 ? gapWidth / 2 + width + 0.5 : width / 2 + (width > 0 ? 0.5 : 0) }
    public var inset: Double { gapWidth > 0 ? gapWidth / 2 + 0.5 : 0 }
}

extension LineMesh {
    /// Shades every triangle onto the rows `rows` of `pixmap` (and only the pixels whose centres
    /// lie in `clip`, when given).
    public func draw(_ shading: LineShading, onto pixmap: Pixmap, rows: Range<Int>, clip: PixelRect? = nil,
                     ground: GroundProjection? = nil, scratch: inout [Double]) {
        let outset = shading.outset, inset = shading.inset
        guard outset > 0, outset.isFinite, !triangles.isEmpty else { return }
        let ramp = max(shading.blur, 0) + 1
        let offset = shading.offset
        // Where every vertex lands on the flat screen: on the line, moved by the offset, then
        // extruded (returned apart: the gamma scale measures the extrusion alone).
        @inline(__always) func place(_ v: Vertex) -> (x: Double, y: Double, ex: Double, ey: Double) {
            var x = v.x, y = v.y
            if offset != 0 {
                let ox = -offset * v.ex * v.ny, oy = -offset * v.ey * v.ny
                let u = 0.5 * v.direction, t = 1 - abs(u)
                x += ox * t - oy * u
                y += ox * u + oy * t
            }
            return (x, y, v.ex * outset, v.ey * outset)
        }
        // Where every vertex lands on screen (x, y pairs); on the ground in perspective, after
        // the positions, each vertex's MapLibre gamma scale (its extrusion's flat length over its
        // length on screen there), which keeps the fade at the edges about a screen pixel wide at
        // any depth, then its 1 / w, as v_normal is interpolated as a GPU interpolates a varying,
        // correct for perspective (linear in x / w, y / w, 1 / w).
        let count = vertices.count, perspective = ground != nil
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: repeatElement(0, count: (perspective ? 4 : 2) * count))
        for (i, v) in vertices.enumerated() {
            let p = place(v)
            var x = p.x + p.ex, y = p.y + p.ey
            if let ground {
                let s = ground.apply(x, y), q = ground.apply(p.x, p.y)
                let flat = (p.ex * p.ex + p.ey * p.ey).squareRoot()
                let onScreen = ((s.x - q.x) * (s.x - q.x) + (s.y - q.y) * (s.y - q.y)).squareRoot()
                scratch[2 * count + i] = flat > 0 && onScreen > 0 ? flat / onScreen : .nan
                scratch[3 * count + i] = 1 / ground.depth(x, y)
                x = s.x; y = s.y
            }
            scratch[2 * i] = x; scratch[2 * i + 1] = y
        }
        let x0 = max(0, clip?.x0 ?? 0), x1 = min(pixmap.width, clip?.x1 ?? pixmap.width)
        let y0 = max(rows.lowerBound, 0, clip?.y0 ?? 0), y1 = min(rows.upperBound, pixmap.height, clip?.y1 ?? pixmap.height)
        guard x0 < x1, y0 < y1 else { return }
        let color = shading.color.packed
        let opaque = color >> 24 == 255
        // A line with a gap has no solid core; without one, alpha is 1 within `solidTo` outer
        // half-widths of the centre (on the flat map).
        let hollow = inset > 0
        let solidTo = (outset - ramp) / outset
        let stride = pixmap.width
        let pixels = pixmap.pixels
        let bounds = (Double(x0), Double(y0), Double(x1), Double(y1))
        vertices.withUnsafeBufferPointer { verts in
            scratch.withUnsafeBufferPointer { pos in
                triangles.withUnsafeBufferPointer { tri in
                    var k = 0
                    while k + 2 < tri.count {
                        let i0 = Int(tri[k]), i1 = Int(tri[k + 1]), i2 = Int(tri[k + 2])
                        k += 3
                        let ax = pos[2 * i0], ay = pos[2 * i0 + 1]
                        let bx = pos[2 * i1], by = pos[2 * i1 + 1]
                        let cx = pos[2 * i2], cy = pos[2 * i2 + 1]
                        let minY = min(ay, by, cy), maxY = max(ay, by, cy)
                        let minX = min(ax, bx, cx), maxX = max(ax, bx, cx)
                        guard maxY > bounds.1 - 0.5, minY < bounds.3 + 0.5, maxX > bounds.0 - 0.5, minX < bounds.2 + 0.5 else { continue }
                        let det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
                        guard det != 0, det.isFinite else { continue }
                        let va = verts[i0], vb = verts[i1], vc = verts[i2]
                        // The gamma scale at each corner (one without an extrusion takes the
                        // others' mean), interpolated as n is; on the flat map 1.
                        var ga = 1.0, gb = 1.0, gc = 1.0
                        if perspective {
                            ga = pos[2 * count + i0]; gb = pos[2 * count + i1]; gc = pos[2 * count + i2]
                            var sum = 0.0, n = 0.0
                            if ga.isFinite { sum += ga; n += 1 }
                            if gb.isFinite { sum += gb; n += 1 }
                            if gc.isFinite { sum += gc; n += 1 }
                            let mean = n > 0 ? sum / n : 1
                            if !ga.isFinite { ga = mean }
                            if !gb.isFinite { gb = mean }
                            if !gc.isFinite { gc = mean }
                        }
                        // v_normal as a plane over the screen: n = n0 + dx * (x - ax) + dy * (y - ay);
                        // in perspective n q and q are, with q = 1 / w (q = 1 on the flat map).
                        let qa = perspective ? pos[3 * count + i0] : 1, qb = perspective ? pos[3 * count + i1] : 1
                        let qc = perspective ? pos[3 * count + i2] : 1
                        // (One division for the triangle's planes.)
                        let perDet = 1 / det
                        @inline(__always) func plane(_ a: Double, _ b: Double, _ c: Double) -> (at: Double, dx: Double, dy: Double) {
                            (a, ((b - a) * (cy - ay) - (c - a) * (by - ay)) * perDet, ((c - a) * (bx - ax) - (b - a) * (cx - ax)) * perDet)
                        }
                        let pnx = plane(va.nx * qa, vb.nx * qb, vc.nx * qc), pny = plane(va.ny * qa, vb.ny * qb, vc.ny * qc)
                        let flat = (at: 1.0, dx: 0.0, dy: 0.0)
                        let pq = perspective ? plane(qa, qb, qc) : flat, pg = perspective ? plane(ga * qa, gb * qb, gc * qc) : flat
                        let nxdx = pnx.dx, nxdy = pnx.dy, nydx = pny.dx, nydy = pny.dy
                        let round = va.nx != 0 || vb.nx != 0 || vc.nx != 0
                        // The triangle's corners from top to bottom; each edge is evaluated from its
                        // upper corner, so triangles sharing an edge find the same crossings.
                        var p0 = (x: ax, y: ay), p1 = (x: bx, y: by), p2 = (x: cx, y: cy)
                        if p1.y < p0.y { swap(&p1, &p0) }
                        if p2.y < p1.y { swap(&p2, &p1) }
                        if p1.y < p0.y { swap(&p1, &p0) }
                        let t = p0, m = p1, b = p2
                        // (Each edge's dx / dy, once for all its rows.)
                        let long = (b.x - t.x) / (b.y - t.y), upper = (m.x - t.x) / (m.y - t.y), lower = (b.x - m.x) / (b.y - m.y)
                        let top = max(y0, pixelIndex(t.y)), middle = pixelIndex(m.y), bottom = min(y1, pixelIndex(b.y))
                        // One row's pixels whose centres lie between lo and hi: its span.
                        @inline(__always) func row(_ y: Int, _ yc: Double, _ xa: Double, _ xb: Double) {
                            let lo = min(xa, xb), hi = max(xa, xb)
                            guard lo < hi else { return }
                            // (Clamped to the columns first: then the index needs no range check.)
                            let first = columnIndex(min(max(lo, bounds.0), bounds.2)), end = columnIndex(min(max(hi, bounds.0), bounds.2))
                            guard first < end else { return }
                            let xc = Double(first) + 0.5
                            var nx = pnx.at + nxdx * (xc - ax) + nxdy * (yc - ay)
                            var ny = pny.at + nydx * (xc - ax) + nydy * (yc - ay)
                            let row = pixels + y &* stride
                            if !perspective {
                                if !hollow && solidTo > 0 && opaque && end - first > 3 {
                                    // |n| is convex along the row: solid at both ends is solid
                                    // throughout.
                                    let last = Double(end - 1 - first)
                                    let lx = nx + nxdx * last, ly = ny + nydx * last
                                    let d0 = round ? (nx * nx + ny * ny).squareRoot() : abs(ny)
                                    let d1 = round ? (lx * lx + ly * ly).squareRoot() : abs(ly)
                                    if d0 <= solidTo && d1 <= solidTo {
                                        (row + first).update(repeating: color, count: end - first)
                                        return
                                    }
                                }
                                for x in first..<end {
                                    defer { nx += nxdx; ny += nydx }
                                    let d = (round ? (nx * nx + ny * ny).squareRoot() : abs(ny)) * outset
                                    var a = min(d - (inset - ramp), outset - d) / ramp
                                    if !(a > 0) { continue }
                                    if a > 1 { a = 1 }
                                    if a == 1 && opaque { row[x] = color; continue }
                                    row[x] = Blend.over(Blend.scale(color, UInt32(a * 256 + 0.5)), row[x])
                                }
                                return
                            }
                            // In perspective n, the gamma-scaled ramp and the edges are all taken
                            // times q = 1 / w, which keeps them linear along the row; alpha, their
                            // ratio, needs no 1 / w, and a pixel inside the solid core no division:
                            //     a = min(|n q| outset - inset q + ramp g q, outset q - |n q| outset) / (ramp g q)
                            var oq = outset * (pq.at + pq.dx * (xc - ax) + pq.dy * (yc - ay))
                            var rq = ramp * (pg.at + pg.dx * (xc - ax) + pg.dy * (yc - ay))
                            let oqdx = outset * pq.dx, rqdx = ramp * pg.dx, insetOverOutset = inset / outset
                            if !hollow && opaque && end - first > 3 {
                                // outset q - |n q| outset - ramp g q is concave along the row (q and
                                // g q linear, |n q| convex): not negative at both ends, it is not
                                // negative throughout.
                                let last = Double(end - 1 - first)
                                let lx = nx + nxdx * last, ly = ny + nydx * last
                                let d0 = (round ? (nx * nx + ny * ny).squareRoot() : abs(ny)) * outset
                                let d1 = (round ? (lx * lx + ly * ly).squareRoot() : abs(ly)) * outset
                                if oq - d0 >= rq && (oq + oqdx * last) - d1 >= rq + rqdx * last {
                                    (row + first).update(repeating: color, count: end - first)
                                    return
                                }
                            }
                            // (Every pixel blended at its alpha, 0 and 1 included, which leave
                            // the pixel or give the colour exactly: no branch on where it lies
                            // across the line, which the processor would mispredict row after row.)
                            for x in first..<end {
                                defer { nx += nxdx; ny += nydx; oq += oqdx; rq += rqdx }
                                let d = (round ? (nx * nx + ny * ny).squareRoot() : abs(ny)) * outset
                                let reach = min(d - oq * insetOverOutset + rq, oq - d)
                                let a = reach > 0 ? min(reach / rq, 1) : 0
                                row[x] = Blend.over(Blend.scale(color, UInt32(a * 256 + 0.5)), row[x])
                            }
                        }
                        guard top < bottom else { continue }
                        for y in top..<bottom {
                            let yc = Double(y) + 0.5
                            // (The short edge beside the long one: the upper above the middle corner.)
                            let above = y < middle
                            let sx = above ? t.x : m.x, sy = above ? t.y : m.y, slope = above ? upper : lower
                            row(y, yc, t.x + (yc - t.y) * long, sx + (yc - sy) * slope)
                        }
                    }
                }
            }
        }
    }
}

/// `pixelIndex` of a `v` known to lie within the pixmap's columns (not NaN).
@inline(__always) private func columnIndex(_ v: Double) -> Int {
    let c = v - 0.5, t = Int(c)
    return Double(t) < c ? t + 1 : t
}

/// The first pixel whose centre lies at or past `v` (ceil(v - 0.5)), clamped to +-1e9 (NaN: 0), so
/// that any coordinate becomes an index without trapping.
/// (The ceiling by truncation where the value is in range: `rounded(.up)` calls the C library on
/// processors without SSE4.1, and shading calls this for every row and column it visits.)
@inlinable @inline(__always) public func pixelIndex(_ v: Double) -> Int {
    let c = v - 0.5
    if c >= -1e9 && c <= 1e9 {
        let t = Int(c)                          // (toward zero)
        return Double(t) < c ? t + 1 : t
    }
    return c >= -1e9 ? 1_000_000_000 : (c.isNaN ? 0 : -1_000_000_000)
}
