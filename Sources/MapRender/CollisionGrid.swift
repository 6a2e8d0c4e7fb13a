import MapCore

/// The boxes and circles placed symbol parts have claimed, filed by MapLibre's collision grid
/// (GL JS `symbol/grid_index.ts`, with the hit rules of `symbol/collision_index.ts`), so that
/// placement asks whether a new part may go somewhere by looking only at the shapes filed in
/// the cells it covers. Its answers are MapLibre's:
///
/// - The grid covers the viewport and `viewportPadding` px around it, in 25-px cells; shapes
///   are given in screen px and filed in grid coordinates (screen + padding), like MapLibre's.
///   Shapes reaching past the grid are filed in its border cells; a query entirely outside the
///   grid meets nothing, and a box query covering the whole grid hits even an empty grid.
/// - Box against box counts touching edges; circle against circle needs (r1 + r2)² > d²;
///   circle against box is exact (the corners are round) and counts touching.
/// - A shape blocks a query only if the query's overlap mode does not allow going over the
///   shape's (`OverlapMode.allowsOverlap(over:)`) and, when the query names a collision group,
///   the shape is of that group (crossSourceCollisions false: one group per source).
///
/// Where it differs from MapLibre, it is on input MapLibre never produces: a query with mode
/// `always` answers no hit (MapLibre's placement never asks then); a box or circle with a NaN
/// or infinite side, an inverted box or a negative radius is never filed and never hits; and a
/// query budget (`budgetPerFrame`) bounds the work of absurd data. The storage is kept between
/// frames: once warm, a frame's resets, inserts and queries allocate nothing.
struct CollisionGrid {
    /// Px around the viewport where symbols still collide, so that most of the changes a symbol
    /// crossing the edge causes happen out of sight (MapLibre's `viewportPadding`).
    static let viewportPadding = 100.0
    /// MapLibre's cell side, in px.
    static let cellSize = 25.0
    /// Shapes a frame's queries may read (one per cell a shape is read in) before every query
    /// that would read one counts as a hit: only absurd data (thousands of overlapping symbols
    /// allowed to overlap, piled on one spot) could use them up, and
    /// placement then still ends.
    static let budgetPerFrame = 4_000_000
    /// Cells a shape may cover and still be filed in them; wider shapes (rare: a symbol the
    /// size of a quarter of a screen) are kept in one list every query reads, so that a pile
    /// of huge symbols costs memory in proportion to their number, not their area.
    static let widestFiled = 256
    /// Cells per side at most: a larger viewport (over 25 000 px) gets larger cells.
    private static let maxCellsPerSide = 1024

    /// One filed shape, in grid coordinates.
    private struct Entry {
        /// A box: minX, minY, maxX, maxY. A circle: centre x, centre y, radius (`d` unused).
        var a, b, c, d: Double
        var isCircle: Bool
        var overlap: OverlapMode
        var group: Int
        /// The first column and row of the cells it is filed in. A query reads it in every cell
        /// the two share but tests it only in the first of them (column and row the larger of
        /// the two firsts), so once per query.
        var column: Int32, row: Int32
    }

    /// The grid's size in px (viewport + 2 x padding), and the viewport's right and bottom
    /// edges in grid coordinates (MapLibre's `screenRightBoundary`, `screenBottomBoundary`).
    private(set) var width = 2 * CollisionGrid.viewportPadding, height = 2 * CollisionGrid.viewportPadding
    private var screenRight = CollisionGrid.viewportPadding, screenBottom = CollisionGrid.viewportPadding
    private var columns = 1, rows = 1
    /// Cells per px, MapLibre's `xScale` and `yScale` (1/25 but for the rounding up of the count).
    private var xScale = 1 / CollisionGrid.cellSize, yScale = 1 / CollisionGrid.cellSize
    /// Per cell, its first link (-1: none); per link, the next link of its cell and its entry.
    private var head: [Int32] = []
    private var next: [Int32] = []
    private var linkEntry: [Int32] = []
    private var entries: [Entry] = []
    /// The entries too wide to file in cells.
    private var wide: [Int32] = []
    private(set) var budget = CollisionGrid.budgetPerFrame

    init() { reset(width: 0, height: 0) }

    /// Empties the grid for a viewport of `width` x `height` device px (NaN, infinite or
    /// negative sizes count as 0).
    mutating func reset(width: Double, height: Double) {
        let w = width.isFinite ? max(width, 0) : 0, h = height.isFinite ? max(height, 0) : 0
        self.width = w + 2 * Self.viewportPadding
        self.height = h + 2 * Self.viewportPadding
        screenRight = w + Self.viewportPadding
        screenBottom = h + Self.viewportPadding
        columns = Self.cellCount(self.width)
        rows = Self.cellCount(self.height)
        xScale = Double(columns) / self.width
        yScale = Double(rows) / self.height
        head.removeAll(keepingCapacity: true)
        head.append(contentsOf: repeatElement(-1, count: columns * rows))
        next.removeAll(keepingCapacity: true)
        linkEntry.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        wide.removeAll(keepingCapacity: true)
        budget = Self.budgetPerFrame
    }

    private static func cellCount(_ size: Double) -> Int {
        Int(min((size / cellSize).rounded(.up), Double(maxCellsPerSide)))
    }

    /// The column and row a grid coordinate falls in, clamped to the grid (finite input only).
    @inline(__always) private func column(_ x: Double) -> Int {
        Int(max(0, min(Double(columns - 1), (x * xScale).rounded(.down))))
    }
    @inline(__always) private func row(_ y: Double) -> Int {
        Int(max(0, min(Double(rows - 1), (y * yScale).rounded(.down))))
    }

    /// Whether a box can take part: finite sides, min not past max.
    @inline(__always) private static func isValid(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        x1.isFinite && y1.isFinite && x2.isFinite && y2.isFinite && x1 <= x2 && y1 <= y2
    }

    // MARK: Filing

    /// Files a box (screen px) placed with `overlap` in collision group `group`.
    mutating func insert(_ box: FrameDescription.ScreenBox, overlap: OverlapMode, group: Int = 0) {
        let p = Self.viewportPadding
        let x1 = box.minX + p, y1 = box.minY + p, x2 = box.maxX + p, y2 = box.maxY + p
        guard Self.isValid(x1, y1, x2, y2) else { return }
        file(Entry(a: x1, b: y1, c: x2, d: y2, isCircle: false, overlap: overlap, group: group, column: 0, row: 0),
             x1, y1, x2, y2)
    }

    /// Files a circle (centre and radius in screen px) placed with `overlap` in collision group
    /// `group`, in the cells of the square around it (MapLibre's `insertCircle`).
    mutating func insertCircle(x: Double, y: Double, radius: Double, overlap: OverlapMode, group: Int = 0) {
        let cx = x + Self.viewportPadding, cy = y + Self.viewportPadding
        let x1 = cx - radius, y1 = cy - radius, x2 = cx + radius, y2 = cy + radius
        guard radius >= 0, Self.isValid(x1, y1, x2, y2) else { return }
        file(Entry(a: cx, b: cy, c: radius, d: 0, isCircle: true, overlap: overlap, group: group, column: 0, row: 0),
             x1, y1, x2, y2)
    }

    private mutating func file(_ entry: Entry, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        let c1 = column(x1), c2 = column(x2), r1 = row(y1), r2 = row(y2)
        let cells = (c2 - c1 + 1) * (r2 - r1 + 1)
        guard entries.count < Int(Int32.max) else { budget = 0; return }  // only absurd data gets here
        let index = Int32(entries.count)
        var entry = entry
        entry.column = Int32(c1); entry.row = Int32(r1)
        entries.append(entry)
        if cells > Self.widestFiled || next.count > Int(Int32.max) - cells {
            wide.append(index)
            return
        }
        for r in r1...r2 {
            for c in c1...c2 {
                let cell = r * columns + c
                next.append(head[cell])
                linkEntry.append(index)
                head[cell] = Int32(next.count - 1)
            }
        }
    }

    // MARK: Hit tests

    /// Whether a box (screen px) of a symbol part placed with `overlap` hits a filed shape it
    /// may not go over; with a `group`, only shapes of that group count (MapLibre's `hitTest`
    /// with its collision group predicate).
    mutating func hitTest(_ box: FrameDescription.ScreenBox, overlap: OverlapMode, group: Int? = nil) -> Bool {
        guard overlap != .always else { return false }
        let p = Self.viewportPadding
        let x1 = box.minX + p, y1 = box.minY + p, x2 = box.maxX + p, y2 = box.maxY + p
        guard Self.isValid(x1, y1, x2, y2) else { return false }
        if x2 < 0 || x1 > width || y2 < 0 || y1 > height { return false }
        // MapLibre answers a box over the whole grid without looking at what is filed.
        if x1 <= 0 && y1 <= 0 && width <= x2 && height <= y2 { return true }
        return scan(Query(isCircle: false, a: x1, b: y1, c: x2, d: y2), x1, y1, x2, y2, overlap, group)
    }

    /// Whether a circle (centre and radius in screen px) of a symbol part placed with `overlap`
    /// hits a filed shape it may not go over; `group` as for `hitTest` (MapLibre's
    /// `hitTestCircle`).
    mutating func hitTestCircle(x: Double, y: Double, radius: Double, overlap: OverlapMode, group: Int? = nil) -> Bool {
        guard overlap != .always else { return false }
        let cx = x + Self.viewportPadding, cy = y + Self.viewportPadding
        let x1 = cx - radius, y1 = cy - radius, x2 = cx + radius, y2 = cy + radius
        guard radius >= 0, Self.isValid(x1, y1, x2, y2) else { return false }
        if x2 < 0 || x1 > width || y2 < 0 || y1 > height { return false }
        return scan(Query(isCircle: true, a: cx, b: cy, c: radius, d: 0), x1, y1, x2, y2, overlap, group)
    }

    /// A query's shape in grid coordinates, laid out as an entry's.
    private struct Query { var isCircle: Bool; var a, b, c, d: Double }

    /// Reads the cells of the query's bounds (x1...y2) and the wide list for a shape that
    /// blocks it. Each link read costs one from the budget.
    private mutating func scan(_ q: Query, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                               _ overlap: OverlapMode, _ group: Int?) -> Bool {
        guard budget > 0 else { return true }
        let c1 = column(x1), c2 = column(x2), r1 = row(y1), r2 = row(y2)
        for r in r1...r2 {
            for c in c1...c2 {
                var link = head[r * columns + c]
                while link >= 0 {
                    budget -= 1
                    let e = entries[Int(linkEntry[Int(link)])]
                    link = next[Int(link)]
                    guard max(Int(e.column), c1) == c, max(Int(e.row), r1) == r else { continue }
                    if Self.blocks(e, q, overlap, group) { return true }
                }
            }
        }
        for i in wide {
            budget -= 1
            if Self.blocks(entries[Int(i)], q, overlap, group) { return true }
        }
        return false
    }

    @inline(__always)
    private static func blocks(_ e: Entry, _ q: Query, _ overlap: OverlapMode, _ group: Int?) -> Bool {
        if overlap.allowsOverlap(over: e.overlap) { return false }
        if let group, e.group != group { return false }
        switch (e.isCircle, q.isCircle) {
        case (false, false): return q.a <= e.c && q.b <= e.d && q.c >= e.a && q.d >= e.b
        case (true, false): return circleMeetsBox(e.a, e.b, e.c, q.a, q.b, q.c, q.d)
        case (false, true): return circleMeetsBox(q.a, q.b, q.c, e.a, e.b, e.c, e.d)
        case (true, true): return circlesMeet(e.a, e.b, e.c, q.a, q.b, q.c)
        }
    }

    /// Circles meet when their centres are nearer than the sum of their radii (touching does not count).
    @inline(__always)
    static func circlesMeet(_ x1: Double, _ y1: Double, _ r1: Double, _ x2: Double, _ y2: Double, _ r2: Double) -> Bool {
        let dx = x2 - x1, dy = y2 - y1, radii = r1 + r2
        return radii * radii > dx * dx + dy * dy
    }

    /// Whether a circle meets a box (touching counts), by MapLibre's steps: too far from the
    /// box's centre on either axis, no; within the box's half size on either axis, yes;
    /// otherwise the circle must reach the nearest corner.
    @inline(__always)
    static func circleMeetsBox(_ cx: Double, _ cy: Double, _ radius: Double,
                               _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        let halfWidth = (x2 - x1) / 2
        let distX = abs(cx - (x1 + halfWidth))
        if distX > halfWidth + radius { return false }
        let halfHeight = (y2 - y1) / 2
        let distY = abs(cy - (y1 + halfHeight))
        if distY > halfHeight + radius { return false }
        if distX <= halfWidth || distY <= halfHeight { return true }
        let dx = distX - halfWidth, dy = distY - halfHeight
        return dx * dx + dy * dy <= radius * radius
    }

    // MARK: Where a shape is

    /// Whether a box (screen px) reaches into the grid, i.e. the viewport and its padding
    /// (MapLibre's `isInsideGrid`): a symbol whose box does not cannot be placed. A box with a
    /// NaN or infinite side is never inside.
    func isInsideGrid(_ box: FrameDescription.ScreenBox) -> Bool {
        let p = Self.viewportPadding
        return isInsideGrid(box.minX + p, box.minY + p, box.maxX + p, box.maxY + p)
    }

    /// Whether a circle (screen px) reaches into the grid by the square around it, as MapLibre
    /// asks for each circle of a line label (one inside is enough to keep the label's circles).
    func isInsideGrid(x: Double, y: Double, radius: Double) -> Bool {
        let cx = x + Self.viewportPadding, cy = y + Self.viewportPadding
        return radius >= 0 && isInsideGrid(cx - radius, cy - radius, cx + radius, cy + radius)
    }

    private func isInsideGrid(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        Self.isValid(x1, y1, x2, y2) && x2 >= 0 && x1 < width && y2 >= 0 && y1 < height
    }

    /// Whether a box (screen px) lies outside the viewport, in the padding or beyond (MapLibre's
    /// `isOffscreen`, which placement uses to show such a symbol without fading in). As there,
    /// a box starting on the viewport's right edge is off screen but one starting on its
    /// bottom edge is not.
    func isOffscreen(_ box: FrameDescription.ScreenBox) -> Bool {
        let p = Self.viewportPadding
        return isOffscreen(box.minX + p, box.minY + p, box.maxX + p, box.maxY + p)
    }

    /// Whether a circle (screen px) lies outside the viewport by the square around it (a line
    /// label is off screen when all its circles are).
    func isOffscreen(x: Double, y: Double, radius: Double) -> Bool {
        let cx = x + Self.viewportPadding, cy = y + Self.viewportPadding
        return isOffscreen(cx - radius, cy - radius, cx + radius, cy + radius)
    }

    private func isOffscreen(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        let p = Self.viewportPadding
        return x2 < p || x1 >= screenRight || y2 < p || y1 > screenBottom
    }
}
