import MapCore
@testable import MapRender
import Testing

/// MapLibre's collision grid answers what a direct check of every placed shape answers, with
/// MapLibre's rules: touching boxes hit, touching circles do not, circle against box is exact,
/// overlap modes and collision groups decide which shapes count.
@Suite struct CollisionGridTests {
    typealias Box = FrameDescription.ScreenBox

    /// A placed shape or a query, in screen px.
    enum Shape {
        case box(Box)
        case circle(x: Double, y: Double, radius: Double)
    }

    struct Placed {
        var shape: Shape
        var overlap: OverlapMode
        var group: Int
    }

    /// The shape's bounds in grid coordinates (screen + padding, added as the grid adds it),
    /// nil when it has a NaN or infinite side, is inverted or has a negative radius.
    static func gridBounds(_ s: Shape) -> (x1: Double, y1: Double, x2: Double, y2: Double)? {
        let p = CollisionGrid.viewportPadding
        let b: (x1: Double, y1: Double, x2: Double, y2: Double)
        switch s {
        case let .box(q): b = (q.minX + p, q.minY + p, q.maxX + p, q.maxY + p)
        case let .circle(x, y, r):
            guard r >= 0 else { return nil }
            b = (x + p - r, y + p - r, x + p + r, y + p + r)
        }
        guard [b.x1, b.y1, b.x2, b.y2].allSatisfy(\.isFinite), b.x1 <= b.x2, b.y1 <= b.y2 else { return nil }
        return b
    }

    /// The shape moved by the viewport padding, as the grid moves it (the rounding of the
    /// sums is the grid's).
    static func padded(_ s: Shape) -> Shape {
        let p = CollisionGrid.viewportPadding
        switch s {
        case let .box(b): return .box(Box(minX: b.minX + p, minY: b.minY + p, maxX: b.maxX + p, maxY: b.maxY + p))
        case let .circle(x, y, r): return .circle(x: x + p, y: y + p, radius: r)
        }
    }

    /// Whether two valid shapes meet, written independently of the grid: boxes by their ranges
    /// (touching counts), circles by the distance of their centres (touching does not), a
    /// circle and a box by the distance from the centre to the box's nearest point (touching
    /// counts).
    static func meet(_ s: Shape, _ t: Shape) -> Bool {
        switch (s, t) {
        case let (.box(a), .box(b)):
            return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
        case let (.circle(x1, y1, r1), .circle(x2, y2, r2)):
            return (x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2) < (r1 + r2) * (r1 + r2)
        case let (.circle(x, y, r), .box(b)), let (.box(b), .circle(x, y, r)):
            let nx = min(max(x, b.minX), b.maxX), ny = min(max(y, b.minY), b.maxY)
            return (x - nx) * (x - nx) + (y - ny) * (y - ny) <= r * r
        }
    }

    /// Whether a new part may go over a placed one: its mode is `always`, or neither is `never`.
    static func allowed(_ new: OverlapMode, over placed: OverlapMode) -> Bool {
        switch (new, placed) {
        case (.always, _): return true
        case (.never, _), (_, .never): return false
        default: return true
        }
    }

    /// What the grid should answer, from every placed shape in turn (and MapLibre's rules for
    /// queries off the grid or over all of it).
    static func reference(_ placed: [Placed], _ q: Shape, _ overlap: OverlapMode, _ group: Int?,
                          width: Double, height: Double) -> Bool {
        guard overlap != .always, let b = gridBounds(q) else { return false }
        let gw = width + 2 * CollisionGrid.viewportPadding, gh = height + 2 * CollisionGrid.viewportPadding
        if b.x2 < 0 || b.x1 > gw || b.y2 < 0 || b.y1 > gh { return false }
        if case .box = q, b.x1 <= 0, b.y1 <= 0, b.x2 >= gw, b.y2 >= gh { return true }
        return placed.contains { e in
            gridBounds(e.shape) != nil && !allowed(overlap, over: e.overlap)
                && (group == nil || group == e.group) && meet(padded(e.shape), padded(q))
        }
    }

    static func kind(_ s: Shape) -> String {
        if case .box = s { "box" } else { "circle" }
    }

    static func ask(_ grid: inout CollisionGrid, _ q: Shape, _ overlap: OverlapMode, _ group: Int?) -> Bool {
        switch q {
        case let .box(b): return grid.hitTest(b, overlap: overlap, group: group)
        case let .circle(x, y, r): return grid.hitTestCircle(x: x, y: y, radius: r, overlap: overlap, group: group)
        }
    }

    static func put(_ grid: inout CollisionGrid, _ e: Placed) {
        switch e.shape {
        case let .box(b): grid.insert(b, overlap: e.overlap, group: e.group)
        case let .circle(x, y, r): grid.insertCircle(x: x, y: y, radius: r, overlap: e.overlap, group: e.group)
        }
    }

    @Test func answersWhatACheckOfEveryShapeAnswers() {
        var seed: UInt64 = 11
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        // On a 5-px lattice (radii 2.5), so that shapes often touch exactly and every formula
        // is exact.
        func lattice(_ range: ClosedRange<Double>) -> Double { (random(range) / 5).rounded(.down) * 5 }
        let modes: [OverlapMode] = [.never, .always, .cooperative]
        func mode() -> OverlapMode { modes[Int(random(0...2.999))] }
        var width = 0.0, height = 0.0
        // Small, medium, large and huge (past `widestFiled` cells), anywhere from well past the
        // padding to well past the other side; a few broken ones and a few over the whole grid.
        func shape() -> Shape {
            let size: Double
            switch Int(random(0...9.999)) {
            case 0...3: size = lattice(0...20)
            case 4...6: size = lattice(20...120)
            case 7, 8: size = lattice(100...300)
            default: size = lattice(500...1200)
            }
            let x = lattice(-350...(width + 250)), y = lattice(-350...(height + 250))
            switch Int(random(0...39.999)) {
            case 0: return .box(Box(minX: .nan, minY: y, maxX: x + size, maxY: y + size))
            case 1: return .box(Box(minX: -.infinity, minY: y, maxX: x, maxY: y + size))
            case 2: return .circle(x: x, y: .infinity, radius: size)
            case 3: return .circle(x: x, y: y, radius: -size - 1)
            case 4: return .box(Box(minX: x + size + 1, minY: y, maxX: x, maxY: y + size))
            case 5: return .box(Box(minX: lattice(-150...0), minY: lattice(-150...0),
                                    maxX: width + lattice(0...150), maxY: height + lattice(0...150)))
            case 6...19: return .circle(x: x, y: y, radius: size / 2)
            default: return .box(Box(minX: x, minY: y, maxX: x + size, maxY: y + lattice(0...size)))
            }
        }
        // A shape touching a placed one, or a hair (half a px) into it: circles around a 3-4-5
        // triangle from a circle's centre or a box's corner, a box from a box's right edge.
        func touching(_ e: Shape) -> Shape {
            let t = lattice(5...60) / 5 + (random(0...1) < 0.5 ? 0 : -0.5)
            switch e {
            case let .circle(x, y, r):
                let r2 = max(0, 5 * t - r)
                return .circle(x: x + 3 * t, y: y - 4 * t, radius: r2)
            case let .box(b) where random(0...1) < 0.5:
                return .circle(x: b.maxX + 3 * t, y: b.minY - 4 * t, radius: 5 * t)
            case let .box(b):
                let x = b.maxX - (t == t.rounded() ? 0 : 0.5)
                return .box(Box(minX: x, minY: b.maxY - 5, maxX: x + 40, maxY: b.maxY + 10))
            }
        }
        var grid = CollisionGrid()
        var mismatches = 0, hits = 0, queries = 0
        var kinds = [String: Int](), allowedMeets = 0, otherGroupMeets = 0
        let sizes: [(Double, Double)] = [(640, 400), (301, 97), (1000, 720), (0, 0), (37.5, 512.25), (800, 600)]
        for (round, size) in sizes.enumerated() {
            (width, height) = size
            grid.reset(width: width, height: height)
            var placed: [Placed] = []
            for _ in 0..<(round == 3 ? 60 : 400) {
                let e = Placed(shape: shape(), overlap: mode(), group: Int(random(0...2.999)))
                placed.append(e)
                Self.put(&grid, e)
                for _ in 0..<3 {
                    let q = random(0...1) < 0.25 ? touching(placed[Int(random(0...Double(placed.count) - 0.001))].shape) : shape()
                    let overlap = mode()
                    let group: Int? = random(0...1) < 0.5 ? nil : Int(random(0...2.999))
                    let expected = Self.reference(placed, q, overlap, group, width: width, height: height)
                    if Self.ask(&grid, q, overlap, group) != expected { mismatches += 1; }
                    if expected { hits += 1 }
                    queries += 1
                    // Which rules the answers went through.
                    guard overlap != .always, Self.gridBounds(q) != nil else { continue }
                    for e in placed where Self.gridBounds(e.shape) != nil && Self.meet(Self.padded(e.shape), Self.padded(q)) {
                        if Self.allowed(overlap, over: e.overlap) {
                            allowedMeets += 1
                        } else if let group, group != e.group {
                            otherGroupMeets += 1
                        } else {
                            kinds[Self.kind(q) + " over " + Self.kind(e.shape), default: 0] += 1
                        }
                    }
                }
            }
        }
        #expect(grid.budget > 0)
        #expect(mismatches == 0, "\(mismatches) of \(queries) answers differ from the check of every shape")
        // Both answers, every pair of kinds, and shapes let through by their mode or their group
        // occur often enough for the comparison to mean something.
        #expect(hits > queries / 5 && hits < queries * 4 / 5, "\(hits) hits in \(queries)")
        for k in ["box over box", "box over circle", "circle over box", "circle over circle"] {
            #expect(kinds[k, default: 0] > 1000, "\(k): \(kinds[k, default: 0]) blocking meets")
        }
        #expect(allowedMeets > 1000 && otherGroupMeets > 1000, "\(allowedMeets) allowed, \(otherGroupMeets) of other groups")
    }

    @Test func touchingBoxesHit() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        grid.insert(Box(minX: 10, minY: 10, maxX: 40, maxY: 20), overlap: .never)
        hits(grid.hitTest(Box(minX: 40, minY: 20, maxX: 60, maxY: 30), overlap: .never))  // corner on corner
        hits(grid.hitTest(Box(minX: 0, minY: 0, maxX: 10, maxY: 15), overlap: .never))   // left edge
        misses(grid.hitTest(Box(minX: 40.001, minY: 10, maxX: 60, maxY: 20), overlap: .never))
        misses(grid.hitTest(Box(minX: 10, minY: 0, maxX: 40, maxY: 9.999), overlap: .never))
    }

    @Test func circlesAreRound() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        grid.insert(Box(minX: 50, minY: 50, maxX: 80, maxY: 70), overlap: .never)
        // The corner (80, 70) is 5 px from (83, 74): a circle of 5 touches it, one of 4.9
        // misses although the square around it covers the corner.
        hits(grid.hitTestCircle(x: 83, y: 74, radius: 5, overlap: .never))
        misses(grid.hitTestCircle(x: 83, y: 74, radius: 4.9, overlap: .never))
        // Beside an edge, the distance to the edge decides (touching counts).
        hits(grid.hitTestCircle(x: 60, y: 75, radius: 5, overlap: .never))
        misses(grid.hitTestCircle(x: 60, y: 75.01, radius: 5, overlap: .never))
        // A placed circle against a box query, the same way round.
        grid.insertCircle(x: 200, y: 200, radius: 5, overlap: .never)
        hits(grid.hitTest(Box(minX: 203, minY: 204, maxX: 230, maxY: 230), overlap: .never))
        misses(grid.hitTest(Box(minX: 203.1, minY: 204, maxX: 230, maxY: 230), overlap: .never))
        // Circles that touch do not meet; a hair closer, they do.
        misses(grid.hitTestCircle(x: 206, y: 208, radius: 5, overlap: .never))
        hits(grid.hitTestCircle(x: 206, y: 208, radius: 5.01, overlap: .never))
    }

    @Test func overlapModesDecideWhatBlocks() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        let spot: [OverlapMode: Box] = [
            .never: Box(minX: 0, minY: 0, maxX: 20, maxY: 20),
            .always: Box(minX: 100, minY: 0, maxX: 120, maxY: 20),
            .cooperative: Box(minX: 200, minY: 0, maxX: 220, maxY: 20),
        ]
        for (mode, box) in spot { grid.insert(box, overlap: mode) }
        func blocked(_ new: OverlapMode, over placed: OverlapMode) -> Bool {
            var box = spot[placed]!
            box.minX += 5; box.maxX += 5
            return grid.hitTest(box, overlap: new)
        }
        for placed in [OverlapMode.never, .always, .cooperative] {
            #expect(!blocked(.always, over: placed))
            #expect(blocked(.never, over: placed))
        }
        #expect(!blocked(.cooperative, over: .cooperative))
        #expect(!blocked(.cooperative, over: .always))
        #expect(blocked(.cooperative, over: .never))
        // `always` does not hit even a box over the whole grid, which anything else does.
        let everything = Box(minX: -100, minY: -100, maxX: 500, maxY: 400)
        misses(grid.hitTest(everything, overlap: .always))
        hits(grid.hitTest(everything, overlap: .cooperative))
    }

    @Test func overlapModeFromTheStyle() {
        // `*-overlap` when set, else `*-allow-overlap` (true: always, false: never).
        #expect(OverlapMode(overlap: nil, allowOverlap: false) == .never)
        #expect(OverlapMode(overlap: nil, allowOverlap: true) == .always)
        #expect(OverlapMode(overlap: .cooperative, allowOverlap: true) == .cooperative)
        #expect(OverlapMode(overlap: .never, allowOverlap: true) == .never)
    }

    @Test func otherGroupsAreIgnoredWhenAGroupIsNamed() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        grid.insert(Box(minX: 10, minY: 10, maxX: 50, maxY: 30), overlap: .never, group: 1)
        grid.insertCircle(x: 200, y: 100, radius: 10, overlap: .never, group: 1)
        let box = Box(minX: 20, minY: 20, maxX: 60, maxY: 40)
        hits(grid.hitTest(box, overlap: .never))
        hits(grid.hitTest(box, overlap: .never, group: 1))
        misses(grid.hitTest(box, overlap: .never, group: 2))
        hits(grid.hitTestCircle(x: 205, y: 100, radius: 3, overlap: .never, group: 1))
        misses(grid.hitTestCircle(x: 205, y: 100, radius: 3, overlap: .never, group: 0))
    }

    @Test func offTheGridAsMapLibre() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        // An empty grid: a box over all of it hits (MapLibre does not look), a circle does not.
        hits(grid.hitTest(Box(minX: -100, minY: -100, maxX: 500, maxY: 400), overlap: .never))
        misses(grid.hitTest(Box(minX: -99, minY: -100, maxX: 500, maxY: 400), overlap: .never))
        misses(grid.hitTestCircle(x: 200, y: 150, radius: 1000, overlap: .never))
        // A box wholly past the padding is filed in the corner cell: a query reaching into the
        // grid finds it, one wholly past the padding too finds nothing.
        grid.insert(Box(minX: -300, minY: -300, maxX: -120, maxY: -120), overlap: .never)
        hits(grid.hitTest(Box(minX: -130, minY: -130, maxX: -90, maxY: -90), overlap: .never))
        misses(grid.hitTest(Box(minX: -200, minY: -200, maxX: -101, maxY: -101), overlap: .never))
        misses(grid.hitTestCircle(x: -150, y: -150, radius: 20, overlap: .never))
        hits(grid.hitTestCircle(x: -125, y: -125, radius: 30, overlap: .never))
        // The far side the same way.
        grid.insertCircle(x: 700, y: 600, radius: 150, overlap: .never)
        hits(grid.hitTest(Box(minX: 490, minY: 390, maxX: 600, maxY: 520), overlap: .never))
        misses(grid.hitTest(Box(minX: 510, minY: 390, maxX: 600, maxY: 520), overlap: .never))
    }

    @Test func brokenInputNeverHitsNorCrashes() {
        var grid = CollisionGrid()
        grid.reset(width: .nan, height: -.infinity)
        #expect(grid.isInsideGrid(Box(minX: -100, minY: -100, maxX: -90, maxY: -90)))
        grid.reset(width: 1e300, height: 400)
        grid.insert(Box(minX: 0, minY: 0, maxX: 1e299, maxY: 50), overlap: .never)
        hits(grid.hitTest(Box(minX: 5e298, minY: 10, maxX: 6e298, maxY: 20), overlap: .never))
        grid.reset(width: 400, height: 300)
        let broken: [Box] = [
            Box(minX: .nan, minY: 0, maxX: 10, maxY: 10), Box(minX: 0, minY: 0, maxX: 10, maxY: .nan),
            Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity),
            Box(minX: 0, minY: 0, maxX: .infinity, maxY: 10), Box(minX: 10, minY: 0, maxX: 0, maxY: 10),
        ]
        for b in broken {
            grid.insert(b, overlap: .never)
            misses(grid.hitTest(b, overlap: .never))
            #expect(!grid.isInsideGrid(b))
        }
        for (x, y, r) in [(Double.nan, 5.0, 5.0), (5, 5, .nan), (5, 5, .infinity), (5, -.infinity, 1), (5, 5, -1), (1e308, 5, 1e308)] {
            grid.insertCircle(x: x, y: y, radius: r, overlap: .never)
            misses(grid.hitTestCircle(x: x, y: y, radius: r, overlap: .never))
        }
        // None of them was filed.
        misses(grid.hitTest(Box(minX: -50, minY: -50, maxX: 450, maxY: 350), overlap: .never))
    }

    @Test func theBudgetEndsAbsurdData() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        let spot = Box(minX: 100, minY: 100, maxX: 110, maxY: 110)
        for _ in 0..<4_000 { grid.insert(spot, overlap: .always) }
        // Cooperative queries may go over them all, so each reads all 4 000.
        var answered = 0
        while !grid.hitTest(spot, overlap: .cooperative) { answered += 1 }
        #expect(answered == CollisionGrid.budgetPerFrame / 4_000)
        // Spent: everything hits, even on empty ground; `always` and queries off the grid still do not.
        hits(grid.hitTest(Box(minX: 300, minY: 200, maxX: 310, maxY: 210), overlap: .never))
        hits(grid.hitTestCircle(x: 300, y: 200, radius: 3, overlap: .cooperative))
        misses(grid.hitTest(spot, overlap: .always))
        misses(grid.hitTest(Box(minX: -500, minY: 0, maxX: -400, maxY: 10), overlap: .never))
        grid.reset(width: 400, height: 300)
        misses(grid.hitTest(Box(minX: 300, minY: 200, maxX: 310, maxY: 210), overlap: .never))
    }

    @Test func theBudgetCountsEveryLinkRead() {
        // A box filed in 9 x 3 cells against a query over the same cells: 27 links read (the
        // box is tested in the first of them only, which only speed shows).
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        grid.insert(Box(minX: 0, minY: 0, maxX: 220, maxY: 70), overlap: .always)
        misses(grid.hitTest(Box(minX: 1, minY: 1, maxX: 219, maxY: 69), overlap: .cooperative))
        #expect(grid.budget == CollisionGrid.budgetPerFrame - 27)
        let before = grid.budget
        // A wide one is read from its list, once.
        grid.insert(Box(minX: -100, minY: -100, maxX: 500, maxY: 300), overlap: .always)
        misses(grid.hitTestCircle(x: 300, y: 250, radius: 10, overlap: .cooperative))
        #expect(grid.budget == before - 1)
    }

    @Test func insideTheGridAndOffscreenAsMapLibre() {
        var grid = CollisionGrid()
        grid.reset(width: 400, height: 300)
        func box(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Box { Box(minX: x1, minY: y1, maxX: x2, maxY: y2) }
        // Inside the grid: reaching the padding's outer edge from inside counts, starting on its
        // far edge does not.
        #expect(grid.isInsideGrid(box(-150, 10, -100, 20)))
        #expect(!grid.isInsideGrid(box(-150, 10, -100.5, 20)))
        #expect(grid.isInsideGrid(box(499.5, 10, 600, 20)))
        #expect(!grid.isInsideGrid(box(500, 10, 600, 20)))
        #expect(grid.isInsideGrid(box(10, -150, 20, -100)))
        #expect(!grid.isInsideGrid(box(10, 400, 20, 500)))
        // Off screen: wholly left of or above the viewport, or starting on its right edge or
        // past its bottom edge (starting on the bottom edge is on screen, as in MapLibre).
        #expect(grid.isOffscreen(box(-50, 10, -0.5, 20)))
        #expect(!grid.isOffscreen(box(-50, 10, 0, 20)))
        #expect(grid.isOffscreen(box(400, 10, 450, 20)))
        #expect(!grid.isOffscreen(box(399.5, 10, 450, 20)))
        #expect(grid.isOffscreen(box(10, -50, 20, -0.5)))
        #expect(!grid.isOffscreen(box(10, 300, 20, 350)))
        #expect(grid.isOffscreen(box(10, 300.5, 20, 350)))
        // Circles by the square around them.
        #expect(grid.isInsideGrid(x: -110, y: 10, radius: 10))
        #expect(!grid.isInsideGrid(x: -110.5, y: 10, radius: 10))
        #expect(!grid.isInsideGrid(x: 10, y: 10, radius: .nan))
        #expect(grid.isOffscreen(x: 410, y: 10, radius: 10))
        #expect(!grid.isOffscreen(x: 409.5, y: 10, radius: 10))
        #expect(!grid.isOffscreen(x: 10, y: 310, radius: 10))
        #expect(grid.isOffscreen(x: 10, y: 310.5, radius: 10))
    }
}

/// Records that a hit test answered hit (`hits`) or no hit (`misses`); the test's answer is
/// computed before, as it spends the grid's budget (`#expect` cannot take a mutating call).
private func hits(_ answer: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(answer, "expected a hit", sourceLocation: sourceLocation)
}
private func misses(_ answer: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!answer, "expected no hit", sourceLocation: sourceLocation)
}
