extension LineMesh {
    /// Shades every triangle as ``draw(_:onto:rows:clip:scratch:)`` does, each pixel coloured by
    /// `gradient` at its progress (the vertices' progress interpolated linearly, as the engines'
    /// `v_lineprogress`; the mesh made with `tracksProgress`) and faded by `opacity`;
    /// `shading.color` is not used. With `dashes` (device pixels, dash and gap alternating) only
    /// the dashes are drawn, their ends square or, with `roundDashes`, round.
    ///
    /// With a `surface` (the globe) each vertex, on the flat screen, is laid on the screen by it
    /// and a triangle whose corners are all unseen is left out; pixels are drawn only within
    /// the surface's span of each row.
    public func drawGradient(_ shading: LineShading, _ gradient: LineGradient, opacity: Double, dashes: [Double] = [],
                             roundDashes: Bool = false, onto pixmap: Pixmap,
                             rows: Range<Int>, clip: PixelRect? = nil, surface: (any LineSurface)? = nil,
                             scratch: inout [Double]) {
        let outset = shading.outset, inset = shading.inset
        guard outset > 0, outset.isFinite, !triangles.isEmpty, !gradient.ramp.isEmpty,
              progresses.count == vertices.count, alongs.count == vertices.count else { return }
        let ramp = max(shading.blur, 0) + 1
        let offset = shading.offset
        let fade = UInt32((min(max(opacity.isNaN ? 0 : opacity, 0), 1) * 256).rounded())
        guard fade > 0 else { return }
        let pattern = GradientDashes(dashes, halfWidth: roundDashes ? shading.width / 2 : 0)
        scratch.removeAll(keepingCapacity: true)
        var unseen: [Bool] = []
        if surface != nil { unseen.reserveCapacity(vertices.count) }
        for v in vertices {
            var x = v.x, y = v.y
            if offset != 0 {
                let ox = -offset * v.ex * v.ny, oy = -offset * v.ey * v.ny
                let u = 0.5 * v.direction, t = 1 - abs(u)
                x += ox * t - oy * u
                y += ox * u + oy * t
            }
            if let surface {
                let q = surface.place(x, y, extrusion: v.ex * outset, v.ey * outset)
                scratch.append(q.x); scratch.append(q.y)
                unseen.append(!q.seen)
            } else {
                scratch.append(x + v.ex * outset); scratch.append(y + v.ey * outset)
            }
        }
        var x0 = 0, x1 = pixmap.width, y0 = max(rows.lowerBound, 0), y1 = min(rows.upperBound, pixmap.height)
        if let clip { x0 = max(x0, clip.x0); x1 = min(x1, clip.x1); y0 = max(y0, clip.y0); y1 = min(y1, clip.y1) }
        guard x0 < x1, y0 < y1 else { return }
        let stride = pixmap.width
        let pixels = pixmap.pixels
        let bounds = (Double(x0), Double(y0), Double(x1), Double(y1))
        let progresses = self.progresses, alongs = self.alongs
        vertices.withUnsafeBufferPointer { verts in
            scratch.withUnsafeBufferPointer { pos in
                triangles.withUnsafeBufferPointer { tri in
                    var k = 0
                    while k + 2 < tri.count {
                        let i0 = Int(tri[k]), i1 = Int(tri[k + 1]), i2 = Int(tri[k + 2])
                        k += 3
                        if surface != nil && unseen[i0] && unseen[i1] && unseen[i2] { continue }
                        let ax = pos[2 * i0], ay = pos[2 * i0 + 1]
                        let bx = pos[2 * i1], by = pos[2 * i1 + 1]
                        let cx = pos[2 * i2], cy = pos[2 * i2 + 1]
                        let minY = min(ay, by, cy), maxY = max(ay, by, cy)
                        let minX = min(ax, bx, cx), maxX = max(ax, bx, cx)
                        guard maxY > bounds.1 - 0.5, minY < bounds.3 + 0.5, maxX > bounds.0 - 0.5, minX < bounds.2 + 0.5 else { continue }
                        let det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
                        guard det != 0, det.isFinite else { continue }
                        let va = verts[i0], vb = verts[i1], vc = verts[i2]
                        @inline(__always) func plane(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double) {
                            (((b - a) * (cy - ay) - (c - a) * (by - ay)) / det, ((c - a) * (bx - ax) - (b - a) * (cx - ax)) / det)
                        }
                        let (nxdx, nxdy) = plane(va.nx, vb.nx, vc.nx)
                        let (nydx, nydy) = plane(va.ny, vb.ny, vc.ny)
                        let pa = progresses[i0], la = alongs[i0]
                        let (pdx, pdy) = plane(pa, progresses[i1], progresses[i2])
                        let (adx, ady) = plane(la, alongs[i1], alongs[i2])
                        let round = va.nx != 0 || vb.nx != 0 || vc.nx != 0
                        let rowFirst = max(y0, pixelIndex(minY))
                        let rowEnd = min(y1, pixelIndex(maxY))
                        guard rowFirst < rowEnd else { continue }
                        for y in rowFirst..<rowEnd {
                            let yc = Double(y) + 0.5
                            var lo = Double.infinity, hi = -Double.infinity
                            @inline(__always) func cross(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) {
                                if (py <= yc && yc < qy) || (qy <= yc && yc < py) {
                                    let x = px + (yc - py) * (qx - px) / (qy - py)
                                    lo = min(lo, x); hi = max(hi, x)
                                }
                            }
                            cross(ax, ay, bx, by); cross(bx, by, cx, cy); cross(cx, cy, ax, ay)
                            guard lo < hi else { continue }
                            var first = max(x0, pixelIndex(lo))
                            var end = min(x1, pixelIndex(hi))
                            if let surface {
                                guard let span = surface.span(row: yc) else { continue }
                                first = max(first, Int((span.0 - 0.5).rounded(.up)))
                                end = min(end, Int((span.1 - 0.5).rounded(.down)) + 1)
                            }
                            guard first < end else { continue }
                            let xc = Double(first) + 0.5
                            var nx = va.nx + nxdx * (xc - ax) + nxdy * (yc - ay)
                            var ny = va.ny + nydx * (xc - ax) + nydy * (yc - ay)
                            var progress = pa + pdx * (xc - ax) + pdy * (yc - ay)
                            var along = la + adx * (xc - ax) + ady * (yc - ay)
                            let row = pixels + y &* stride
                            for x in first..<end {
                                defer { nx += nxdx; ny += nydx; progress += pdx; along += adx }
                                let n = round ? (nx * nx + ny * ny).squareRoot() : abs(ny)
                                let d = n * outset
                                var a = min(d - (inset - ramp), outset - d) / ramp
                                if !(a > 0) { continue }
                                if a > 1 { a = 1 }
                                if let pattern {
                                    a *= pattern.coverage(along: along, across: abs(ny) * outset)
                                    if !(a > 0) { continue }
                                }
                                let color = gradient.color(at: progress)
                                let s = UInt32(a * Double(fade) + 0.5)
                                let src = s >= 256 ? color : Blend.scale(color, s)
                                row[x] = Blend.over(src, row[x])
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A dash pattern along a line: which pixels lie in a dash, anti-aliased over a pixel.
struct GradientDashes {
    /// Dash starts and ends within one period.
    private let starts: [Double], ends: [Double]
    private let period: Double
    /// For round ends: the radius of the cap added to each end (0: square ends at the dash's).
    private let halfWidth: Double

    /// Nil for no pattern (or one without length).
    init?(_ dashes: [Double], halfWidth: Double) {
        guard dashes.count >= 2 else { return nil }
        let lengths = dashes.map { $0.isFinite ? max($0, 0) : 0 }
        let total = lengths.reduce(0, +)
        guard total > 0, total.isFinite else { return nil }
        var s: [Double] = [], e: [Double] = []
        var x = 0.0
        for (i, l) in lengths.enumerated() {
            if i % 2 == 0 { s.append(x); e.append(x + l) }
            x += l
        }
        starts = s; ends = e; period = total; self.halfWidth = halfWidth
    }

    /// 0...1: how much of the pixel `along` pixels from the line's start (`across` from its
    /// centre) a dash covers.
    @inline(__always) func coverage(along: Double, across: Double) -> Double {
        var u = along.truncatingRemainder(dividingBy: period)
        if u < 0 { u += period }
        var best = 0.0
        for k in 0..<starts.count {
            var shift = -period
            for _ in 0..<3 {
                defer { shift += period }
                let s = starts[k] + shift, e = ends[k] + shift
                let c: Double
                if halfWidth > 0 {
                    let dx = max(s - u, u - e, 0)
                    let dist = (dx * dx + across * across).squareRoot()
                    c = dx == 0 ? 1 : halfWidth - dist + 0.5
                } else {
                    c = min(u - s, e - u) + 0.5
                }
                if c > best { best = c; if best >= 1 { return 1 } }
            }
        }
        return min(best, 1)
    }
}

/// Where a line mesh lies when it is not the flat screen (the globe): each vertex laid on the
/// screen from its place on the flat screen and its extrusion, and the part of each screen row
/// it may cover.
public protocol LineSurface {
    /// The screen point of the vertex at flat point (x, y) extruded by (ex, ey) flat pixels, and
    /// whether it is seen (a vertex not seen is laid at the surface's edge).
    func place(_ x: Double, _ y: Double, extrusion ex: Double, _ ey: Double) -> (x: Double, y: Double, seen: Bool)
    /// The x range of screen row `y` (a pixel's centre) that may be drawn; nil: none.
    func span(row y: Double) -> (Double, Double)?
}
