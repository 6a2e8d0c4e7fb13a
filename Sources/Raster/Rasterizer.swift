/// How overlapping contours decide what is inside.
public enum FillRule: Sendable { case nonZero, evenOdd }

/// Anti-aliased scan conversion by exact area coverage (the cell method of libart, FreeType and
/// AGG): every edge adds signed cover and area to the pixel cells it crosses, in 24.8 fixed point;
/// a sweep per row turns the running sums into coverage spans. It only emits coverage and never
/// decides colour: `fill` hands the spans to a `SpanBlitter`.
///
/// Because contributions are integers, two coincident edges of opposite direction cancel exactly:
/// polygons that share an edge (clipped tiles, adjacent features added to one rasterizer) meet
/// without a seam. Edges are clipped to the device box first; parts left of it become vertical
/// edges at x = 0 so that winding is kept. The storage is kept between uses: once warm, filling
/// does not allocate. It owns that storage as raw memory, freed with it: it cannot be copied.
public struct Rasterizer: PathSink, ~Copyable {
    @usableFromInline struct Cell { var x: Int32; var y: Int32; var cover: Int32; var area: Int32 }

    static let shift: Int32 = 8
    static let scale: Int32 = 256
    static let mask: Int32 = 255

    public private(set) var width: Int
    public private(set) var height: Int
    /// The device row the rasterizer's first row stands for: a rasterizer can cover a band of a
    /// taller pixmap (edges are given in pixmap coordinates; spans come out in them too).
    public private(set) var originY: Int = 0
    private var cells: UnsafeMutablePointer<Cell>
    private var cellCount = 0
    private var cellCapacity: Int
    private var sorted: UnsafeMutablePointer<Cell>
    private var sortedCapacity: Int
    private var tmp: UnsafeMutablePointer<Cell>
    private var rowStart: UnsafeMutablePointer<Int32>   // height + 2 entries
    private var rowCapacity: Int
    private var columnStart: UnsafeMutablePointer<Int32>
    private var columnCapacity: Int
    /// `fill(_:color:over:)`'s colour over the background at each coverage.
    private let shades: UnsafeMutablePointer<UInt32>

    // The cell being accumulated.
    // (Holding nothing, it is never stored: no flag says whether there is one.)
    private var cx: Int32 = 0, cy: Int32 = 0, ccover: Int32 = 0, carea: Int32 = 0
    private var minRow = Int32.max, maxRow = Int32.min
    /// Pitched views: edges are given on the flat map's screen and projected onto the ground
    /// seen in perspective (nil: edges are given on the screen).
    public var ground: GroundProjection? = nil
    /// The globe: edges are given on the flat map's screen and drawn on the sphere (see
    /// `SphereProjection`; it comes before `ground`).
    public var sphere: SphereProjection? = nil {
        didSet {
            if let sphere { limb = sphere.limb(); disc = sphere }
            lastSpherePoint = Point(.nan, .nan)
            discRowsValid = false
        }
    }
    /// The globe whose edge the coverage is cut at (by pixel centres) while the edges given were
    /// drawn on it (`onDisc`).
    private var disc: SphereProjection? = nil
    private var onDisc = false
    /// The globe: the winding number of the edges given about the far side's middle, made up
    /// for by the disc (`limb`, the last sphere's) when the cells are swept.
    private var antipodeWinding = 0
    private var limb: [Point] = []
    /// The pixels each row of the band shows of the globe (`disc`'s span by pixel centres,
    /// [lo, hi); empty where none), worked out when first needed for a band and a globe.
    private var discRows: [SIMD2<Int32>] = []
    private var discRowsValid = false
    /// The far side's pieces left of the disc, joined end to end: one edge along x = 0 from
    /// `farLeft.from` to `farLeft.to` (screen y), not added yet (see `addFarEdge`).
    private var farLeft: (from: Double, to: Double)? = nil
    /// Whether `addFarEdge` folds the far side into columns at x = 0 (false: it adds its edges
    /// as they are, what the folding must draw the same pixels as).
    var foldsFarSide = true
    /// The last edge's end on the sphere, for the next edge's start (a contour's edges share them).
    private var lastSpherePoint = Point(.nan, .nan), lastSphereUnit = SIMD3<Double>(0, 0, 1)

    // Path state in device space.
    private var start = Point(0, 0)
    private var last = Point(0, 0)
    private var open = false

    /// A rasterizer for a device of `width` x `height` pixels.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        cellCapacity = 4096
        cells = .allocate(capacity: cellCapacity)
        sortedCapacity = 4096
        sorted = .allocate(capacity: sortedCapacity)
        tmp = .allocate(capacity: sortedCapacity)
        rowCapacity = self.height + 2
        rowStart = .allocate(capacity: rowCapacity)
        columnCapacity = self.width + 2
        columnStart = .allocate(capacity: columnCapacity)
        shades = .allocate(capacity: 256)
    }

    /// The buffers go with the rasterizer (a value that owns raw memory, so it cannot be copied).
    deinit {
        cells.deallocate(); sorted.deallocate(); tmp.deallocate(); rowStart.deallocate(); columnStart.deallocate()
        shades.deallocate()
    }

    /// Forgets all edges and sets the device size (or the band of rows `originY ..< originY + height`).
    public mutating func reset(width: Int, height: Int, originY: Int = 0) {
        if originY != self.originY || self.height != max(1, height) { discRowsValid = false }
        self.width = max(1, width)
        self.height = max(1, height)
        self.originY = originY
        if rowCapacity < self.height + 2 {
            rowStart.deallocate()
            rowCapacity = self.height + 2
            rowStart = .allocate(capacity: rowCapacity)
        }
        reset()
    }

    /// Forgets all edges.
    public mutating func reset() {
        antipodeWinding = 0
        farLeft = nil
        onDisc = false
        cellCount = 0
        ccover = 0; carea = 0
        minRow = .max; maxRow = .min
        open = false
    }

    public var isEmpty: Bool { cellCount == 0 && ccover == 0 && carea == 0 }

    /// Cells accumulated so far (a measure of the work a fill will take).
    public var accumulatedCells: Int { cellCount }

    // MARK: PathSink

    public mutating func moveTo(_ p: Point) {
        if open { close() }
        start = p; last = p; open = true
    }

    public mutating func lineTo(_ p: Point) {
        if !open { moveTo(p); return }
        addEdge(last, p)
        last = p
    }

    public mutating func close() {
        if open { addEdge(last, start); last = start }
        open = false
    }

    /// Adds a closed polygon.
    public mutating func addPolygon(_ pts: UnsafeBufferPointer<Point>) {
        guard pts.count > 2 else { return }
        var prev = pts[pts.count - 1]
        for p in pts { addEdge(prev, p); prev = p }
    }

    // MARK: Clipping

    /// Adds one directed edge, clipped to the device box.
    @inline(__always)
    public mutating func addEdge(_ a: Point, _ b: Point) {
        if let s = sphere {
            let ua: SIMD3<Double>
            if a == lastSpherePoint { ua = lastSphereUnit } else { let m = s.mercator(a); ua = SphereProjection.unit(m.x, m.y) }
            let mb = s.mercator(b)
            addSphereEdge(s, a, b, ua, SphereProjection.unit(mb.x, mb.y))
            return
        }
        if let g = ground {
            let p = g.project(a, b)
            addScreenEdge(p.points.0, p.points.1)
            if p.count > 1 { addScreenEdge(p.points.2, p.points.3) }
            if p.count > 2 { addScreenEdge(p.points.4, p.points.5) }
            return
        }
        addScreenEdge(a, b)
    }

    /// Adds one directed edge of the flat map's screen whose ends lie on the globe at `ua` and
    /// `ub` (their `SphereProjection.unit`, which the caller has kept); without a globe, the
    /// edge as `addEdge(a, b)` adds it.
    @inline(__always)
    public mutating func addEdge(_ a: Point, _ b: Point, units ua: SIMD3<Double>, _ ub: SIMD3<Double>) {
        if let s = sphere { addSphereEdge(s, a, b, ua, ub) } else { addEdge(a, b) }
    }

    @inline(__always)
    private mutating func addSphereEdge(_ s: SphereProjection, _ a: Point, _ b: Point, _ ua: SIMD3<Double>, _ ub: SIMD3<Double>) {
        antipodeWinding += s.antipodeCrossing(a, b)
        onDisc = true
        lastSpherePoint = b; lastSphereUnit = ub
        s.forEachEdge(a, b, ua, ub) { p, q, far in if far { addFarEdge(p, q) } else { addScreenEdge(p, q) } }
    }

    /// Adds one directed edge of the screen, clipped to the device box.
    @inline(__always)
    mutating func addScreenEdge(_ a: Point, _ b: Point) {
        let h = Double(height), w = Double(width), oy = Double(originY)
        var x1 = a.x, y1 = a.y - oy, x2 = b.x, y2 = b.y - oy
        guard x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else { return }
        if y1 == y2 { return }                       // horizontal edges carry no cover
        if (y1 <= 0 && y2 <= 0) || (y1 >= h && y2 >= h) { return }
        if x1 >= w && x2 >= w { return }             // right of the box: affects nothing visible
        // Clip vertically.
        if y1 < 0 || y1 > h || y2 < 0 || y2 > h {
            let dy = y2 - y1
            let t0 = ((y1 < y2 ? 0 : h) - y1) / dy
            let t1 = ((y1 < y2 ? h : 0) - y1) / dy
            let ta = max(0, t0), tb = min(1, t1)
            if ta >= tb { return }
            let dx = x2 - x1
            let nx1 = x1 + dx * ta, ny1 = y1 + dy * ta
            let nx2 = x1 + dx * tb, ny2 = y1 + dy * tb
            x1 = nx1; y1 = min(max(ny1, 0), h); x2 = nx2; y2 = min(max(ny2, 0), h)
        }
        // Clip horizontally: left parts become vertical at 0, right parts are dropped.
        if x1 < 0 || x2 < 0 || x1 > w || x2 > w {
            clipX(x1, y1, x2, y2, w)
        } else {
            line(x1, y1, x2, y2)
        }
    }

    /// Adds an edge of the globe's far side, laid on the circle just outside its disc: what it
    /// does to the pixels the globe shows is all that counts (the others are cut away when the
    /// cells are swept). Wholly right of the disc's pixels in each of its rows, it does nothing
    /// to them; wholly left of them, it adds its cover to each pixel of those rows as an edge
    /// along x = 0 from its start's y to its end's does, and such edges end to end are one
    /// edge (cover adds up by rows): the far side's arcs, hundreds of pixels long, become a few
    /// short columns of cells. Otherwise (near the disc's top and bottom) it is added as it is.
    @inline(__always)
    mutating func addFarEdge(_ a: Point, _ b: Point) {
        guard foldsFarSide else { addScreenEdge(a, b); return }
        let oy = Double(originY)
        let y1 = a.y - oy, y2 = b.y - oy
        guard y1.isFinite, y2.isFinite, a.x.isFinite, b.x.isFinite, y1 != y2 else { return }
        let h = Double(height)
        if (y1 <= 0 && y2 <= 0) || (y1 >= h && y2 >= h) { return }
        if !discRowsValid { makeDiscRows() }
        let r0 = max(0, Int(min(y1, y2).rounded(.down))), r1 = min(height - 1, Int(max(y1, y2).rounded(.down)))
        // (Row by row, the x range of the part of the edge in the row.)
        let dxdy = (b.x - a.x) / (y2 - y1)
        var left = true, right = true
        if r0 <= r1 {
            for r in r0...r1 {
                let span = discRows[r]
                guard span.x < span.y else { continue }
                let xa = a.x + (min(max(Double(r), min(y1, y2)), max(y1, y2)) - y1) * dxdy
                let xb = a.x + (min(max(Double(r + 1), min(y1, y2)), max(y1, y2)) - y1) * dxdy
                if !(max(xa, xb) < Double(span.x)) { left = false }
                if !(min(xa, xb) >= Double(span.y)) { right = false }
            }
        }
        if right { return }
        guard left else { addScreenEdge(a, b); return }
        if let f = farLeft, f.to == a.y {
            farLeft = (f.from, b.y)
        } else {
            flushFarLeft()
            farLeft = (a.y, b.y)
        }
    }

    /// Adds the far side's pending edge along x = 0 (`addFarEdge`).
    private mutating func flushFarLeft() {
        guard let f = farLeft else { return }
        farLeft = nil
        addScreenEdge(Point(-1, f.from), Point(-1, f.to))
    }

    /// Works out `discRows` for the band and the globe.
    private mutating func makeDiscRows() {
        discRowsValid = true
        discRows = [SIMD2<Int32>](repeating: SIMD2(0, 0), count: height)
        guard let disc else { return }
        for r in 0..<height {
            guard let span = disc.discSpan(Double(r + originY) + 0.5) else { continue }
            let lo = (span.0 - 0.5).rounded(.up), hi = (span.1 - 0.5).rounded(.down) + 1
            guard lo.isFinite, hi.isFinite else { continue }
            discRows[r] = SIMD2(Int32(clamping: Int(max(min(lo, 1e9), -1e9))), Int32(clamping: Int(max(min(hi, 1e9), -1e9))))
        }
    }

    private mutating func clipX(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ w: Double) {
        // Split at x = 0 and x = w into at most three pieces, in order along the edge.
        var ts: (Double, Double) = (2, 2)
        let dx = x2 - x1
        if dx != 0 {
            var a = (0 - x1) / dx, b = (w - x1) / dx
            if a > b { swap(&a, &b) }
            ts = (a, b)
        }
        var px = x1, py = y1, pt = 0.0
        for k in 0..<3 {
            let t = k == 0 ? ts.0 : (k == 1 ? ts.1 : 1.0)
            guard t > pt && t <= 1 else { continue }
            let nx = t == 1 ? x2 : x1 + dx * t
            let ny = t == 1 ? y2 : y1 + (y2 - y1) * t
            let mx = x1 + dx * (pt + t) / 2
            if mx < w {
                if mx <= 0 { line(0, py, 0, ny) } else { line(min(max(px, 0), w), py, min(max(nx, 0), w), ny) }
            }
            px = nx; py = ny; pt = t
        }
    }

    /// The seen disc's edge `times` times (negative: turned the other way), for the winding
    /// the globe's far side took (see `SphereProjection`).
    private mutating func addLimb(times: Int) {
        antipodeWinding = 0
        let ring = limb
        guard ring.count > 2 else { return }
        for _ in 0..<min(abs(times), 8) {
            var prev = ring[ring.count - 1]
            for p in ring {
                if times > 0 { addFarEdge(prev, p) } else { addFarEdge(p, prev) }
                prev = p
            }
        }
    }

    // MARK: Cells

    /// Makes (x, y) the cell being accumulated, storing the one before unless it is the same
    /// cell or holds nothing (`renderLine` notes the rows its cells lie in). Without a branch,
    /// as whether consecutive contributions share a cell is as good as random for short edges:
    /// the cell is always written at the end of the list, which grows only when it is kept.
    @inline(__always)
    private mutating func setCell(_ x: Int32, _ y: Int32) {
        if cellCount == cellCapacity { growCells() }
        // (Comparisons combined by bit operations: `&&` would branch.)
        let moved: Int32 = (x ^ cx) | (y ^ cy) != 0 ? 1 : 0
        let keep = moved & ((ccover | carea) != 0 ? 1 : 0)
        cells[cellCount] = Cell(x: cx, y: cy, cover: ccover, area: carea)
        cellCount &+= Int(keep)
        ccover &= moved &- 1                               // cleared when moved
        carea &= moved &- 1
        cx = x; cy = y
    }

    /// Stores the cell being accumulated (if it holds anything) and starts none.
    private mutating func flushCell() {
        setCell(.max, .max)
    }

    private mutating func growCells() {
        let n = cellCapacity * 2
        let c = UnsafeMutablePointer<Cell>.allocate(capacity: n)
        c.moveInitialize(from: cells, count: cellCount)
        cells.deallocate()
        cells = c; cellCapacity = n
    }

    /// One edge in device space, already inside [0, w] x [0, h].
    private mutating func line(_ fx1: Double, _ fy1: Double, _ fx2: Double, _ fy2: Double) {
        // Inputs are clipped to the non-negative device box, so truncation after +0.5 rounds.
        let x1 = Int32(fx1 * 256 + 0.5), y1 = Int32(fy1 * 256 + 0.5)
        let x2 = Int32(fx2 * 256 + 0.5), y2 = Int32(fy2 * 256 + 0.5)
        renderLine(x1, y1, x2, y2)
    }

    /// `p / d` rounded down, and the remainder (0 ..< d), for d > 0, without a branch.
    @inline(__always)
    private static func floorDivide<T: FixedWidthInteger & SignedInteger>(_ p: T, _ d: T) -> (T, T) {
        let q = p / d, r = p % d
        let negative = r >> (T.bitWidth - 1)            // -1 when the remainder is negative
        return (q &+ negative, r &+ (d & negative))
    }

    private mutating func renderLine(_ x1: Int32, _ y1: Int32, _ x2: Int32, _ y2: Int32) {
        // The steps' products stay under 2^31 on a device narrower than 32768 px: 32-bit
        // arithmetic then (a 64-bit division checks at run time whether its operands fit in 32
        // bits, a branch that the signs of the operands make unpredictable).
        if width < 32768 { renderLine(x1, y1, x2, y2, Int32.self) } else { renderLine(x1, y1, x2, y2, Int64.self) }
    }

    @inline(__always)
    private mutating func renderLine<T: FixedWidthInteger & SignedInteger>(_ x1: Int32, _ y1: Int32, _ x2: Int32, _ y2: Int32,
                                                                         _: T.Type) {
        let shift = Rasterizer.shift, scale = Rasterizer.scale, mask = Rasterizer.mask
        var ey1 = y1 >> shift
        let ey2 = y2 >> shift
        let fy1 = y1 & mask, fy2 = y2 & mask
        setCell(x1 >> shift, ey1)
        minRow = min(minRow, min(ey1, ey2))
        maxRow = max(maxRow, max(ey1, ey2))

        let dx = T(x2) &- T(x1)
        // Upwards or downwards by arithmetic, not by branch.
        let up = (y2 &- y1) >> 31                        // -1 upwards, else 0
        let dy = T((y2 &- y1) ^ up) &- T(up)             // |y2 - y1|
        let incr: Int32 = 1 | up
        let first: Int32 = scale & ~up
        // What is left of the first row (its part of the row height), times dx.
        let p = T((fy1 & up) | ((scale &- fy1) & ~up)) &* dx

        if (ey2 &- ey1) &* (ey2 &- ey1) <= 1 {
            // One row or two (most edges of a map at its zoom), without a branch: where the
            // edge leaves the first row is computed either way (with a divisor of at least 1)
            // and chosen. A single row's second piece is the end point itself, which adds nothing.
            let two = ey1 != ey2 ? Int32(-1) : 0
            let xFrom = x1 &+ Int32(truncatingIfNeeded: Rasterizer.floorDivide(p, max(1, dy)).0)
            let xa = (xFrom & two) | (x2 & ~two), ya = (first & two) | (fy2 & ~two)
            renderHLine(ey1, x1, fy1, xa, ya, T.self)
            setCell(xa >> shift, ey2)
            renderHLine(ey2, xa, ((scale &- first) & two) | (fy2 & ~two), x2, fy2, T.self)
            return
        }

        if dx == 0 {
            let ex = x1 >> shift
            let twoFx = (x1 - (ex << shift)) << 1
            var delta = first - fy1
            ccover &+= delta; carea &+= twoFx &* delta
            ey1 &+= incr
            setCell(ex, ey1)
            delta = first + first - scale
            let area = twoFx &* delta
            while ey1 != ey2 {
                ccover &+= delta; carea &+= area
                ey1 &+= incr
                setCell(ex, ey1)
            }
            delta = fy2 - scale + first
            ccover &+= delta; carea &+= twoFx &* delta
            return
        }

        // Three rows or more.
        var (delta, mod) = Rasterizer.floorDivide(p, dy)
        var xFrom = x1 &+ Int32(truncatingIfNeeded: delta)
        renderHLine(ey1, x1, fy1, xFrom, first, T.self)
        ey1 &+= incr
        setCell(xFrom >> shift, ey1)
        do {
            let (lift, rem) = Rasterizer.floorDivide(T(scale) &* dx, dy)
            mod = mod &- dy
            while ey1 != ey2 {
                mod = mod &+ rem
                let carry = ~(mod >> (T.bitWidth - 1))   // -1 when mod >= 0: one more
                mod = mod &- (dy & carry)
                let xTo = xFrom &+ Int32(truncatingIfNeeded: lift &- carry)
                renderHLine(ey1, xFrom, scale - first, xTo, first, T.self)
                xFrom = xTo
                ey1 &+= incr
                setCell(xFrom >> shift, ey1)
            }
        }
        renderHLine(ey1, xFrom, scale - first, x2, fy2, T.self)
    }

    /// The part of an edge within row `ey`, from (x1, y1) to (x2, y2) (y1, y2 in 0...256 of the
    /// row), starting in the cell being accumulated.
    @inline(__always)
    private mutating func renderHLine<T: FixedWidthInteger & SignedInteger>(_ ey: Int32, _ x1: Int32, _ y1: Int32, _ x2: Int32,
                                                                          _ y2: Int32, _: T.Type) {
        let shift = Rasterizer.shift, scale = Rasterizer.scale, mask = Rasterizer.mask
        let ex1 = x1 >> shift
        let ex2 = x2 >> shift
        let fx1 = x1 & mask, fx2 = x2 & mask
        let left = (x2 &- x1) >> 31                      // -1 leftwards, else 0
        let first: Int32 = scale & ~left
        let dx = T((x2 &- x1) ^ left) &- T(left)         // |x2 - x1|
        let dy = y2 - y1
        // The product of a column's part of the row height and what is left of that column.
        let p = T((fx1 & left) | ((scale &- fx1) & ~left)) &* T(dy)
        if (ex2 &- ex1) &* (ex2 &- ex1) > 1 {
            // Three cells or more.
            let incr: Int32 = 1 | left
            var (delta, mod) = Rasterizer.floorDivide(p, dx)
            ccover &+= Int32(truncatingIfNeeded: delta); carea &+= (fx1 + first) &* Int32(truncatingIfNeeded: delta)
            var ex = ex1 &+ incr
            setCell(ex, ey)
            var y = y1 &+ Int32(truncatingIfNeeded: delta)
            let (lift, rem) = Rasterizer.floorDivide(T(scale) &* T(dy), dx)
            mod = mod &- dx
            while ex != ex2 {
                mod = mod &+ rem
                let carry = ~(mod >> (T.bitWidth - 1))
                mod = mod &- (dx & carry)
                delta = lift &- carry
                ccover &+= Int32(truncatingIfNeeded: delta); carea &+= scale &* Int32(truncatingIfNeeded: delta)
                y &+= Int32(truncatingIfNeeded: delta)
                ex &+= incr
                setCell(ex, ey)
            }
            let d = y2 - y
            ccover &+= d; carea &+= (fx2 + scale - first) &* d
            return
        }
        // One cell or two, without a branch: the two-cell split is computed either way (with a
        // divisor of at least 1) and chosen, or the whole piece goes to the one cell. Moving to
        // the same cell keeps accumulating it. (Also right when the piece has no height: all
        // of it is zero, and the cell ends up at ex2.)
        let split = Int32(truncatingIfNeeded: Rasterizer.floorDivide(p, max(1, dx)).0)
        let two = Int32(truncatingIfNeeded: (ex1 ^ ex2) != 0 ? -1 : 0)    // -1 for two cells
        let c1 = (split & two) | (dy & ~two)
        ccover &+= c1; carea &+= (fx1 &+ ((first & two) | (fx2 & ~two))) &* c1
        setCell(ex2, ey)
        let c2 = (dy &- split) & two
        ccover &+= c2; carea &+= (fx2 + scale - first) &* c2
    }

    // MARK: Sweep

    /// Sorts the cells by row, then by column: two stable counting-sort passes (by x, then by y),
    /// linear in the cell count with no data-dependent branches. `rowStart` ends up indexing rows.
    private mutating func sortCells() {
        if antipodeWinding != 0 { addLimb(times: antipodeWinding) }
        flushFarLeft()
        flushCell()
        let n = cellCount
        guard n > 0 else { return }
        if sortedCapacity < n {
            sorted.deallocate(); tmp.deallocate()
            sortedCapacity = max(n, sortedCapacity * 2)
            sorted = .allocate(capacity: sortedCapacity)
            tmp = .allocate(capacity: sortedCapacity)
        }
        let cols = width + 1, rows = height + 1
        if columnCapacity < cols + 1 {
            columnStart.deallocate()
            columnCapacity = cols + 1
            columnStart = .allocate(capacity: columnCapacity)
        }
        // (A negative coordinate is a large unsigned one: one comparison per axis.)
        @inline(__always) func inside(_ c: Cell) -> Bool {
            (UInt32(bitPattern: c.x) < UInt32(cols) ? 1 : 0) & (UInt32(bitPattern: c.y) < UInt32(rows) ? 1 : 0) != 0
        }
        // Few cells (a small shape): the histograms are cleared and summed over the box of the
        // cells inside alone, so the shape costs its cells, not the pixmap's width and height.
        var x0 = 0, x1 = cols - 1, y0 = 0, y1 = rows - 1
        let small = 2 * n < cols + rows
        if small {
            var loX = Int32.max, hiX = Int32.min, loY = Int32.max, hiY = Int32.min
            for i in 0..<n {
                let c = cells[i]
                if inside(c) { loX = min(loX, c.x); hiX = max(hiX, c.x); loY = min(loY, c.y); hiY = max(hiY, c.y) }
            }
            guard loX <= hiX else { minRow = .max; maxRow = .min; return }
            x0 = Int(loX); x1 = Int(hiX); y0 = Int(loY); y1 = Int(hiY)
            // (The sweeps read the rows of cells only.)
            minRow = max(minRow, loY); maxRow = min(maxRow, hiY)
        }
        // Pass 1: by x into `tmp` (cells outside the box, which clipping prevents, are dropped).
        // (Both histograms in one pass: the rows' does not depend on the order.)
        (columnStart + x0).update(repeating: 0, count: x1 - x0 + 2)
        (rowStart + y0).update(repeating: 0, count: y1 - y0 + 2)
        var m = 0
        for i in 0..<n {
            let c = cells[i]
            if inside(c) { columnStart[Int(c.x) + 1] &+= 1; rowStart[Int(c.y) + 1] &+= 1; m += 1 }
        }
        for x in x0...x1 { columnStart[x + 1] &+= columnStart[x] }
        if m == n {
            // (Every cell inside, as clipping makes them: no test in the scatter.)
            for i in 0..<n {
                let c = cells[i]
                let at = Int(columnStart[Int(c.x)])
                tmp[at] = c
                columnStart[Int(c.x)] = Int32(at + 1)
            }
        } else {
            for i in 0..<n {
                let c = cells[i]
                guard inside(c) else { continue }
                let at = Int(columnStart[Int(c.x)])
                tmp[at] = c
                columnStart[Int(c.x)] = Int32(at + 1)
            }
        }
        // Pass 2: stable by y into `sorted`.
        for r in y0...y1 { rowStart[r + 1] &+= rowStart[r] }
        for i in 0..<m {
            let c = tmp[i]
            let y = Int(c.y)
            let at = Int(rowStart[y])
            sorted[at] = c
            rowStart[y] = Int32(at + 1)
        }
        // rowStart[r] is now the end of row r: shift back to starts.
        var prev: Int32 = 0
        for r in y0...y1 {
            let end = rowStart[r]
            rowStart[r] = prev
            prev = end
        }
        rowStart[y1 + 1] = prev
    }

    @inline(__always)
    static func alpha(_ area: Int32, _ rule: FillRule) -> UInt32 {
        var cover = area >> 9
        if cover < 0 { cover = -cover }
        if rule == .evenOdd {
            cover &= 511
            if cover > 256 { cover = 512 - cover }
        }
        return cover > 255 ? 255 : UInt32(cover)
    }

    /// Sweeps the accumulated edges and hands coverage to `blitter`, then forgets the edges.
    public mutating func sweep<B: SpanBlitter>(_ rule: FillRule, _ blitter: inout B) {
        // (Each rule its own loop: the rule is then a constant in the coverage of every pixel.)
        if rule == .nonZero { sweepRows(.nonZero, &blitter) } else { sweepRows(.evenOdd, &blitter) }
    }

    @inline(__always)
    private mutating func sweepRows<B: SpanBlitter>(_ rule: FillRule, _ blitter: inout B) {
        sortCells()
        defer { reset() }
        guard cellCount > 0 else { return }
        let lastRow = min(Int(maxRow), height - 1)
        var r = max(0, Int(minRow))
        if onDisc, disc != nil {
            if !discRowsValid { makeDiscRows() }
            // On the globe: only the pixels whose centres show the sphere.
            while r <= lastRow {
                let y = r &+ originY
                defer { r += 1 }
                let span = discRows[r]
                let lo = Int(span.x), hi = Int(span.y)
                guard hi > lo else { continue }
                forEachCoverage(row: r, rule,
                                pixel: { x, a in if a > 0 && x >= lo && x < hi { blitter.blitPixel(x: x, y: y, alpha: a) } },
                                span: { x0, x1, a in
                                    let s0 = max(x0, lo), s1 = min(x1, hi)
                                    if a > 0 && s1 > s0 { blitter.blitSpan(x: s0, y: y, count: s1 - s0, alpha: a) }
                                })
            }
            return
        }
        while r <= lastRow {
            let y = r &+ originY
            forEachCoverage(row: r, rule,
                            pixel: { x, a in if a > 0 { blitter.blitPixel(x: x, y: y, alpha: a) } },
                            span: { x0, x1, a in if a > 0 { blitter.blitSpan(x: x0, y: y, count: x1 - x0, alpha: a) } })
            r += 1
        }
    }

    /// The coverage of sorted row `r`, left to right: single pixels where an edge crosses, and
    /// spans [x0, x1) of one coverage between them, all inside [0, width). Coverage may be 0
    /// (between two edges of the shape, outside it).
    @inline(__always)
    private func forEachCoverage(row r: Int, _ rule: FillRule, pixel: (Int, UInt32) -> Void, span: (Int, Int, UInt32) -> Void) {
        let w = Int32(width)
        var i = Int(rowStart[r])
        let end = Int(rowStart[r + 1])
        var cover: Int32 = 0
        while i < end {
            var x = sorted[i].x
            var area = sorted[i].area
            cover &+= sorted[i].cover
            i += 1
            while i < end && sorted[i].x == x {
                area &+= sorted[i].area; cover &+= sorted[i].cover; i += 1
            }
            if x >= w { break }
            if area != 0 {
                if x >= 0 { pixel(Int(x), Rasterizer.alpha((cover << 9) &- area, rule)) }
                x += 1
            }
            let nx = i < end ? min(sorted[i].x, w) : w
            if nx > x && cover != 0 {
                let sx = max(x, 0)
                if nx > sx { span(Int(sx), Int(nx), Rasterizer.alpha(cover << 9, rule)) }
            }
        }
    }

    /// Fills the accumulated edges with a solid colour and forgets them.
    public mutating func fill(_ pixmap: Pixmap, color: PremultipliedColor, rule: FillRule = .nonZero) {
        fill(pixmap, with: SolidBlitter(pixmap: pixmap, color: color), rule: rule)
    }

    /// Fills the accumulated edges with what `blitter` paints (an image, a pattern, a colour)
    /// into `pixmap`, and forgets them. `aliased`: a pixel is in or out by its coverage reaching
    /// half, its centre (tiles that meet leave no seam; `fill-antialias: false`).
    public mutating func fill<B: SpanBlitter>(_ pixmap: Pixmap, with blitter: B, rule: FillRule = .nonZero, aliased: Bool = false) {
        precondition(pixmap.width == width && originY + height <= pixmap.height, "rasterizer and pixmap sizes differ")
        if aliased {
            var b = ThresholdBlitter(blitter)
            sweep(rule, &b)
        } else {
            var b = blitter
            sweep(rule, &b)
        }
    }

    /// Clears the rasterizer's rows of `pixmap` to `background` and fills the accumulated edges
    /// with `color` over it, writing each pixel once: the same pixels as `clear` then `fill`, with
    /// no pixel read (a map's land over its sea: most of the frame, painted once instead of twice).
    public mutating func fill(_ pixmap: Pixmap, color: PremultipliedColor, over background: PremultipliedColor,
                              rule: FillRule = .nonZero) {
        precondition(pixmap.width == width && originY + height <= pixmap.height, "rasterizer and pixmap sizes differ")
        sortCells()
        defer { reset() }
        // The colour over the background at each coverage, as `SolidBlitter` blends it.
        let bg = background.packed
        for a in 0..<256 {
            let k = UInt32(a) &+ UInt32(a >> 7)
            shades[a] = a == 255 && color.packed >> 24 == 255 ? color.packed : Blend.over(Blend.scale(color.packed, k), bg)
        }
        shades[0] = bg
        if rule == .nonZero { fillRows(pixmap, bg, .nonZero) } else { fillRows(pixmap, bg, .evenOdd) }
    }

    /// `fill(_:color:over:rule:)`'s rows, the rule a constant in each copy.
    @inline(__always)
    private func fillRows(_ pixmap: Pixmap, _ bg: UInt32, _ rule: FillRule) {
        for r in 0..<height {
            let row = pixmap.pixels + (r + originY) * width
            var done = 0                  // pixels before this one are written
            @inline(__always) func paint(_ x0: Int, _ x1: Int, _ v: UInt32) {
                if x0 > done { (row + done).update(repeating: bg, count: x0 - done) }
                (row + x0).update(repeating: v, count: x1 - x0)
                done = x1
            }
            if cellCount > 0 && r >= Int(minRow) && r <= Int(maxRow) {
                forEachCoverage(row: r, rule,
                                pixel: { x, a in if x >= done { paint(x, x + 1, shades[Int(a)]) } },
                                span: { x0, x1, a in
                                    let sx = max(x0, done)
                                    if x1 > sx { paint(sx, x1, shades[Int(a)]) }
                                })
            }
            if done < width { (row + done).update(repeating: bg, count: width - done) }
        }
    }
}
