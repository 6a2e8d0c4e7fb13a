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
                     scratch: inout [Double]) {
        let outset = shading.outset, inset = shading.inset
        guard outset > 0, outset.isFinite, !triangles.isEmpty else { return }
        let ramp = max(shading.blur, 0) + 1
        let offset = shading.offset
        // Where every vertex lands on screen.
        scratch.removeAll(keepingCapacity: true)
        for v in vertices {
            var x = v.x + v.ex * outset, y = v.y + v.ey * outset
            if offset != 0 {
                let ox = -offset * v.ex * v.ny, oy = -offset * v.ey * v.ny
                let u = 0.5 * v.direction, t = 1 - abs(u)
                x += ox * t - oy * u
                y += ox * u + oy * t
            }
            scratch.append(x); scratch.append(y)
        }
        var x0 = 0, x1 = pixmap.width, y0 = max(rows.lowerBound, 0), y1 = min(rows.upperBound, pixmap.height)
        if let clip { x0 = max(x0, clip.x0); x1 = min(x1, clip.x1); y0 = max(y0, clip.y0); y1 = min(y1, clip.y1) }
        guard x0 < x1, y0 < y1 else { return }
        let color = shading.color.packed
        let opaque = color >> 24 == 255
        // Distances (in outer half-widths) inside which alpha is 1 everywhere.
        let solidFrom = inset > 0 ? Double.infinity : 0.0
        let solidTo = (outset - ramp) / outset
        let plain = solidFrom == 0 && solidTo > 0
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
                        // v_normal as a plane over the screen: n = n0 + dx * (x - ax) + dy * (y - ay).
                        let nxdx = ((vb.nx - va.nx) * (cy - ay) - (vc.nx - va.nx) * (by - ay)) / det
                        let nxdy = ((vc.nx - va.nx) * (bx - ax) - (vb.nx - va.nx) * (cx - ax)) / det
                        let nydx = ((vb.ny - va.ny) * (cy - ay) - (vc.ny - va.ny) * (by - ay)) / det
                        let nydy = ((vc.ny - va.ny) * (bx - ax) - (vb.ny - va.ny) * (cx - ax)) / det
                        let round = va.nx != 0 || vb.nx != 0 || vc.nx != 0
                        let rowFirst = max(y0, pixelIndex(minY))
                        let rowEnd = min(y1, pixelIndex(maxY))
                        guard rowFirst < rowEnd else { continue }
                        for y in rowFirst..<rowEnd {
                            let yc = Double(y) + 0.5
                            // The row's span: where the centre line y = yc crosses two edges.
                            var lo = Double.infinity, hi = -Double.infinity
                            @inline(__always) func cross(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) {
                                if (py <= yc && yc < qy) || (qy <= yc && yc < py) {
                                    let x = px + (yc - py) * (qx - px) / (qy - py)
                                    lo = min(lo, x); hi = max(hi, x)
                                }
                            }
                            cross(ax, ay, bx, by); cross(bx, by, cx, cy); cross(cx, cy, ax, ay)
                            guard lo < hi else { continue }
                            let first = max(x0, pixelIndex(lo))
                            let end = min(x1, pixelIndex(hi))
                            guard first < end else { continue }
                            let xc = Double(first) + 0.5
                            var nx = va.nx + nxdx * (xc - ax) + nxdy * (yc - ay)
                            var ny = va.ny + nydx * (xc - ax) + nydy * (yc - ay)
                            let row = pixels + y &* stride
                            if plain && opaque {
                                // |n| is convex along the row: solid at both ends is solid throughout.
                                let lx = nx + nxdx * Double(end - 1 - first), ly = ny + nydx * Double(end - 1 - first)
                                let d0 = round ? (nx * nx + ny * ny).squareRoot() : abs(ny)
                                let d1 = round ? (lx * lx + ly * ly).squareRoot() : abs(ly)
                                if d0 <= solidTo && d1 <= solidTo {
                                    (row + first).update(repeating: color, count: end - first)
                                    continue
                                }
                            }
                            for x in first..<end {
                                defer { nx += nxdx; ny += nydx }
                                let n = round ? (nx * nx + ny * ny).squareRoot() : abs(ny)
                                let d = n * outset
                                var a = min(d - (inset - ramp), outset - d) / ramp
                                if !(a > 0) { continue }
                                if a > 1 { a = 1 }
                                if a == 1 && opaque { row[x] = color; continue }
                                let s = Blend.scale(color, UInt32(a * 256 + 0.5))
                                row[x] = Blend.over(s, row[x])
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The first pixel whose centre lies at or past `v` (ceil(v - 0.5)), clamped to +-1e9 (NaN: 0), so
/// that any coordinate becomes an index without trapping.
/// (The ceiling by truncation where the value is in range: `rounded(.up)` calls the C library on
/// processors without SSE4.1, and shading calls this for every row and column it visits.)
@inline(__always) func pixelIndex(_ v: Double) -> Int {
    let c = v - 0.5
    if c >= -1e9 && c <= 1e9 {
        let t = Int(c)                          // (toward zero)
        return Double(t) < c ? t + 1 : t
    }
    return c >= -1e9 ? 1_000_000_000 : (c.isNaN ? 0 : -1_000_000_000)
}
