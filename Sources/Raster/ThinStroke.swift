import CPrefetch

/// Strokes of lines at most `maxWidth` pixels wide, covered by distance instead of by area.
///
/// A thin basemap line crosses a pixel or two per segment, so giving every segment its own
/// rectangle and join for the area rasterizer spends almost all of its time on edges and cells
/// for very few pixels. Here each pixel near a segment gets coverage from its centre's distance
/// to the line, clamp(w / 2 + 0.5 - distance, 0, 1): the anti-aliasing MapLibre's line shader
/// applies (an edge fading over one pixel centred on the true edge). Butt and square ends fade the
/// same way along the line; interior vertices and round caps use the distance to the vertex, so
/// consecutive segments meet in a round join (for lines this thin a miter differs from it by at
/// most w / 2 * (sqrt 2 - 1) px at a right angle, and a bevel by less).
///
/// Coverage goes into an 8-bit mask keeping the larger value where segments overlap, and the mask
/// is composited once per line: a pixel is painted once however many of a line's segments, joins
/// or dashes touch it, and once for each line crossing it, as the reference engines blend a
/// layer's lines one after another (`composite` after each `stroke`). The mask keeps its
/// storage; composite leaves it clear, so a warm stroke does not allocate. Like `Rasterizer` it is
/// a value owning raw memory (no exclusivity checks in its loops), freed with it: it cannot be copied.
public struct ThinStroke: ~Copyable {
    /// The widest line (px) drawn here.
    public static let maxWidth = 2.0
    /// Segments whose pixel box has at most this many pixels are covered over the whole box.
    static let smallBox = 32
    /// Bytes after the mask that row kernels may read and write back unchanged.
    static let padding = 16

    public private(set) var width = 0
    public private(set) var height = 0
    /// The device row the mask's first row stands for (a band of a taller pixmap).
    public private(set) var originY = 0
    private var coverage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Per row, the first and last column written (first > last: nothing).
    private var spanFirst: UnsafeMutablePointer<Int32>
    private var spanLast: UnsafeMutablePointer<Int32>
    private var rowCapacity: Int
    private var minRow = Int.max, maxRow = -1
    /// The composited colour at each coverage, for `shadesColor`.
    private let shades: UnsafeMutablePointer<UInt32>
    private var shadesColor: UInt32? = nil

    public init() {
        capacity = 0; rowCapacity = 0
        coverage = .allocate(capacity: 1 + ThinStroke.padding)
        coverage.initialize(repeating: 0, count: 1 + ThinStroke.padding)
        spanFirst = .allocate(capacity: 1); spanLast = .allocate(capacity: 1)
        shades = .allocate(capacity: 256)
    }

    deinit {
        coverage.deallocate(); spanFirst.deallocate(); spanLast.deallocate(); shades.deallocate()
    }

    /// Sizes the mask for a device of `width` x `height` rows starting at `originY`, and forgets
    /// what was stroked and not composited.
    public mutating func reset(width: Int, height: Int, originY: Int = 0) {
        let w = max(1, width), h = max(1, height)
        if w * h > capacity {
            coverage.deallocate()
            capacity = w * h
            // (Padded: row kernels load and store a few bytes past a row's last column.)
            coverage = .allocate(capacity: capacity + ThinStroke.padding)
            coverage.initialize(repeating: 0, count: capacity + ThinStroke.padding)
        } else {
            clearTouched()
        }
        if h > rowCapacity {
            spanFirst.deallocate(); spanLast.deallocate()
            rowCapacity = h
            spanFirst = .allocate(capacity: h); spanLast = .allocate(capacity: h)
        }
        if w != self.width || h > self.height { coverage.update(repeating: 0, count: w * h) }
        self.width = w; self.height = h; self.originY = originY
        spanFirst.update(repeating: Int32.max, count: h)
        spanLast.update(repeating: -1, count: h)
        minRow = .max; maxRow = -1
    }

    /// Whether anything was stroked since the last composite.
    public var isEmpty: Bool { maxRow < minRow }

    /// Hints that the mask around device pixel (x, y), `reach` rows up and down, will be
    /// written soon (see `Pixmap.prefetch`).
    @inline(__always)
    public func prefetch(x: Double, y: Double, reach: Int) {
        guard x >= 0, x < Double(width), y >= Double(originY), y < Double(originY + height) else { return }
        let cx = Int(x), cy = Int(y) - originY
        for r in max(0, cy - reach)...min(height - 1, cy + reach) { nightmap_prefetch_write(coverage + r * width + cx) }
    }

    // MARK: Stroking

    /// Strokes a polyline (closed: the last point joins the first), dashed if the style says so.
    /// The style's join is drawn round (see the type's note); its cap is honoured.
    public mutating func stroke(_ pts: UnsafeBufferPointer<Point>, closed: Bool, style: StrokeStyle) {
        guard style.width > 0, style.width.isFinite, pts.count > 0 else { return }
        let hw = min(style.width, ThinStroke.maxWidth) / 2
        if !style.dashes.isEmpty, let pattern = DashPattern(style.dashes, offset: style.dashOffset) {
            dashed(pts, closed: closed, pattern: pattern, hw: hw, cap: style.cap)
        } else {
            solid(pts, closed: closed, hw: hw, cap: style.cap)
        }
    }

    private mutating func solid(_ pts: UnsafeBufferPointer<Point>, closed: Bool, hw: Double, cap: LineCap) {
        let n = pts.count
        let total = closed ? n + 1 : n
        // Segments are drawn one behind: the last one learns that it ends the line.
        var a = pts[0]
        var pending: (Point, Point)? = nil
        var first = true
        var previous = 0.0                              // the length of the segment before
        let r = hw + 0.5
        var i = 1
        while i < total {
            let b = pts[i < n ? i : 0]          // (the closing point: no division per point)
            i += 1
            let d = b - a
            guard d.x != 0 || d.y != 0, d.x.isFinite, d.y.isFinite else { continue }
            if let (p, q) = pending {
                previous = segment(p, q, hw: hw, start: first && !closed ? cap : .round, end: .round, joined: !first && previous >= r)
                first = false
            }
            pending = (a, b)
            a = b
        }
        if let (p, q) = pending {
            segment(p, q, hw: hw, start: first && !closed ? cap : .round, end: closed ? .round : cap, joined: !first && previous >= r)
        } else if cap != .butt && !closed, pts[0].x.isFinite, pts[0].y.isFinite {
            // All points coincide: round and square caps still draw a dot.
            dot(pts[0], hw: hw, square: cap == .square)
        }
    }

    private mutating func dashed(_ pts: UnsafeBufferPointer<Point>, closed: Bool, pattern: DashPattern, hw: Double, cap: LineCap) {
        // Segments are drawn one behind, so that the last of a dash learns it ends the dash.
        var from = pts[0]
        var startsDash = true
        var pending: (Point, Point, Bool)? = nil        // a segment held back, and whether it starts a dash
        var previous = 0.0                              // the length of the segment before in the dash
        let r = hw + 0.5
        func flush(endsDash: Bool) {
            guard let (p, q, s) = pending else { return }
            previous = segment(p, q, hw: hw, start: s ? cap : .round, end: endsDash ? cap : .round, joined: !s && previous >= r)
            pending = nil
        }
        pattern.walk(pts, closed: closed,
                     start: { from = $0; startsDash = true },
                     to: { q in
                         flush(endsDash: false)
                         if from != q { pending = (from, q, startsDash); startsDash = false }
                         from = q
                     },
                     end: { flush(endsDash: true) })
    }

    /// Coverage of one segment with the given end treatment (`.round` also stands for a join).
    ///
    /// `joined`: the segment before ended where this one starts, with a round end, and is at
    /// least hw + 0.5 long. Its coverage then already holds, at every pixel behind this segment's
    /// start, at least what a round start would give (its distance to the shared point bounds
    /// its distance to the segment before), so nothing behind the start is looked at: a third of
    /// a one-pixel segment's pixels, and most of the world view's are that short.
    /// Returns the segment's length (0 when it is not finite, and nothing is drawn).
    @discardableResult
    private mutating func segment(_ a: Point, _ b: Point, hw: Double, start: LineCap, end: LineCap, joined: Bool = false) -> Double {
        let v = b - a
        let len = v.length
        guard len > 0, len.isFinite, a.x.isFinite, a.y.isFinite else { return 0 }
        let r = hw + 0.5                                   // coverage reaches zero this far from the line
        let roundStart = start == .round, roundEnd = end == .round
        // How far past each end coverage can reach, along the line.
        func reach(_ c: LineCap) -> Double { c == .round ? r : (c == .square ? hw + 0.5 : 0.5) }
        let lo = joined ? 0 : -reach(start), hi = len + reach(end)
        // Pixels whose centres lie farther than r from the segment get nothing past a round end
        // (a join or a cap) and beside it; past a butt or square end, nothing lies farther from
        // the end point than the corner of its fade, r * sqrt(2). So the end points' box grown by
        // that much holds every covered pixel, found without the direction (whose division
        // then runs beside the rows). Its rows and columns:
        let grow = roundStart && roundEnd ? r : r * 1.4142135623730951
        let top = max(Double(originY), min(a.y, b.y) - grow), bottom = min(Double(originY + height), max(a.y, b.y) + grow)
        let left = max(0, min(a.x, b.x) - grow), right = min(Double(width), max(a.x, b.x) + grow)
        guard top < bottom, left < right else { return len }
        let dx = v.x / len, dy = v.y / len
        // Rows whose centres lie in [top, bottom].
        // (top >= 0 here, so truncation rounds down: ceil(v - 0.5) = trunc(v + 0.5) off exact halves.)
        let y0 = Int(top + 0.5), y1 = Int(bottom + 0.5) - 1
        guard y0 <= y1 else { return len }
        let squareStart = start == .square ? hw : 0, squareEnd = end == .square ? hw : 0
        let s = ThinSegmentRow.Segment(ax: a.x, ay: a.y, dx: dx, dy: dy, len: len, r: r, lo: lo, hi: hi,
                                       roundStart: roundStart, roundEnd: roundEnd,
                                       squareStart: squareStart, squareEnd: squareEnd)
        // A short segment (most of them: a world view's are one or two pixels long) is cheaper
        // over its whole box than row by row with an interval per row. Either way the row kernel
        // decides each pixel.
        let bx0 = Int(left + 0.5), bx1 = min(width - 1, Int(right + 0.5) - 1)
        if bx0 <= bx1 && (y1 - y0 + 1) * (bx1 - bx0 + 1) <= ThinStroke.smallBox {
            for y in y0...y1 {
                let row = y - originY
                guard row >= 0 && row < height else { continue }
                ThinSegmentRow.cover(s, y: y, x0: bx0, x1: bx1, base: coverage + row * width)
                mark(row, bx0, bx1)
            }
        } else {
            let steepX = abs(dx) > 1e-12, steepY = abs(dy) > 1e-12
            let invDx = steepX ? 1 / dx : 0, invDy = steepY ? 1 / dy : 0
            for y in y0...y1 {
                let row = y - originY
                guard row >= 0 && row < height else { continue }
                let cy = Double(y) + 0.5
                // Along and across the line for a pixel centre (cx, cy): t = t0 + cx dx, p = p0 - cx dy.
                let t0 = (cy - a.y) * dy - a.x * dx
                let p0 = (cy - a.y) * dx + a.x * dy
                var xl = left, xr = right
                if steepX {
                    let u = (lo - t0) * invDx, w = (hi - t0) * invDx
                    xl = max(xl, min(u, w)); xr = min(xr, max(u, w))
                } else if t0 <= lo || t0 >= hi { continue }
                if steepY {
                    let u = (p0 - r) * invDy, w = (p0 + r) * invDy
                    xl = max(xl, min(u, w)); xr = min(xr, max(u, w))
                } else if abs(p0) >= r { continue }
                guard xl < xr else { continue }
                let x0 = Int(xl + 0.5), x1 = min(width - 1, Int(xr + 0.5) - 1)
                guard x0 <= x1 else { continue }
                ThinSegmentRow.cover(s, y: y, x0: x0, x1: x1, base: coverage + row * width)
                mark(row, x0, x1)
            }
        }
        return len
    }

    /// A dot where a line has no length: a disc (round cap) or a square of side w.
    private mutating func dot(_ c: Point, hw: Double, square: Bool) {
        let r = hw + 0.5
        // (Off the band or the width: nothing, and no conversion of far coordinates to Int.)
        guard c.y + r > Double(originY), c.y - r < Double(originY + height), c.x + r > 0, c.x - r < Double(width) else { return }
        let y0 = max(originY, Int((c.y - r).rounded(.down))), y1 = min(originY + height, Int((c.y + r).rounded(.up)))
        let x0 = max(0, Int((c.x - r).rounded(.down))), x1 = min(width, Int((c.x + r).rounded(.up)))
        guard y0 < y1, x0 < x1 else { return }
        for y in y0..<y1 {
            let row = y - originY
            let base = coverage + row * width
            for x in x0..<x1 {
                let px = Double(x) + 0.5 - c.x, py = Double(y) + 0.5 - c.y
                let v = square ? min(max(r - abs(px), 0), 1) * min(max(r - abs(py), 0), 1)
                               : min(max(r - (px * px + py * py).squareRoot(), 0), 1)
                let value = UInt8(v * 255 + 0.5)
                if base[x] < value { base[x] = value }
            }
            mark(row, x0, x1 - 1)
        }
    }

    /// Notes that columns x0...x1 of a mask row may hold coverage (compositing visits them).
    /// (Without a branch: whether a segment's row reaches further than the row's span so far is
    /// as good as random.)
    @inline(__always)
    private mutating func mark(_ row: Int, _ x0: Int, _ x1: Int) {
        spanFirst[row] = min(spanFirst[row], Int32(truncatingIfNeeded: x0))
        spanLast[row] = max(spanLast[row], Int32(truncatingIfNeeded: x1))
        minRow = min(minRow, row)
        maxRow = max(maxRow, row)
    }

    // MARK: Compositing

    /// Source-over of `color` through the mask onto `pixmap` (only inside `clip`, if given), then
    /// clears the mask.
    public mutating func composite(_ color: PremultipliedColor, onto pixmap: Pixmap, clip: PixelRect? = nil) {
        precondition(pixmap.width == width && originY + height <= pixmap.height, "mask and pixmap sizes differ")
        guard maxRow >= minRow else { return }
        let packed = color.packed
        // The colour at each coverage, scaled as `Blend.scale` scales it (0 at 0), made again
        // only for another colour: a layer composites each of its lines.
        if shadesColor != packed {
            for a in 0..<256 as Range<UInt32> {
                shades[Int(a)] = a == 255 ? packed : Blend.scale(packed, a &+ (a >> 7))
            }
            shadesColor = packed
        }
        for row in minRow...maxRow {
            let touchedFirst = Int(spanFirst[row]), touchedLast = Int(spanLast[row])
            guard touchedFirst <= touchedLast else { continue }
            let y = row + originY
            let mask = coverage + row * width
            defer {
                (mask + touchedFirst).update(repeating: 0, count: touchedLast - touchedFirst + 1)
                spanFirst[row] = .max; spanLast[row] = -1
            }
            var first = touchedFirst, last = touchedLast
            if let c = clip {
                guard y >= c.y0 && y < c.y1 else { continue }
                first = max(first, c.x0); last = min(last, c.x1 - 1)
                guard first <= last else { continue }
            }
            let dst = pixmap.pixels + y * width
            // Sixteen mask bytes at a time, and of those the groups of four holding coverage,
            // composited four pixels at once, clear ones included (they leave their pixel as it
            // was): which pixels of a group are covered decides no branch.
            var x = first
            let end = last + 1
            while x + 16 <= end {
                var bits = ByteScan.nonZero16(mask + x)
                while bits != 0 {
                    let q = bits.trailingZeroBitCount & ~3
                    ThinStroke.over4(UnsafeRawPointer(mask + x + q).loadUnaligned(as: UInt32.self), shades, dst + x + q)
                    bits &= ~(0xF << UInt32(q))
                }
                x += 16
            }
            // The rest four at a time where the four stay in the row (past the span its bytes
            // are clear, and a clear byte leaves its pixel as it was) and, when clipped, within
            // the clip; then one at a time.
            let quadsEnd = clip == nil ? min(width, end + 3) : end
            while x + 4 <= quadsEnd {
                let quad = UnsafeRawPointer(mask + x).loadUnaligned(as: UInt32.self)
                if quad != 0 { ThinStroke.over4(quad, shades, dst + x) }
                x += 4
            }
            while x < end {
                if mask[x] != 0 { dst[x] = Blend.over(shades[Int(mask[x])], dst[x]) }
                x += 1
            }
        }
        minRow = .max; maxRow = -1
    }

    /// The shades of four coverage bytes (the low byte first) composited onto four pixels.
    @inline(__always)
    static func over4(_ bytes: UInt32, _ shades: UnsafeMutablePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>) {
        @inline(__always) func shade(_ k: UInt32) -> UInt32 { shades[Int(truncatingIfNeeded: (bytes >> (8 &* k)) & 255)] }
        #if arch(x86_64)
        SpanOver.sse2(SIMD2<Int64>(Int64(shade(0)) | Int64(shade(1)) << 32, Int64(shade(2)) | Int64(shade(3)) << 32), dst)
        #else
        for k in 0..<4 as Range<UInt32> { dst[Int(k)] = Blend.over(shade(k), dst[Int(k)]) }
        #endif
    }

    /// The coverage stroked so far at a device pixel, 0...255 (for tests).
    public func value(x: Int, y: Int) -> UInt8 {
        let row = y - originY
        guard x >= 0, x < width, row >= 0, row < height else { return 0 }
        return coverage[row * width + x]
    }

    private mutating func clearTouched() {
        guard maxRow >= minRow else { return }
        for row in minRow...maxRow where spanFirst[row] <= spanLast[row] {
            let first = Int(spanFirst[row]), last = Int(spanLast[row])
            (coverage + row * width + first).update(repeating: 0, count: last - first + 1)
        }
    }
}
