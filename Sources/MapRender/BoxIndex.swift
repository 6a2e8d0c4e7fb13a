import MapCore

/// The boxes symbols have claimed, filed by a grid of square cells over the window, so that
/// asking whether a new box meets any of them looks only at the boxes filed in the cells it
/// covers. (Placement asks up to five times for each place in view; a scan of every box placed
/// so far grew with each label.) The answer is the list scan's: `ScreenBox.intersects` on the
/// boxes that share a cell with the query, and boxes that meet always share one. Boxes reaching
/// past the window are filed in its border cells. The storage is kept between frames.
struct BoxIndex {
    static let cell = 64.0
    private var columns = 1, rows = 1
    /// Per cell, its first entry (-1: none); per entry, the next entry of its cell and its box.
    private var head: [Int32] = []
    private var next: [Int32] = []
    private var entryBox: [Int32] = []
    private var boxes: [FrameDescription.ScreenBox] = []
    /// Box tests left before every query counts as a hit: only absurd data (thousands of
    /// overlapping symbols allowed to overlap, piled on one spot) could use them up, and
    /// placement then still ends.
    private(set) var budget = BoxIndex.budgetPerFrame
    static let budgetPerFrame = 4_000_000

    /// Empties the index for a window of `width` x `height` px.
    mutating func reset(width: Double, height: Double) {
        columns = Self.count(width); rows = Self.count(height)
        if head.count != columns * rows {
            head = [Int32](repeating: -1, count: columns * rows)
        } else {
            for i in head.indices { head[i] = -1 }
        }
        next.removeAll(keepingCapacity: true)
        entryBox.removeAll(keepingCapacity: true)
        boxes.removeAll(keepingCapacity: true)
        budget = Self.budgetPerFrame
    }

    private static func count(_ size: Double) -> Int {
        size > 0 && size < 1e6 ? max(1, Int((size / cell).rounded(.up))) : 1
    }

    /// The cells a coordinate range falls in, clamped to the grid (nil for NaN: such a box
    /// meets nothing).
    private func span(_ lo: Double, _ hi: Double, _ n: Int) -> ClosedRange<Int>? {
        guard !lo.isNaN, !hi.isNaN else { return nil }
        func at(_ v: Double) -> Int { Int(min(max((v / Self.cell).rounded(.down), 0), Double(n - 1))) }
        return at(lo)...max(at(lo), at(hi))
    }

    mutating func insert(_ b: FrameDescription.ScreenBox) {
        guard let xs = span(b.minX, b.maxX, columns), let ys = span(b.minY, b.maxY, rows) else { return }
        let index = Int32(boxes.count)
        boxes.append(b)
        for y in ys {
            for x in xs {
                let c = y * columns + x
                next.append(head[c])
                entryBox.append(index)
                head[c] = Int32(next.count - 1)
            }
        }
    }

    /// Whether `q` meets a box in the index.
    mutating func intersectsAny(_ q: FrameDescription.ScreenBox) -> Bool {
        guard budget > 0 else { return true }
        guard let xs = span(q.minX, q.maxX, columns), let ys = span(q.minY, q.maxY, rows) else { return false }
        for y in ys {
            for x in xs {
                var e = head[y * columns + x]
                while e >= 0 {
                    budget -= 1
                    if boxes[Int(entryBox[Int(e)])].intersects(q) { return true }
                    e = next[Int(e)]
                }
            }
        }
        return false
    }
}
