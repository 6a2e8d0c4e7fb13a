/// A GeoJSON source's features bucketed by where they are: grids of cells over the data's extent
/// (normalised Web Mercator), a fine one (64 x 64) and a coarse one (8 x 8) for features too big
/// for fine cells, each cell listing the features whose box touches it, so a frame finds the
/// features in a region without looking at the others. A feature spanning most of the coarse
/// grid is kept in a list that every query takes.
public struct FeatureIndex: Sendable {
    /// A feature covering more cells than this per axis goes to the next grid up.
    static let maxSpan = 8
    /// Sources with fewer features are scanned whole (an index would cost more than it spares).
    public static let minimumFeatures = 64

    /// One grid: `side` x `side` cells over the extent.
    private struct Grid: Sendable {
        let side: Int
        let cellWidth: Double, cellHeight: Double
        var cells: [[Int32]]
    }

    private let minX: Double, minY: Double, maxX: Double, maxY: Double
    private let grids: [Grid]
    private let large: [Int32]
    private let count: Int

    /// The index of `features` (their boxes), nil when there are too few to be worth one.
    init?(_ features: [GeoFeature]) {
        guard features.count >= Self.minimumFeatures, features.count < Int(Int32.max) else { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for f in features where !f.geometry.isEmpty {
            let g = f.geometry
            guard g.minX.isFinite, g.minY.isFinite, g.maxX.isFinite, g.maxY.isFinite else { continue }
            x0 = min(x0, g.minX); y0 = min(y0, g.minY); x1 = max(x1, g.maxX); y1 = max(y1, g.maxY)
        }
        guard x0 <= x1, y0 <= y1 else { return nil }
        minX = x0; minY = y0; maxX = x1; maxY = y1
        count = features.count
        var grids = [64, 8].map { n in
            Grid(side: n, cellWidth: max((x1 - x0) / Double(n), 1e-12), cellHeight: max((y1 - y0) / Double(n), 1e-12),
                 cells: [[Int32]](repeating: [], count: n * n))
        }
        var large: [Int32] = []
        features: for (i, f) in features.enumerated() where !f.geometry.isEmpty {
            let g = f.geometry
            guard g.minX.isFinite, g.minY.isFinite, g.maxX.isFinite, g.maxY.isFinite else { large.append(Int32(i)); continue }
            for k in grids.indices {
                let grid = grids[k], n = grid.side
                let cx0 = Self.cell(g.minX, x0, grid.cellWidth, n), cy0 = Self.cell(g.minY, y0, grid.cellHeight, n)
                let cx1 = Self.cell(g.maxX, x0, grid.cellWidth, n), cy1 = Self.cell(g.maxY, y0, grid.cellHeight, n)
                guard cx1 - cx0 < Self.maxSpan / (k + 1), cy1 - cy0 < Self.maxSpan / (k + 1) else { continue }
                for y in cy0...cy1 { for x in cx0...cx1 { grids[k].cells[y * n + x].append(Int32(i)) } }
                continue features
            }
            large.append(Int32(i))
        }
        self.grids = grids; self.large = large
    }

    private static func cell(_ v: Double, _ origin: Double, _ size: Double, _ n: Int) -> Int {
        min(max(Int(((v - origin) / size).rounded(.down)), 0), n - 1)
    }

    /// The features whose boxes may touch the box (normalised Mercator; x in any world copy: the
    /// box is tried in every copy that reaches the data), in their order in the source, into
    /// `out` (emptied first). `seen` is scratch storage, one flag per feature.
    public func query(minX qx0: Double, minY qy0: Double, maxX qx1: Double, maxY qy1: Double,
                      into out: inout [Int32], seen: inout [Bool]) {
        out.removeAll(keepingCapacity: true)
        // A box as wide as the world (or not a box): every feature.
        guard qx1 - qx0 < 1, qx0.isFinite, qx1.isFinite, qy0.isFinite, qy1.isFinite else {
            out.append(contentsOf: (0..<Int32(count)))
            return
        }
        if seen.count != count { seen = [Bool](repeating: false, count: count) }
        if qy1 >= minY, qy0 <= maxY, qx0 <= qx1 {
            // The copies of the box that overlap the data's extent.
            let first = (minX - qx1).rounded(.up), last = (maxX - qx0).rounded(.down)
            if first <= last {
                for k in Int(first)...Int(last) {
                    let a = qx0 + Double(k), b = qx1 + Double(k)
                    for grid in grids {
                        let n = grid.side
                        let cx0 = Self.cell(a, minX, grid.cellWidth, n), cx1 = Self.cell(b, minX, grid.cellWidth, n)
                        let cy0 = Self.cell(qy0, minY, grid.cellHeight, n), cy1 = Self.cell(qy1, minY, grid.cellHeight, n)
                        for y in cy0...cy1 {
                            for x in cx0...cx1 {
                                for i in grid.cells[y * n + x] where !seen[Int(i)] { seen[Int(i)] = true; out.append(i) }
                            }
                        }
                    }
                }
            }
        }
        for i in large where !seen[Int(i)] { seen[Int(i)] = true; out.append(i) }
        for i in out { seen[Int(i)] = false }
        out.sort()
    }
}

/// An axis-aligned box in normalised Web Mercator (x may lie in any world copy).
public struct MercatorBox: Equatable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// Grown by `fraction` of its width and height on every side.
    public func grown(by fraction: Double) -> MercatorBox {
        let dx = (maxX - minX) * fraction, dy = (maxY - minY) * fraction
        return MercatorBox(minX: minX - dx, minY: minY - dy, maxX: maxX + dx, maxY: maxY + dy)
    }

    /// Whether `b` lies inside, in some world copy.
    public func contains(_ b: MercatorBox) -> Bool {
        guard b.minY >= minY, b.maxY <= maxY else { return false }
        let k = (minX - b.minX).rounded(.up)
        return b.minX + k >= minX && b.maxX + k <= maxX
    }
}
