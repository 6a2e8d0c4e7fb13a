import MapCore
@testable import MapRender
import Testing

/// A label keeps its cross-tile id when its tile is replaced by its children or its parent, and
/// only then; tiles of one zoom never share an id except a flagged buffer duplicate.
@Suite struct CrossTileSymbolIndexTests {
    typealias Index = CrossTileSymbolIndex
    typealias Symbol = CrossTileSymbolIndex.Symbol

    func tile(_ z: Int, _ x: Int, _ y: Int) -> TileID { TileID(z: z, x: x, y: y)! }

    /// The parent 5/10/12 and its labels, in its 8192 units.
    let parent = TileID(z: 5, x: 10, y: 12)!
    let labels: [Symbol] = [
        Symbol(key: "Alpha", x: 1000, y: 1000), Symbol(key: "Beta", x: 5000, y: 3000),
        Symbol(key: "Gamma", x: 7000, y: 7000), Symbol(key: "Delta", x: 3000, y: 6000),
        Symbol(key: "", x: 4100, y: 4100),
    ]

    /// `labels` as the children of `parent` lay them out: each in the child holding it, at
    /// twice the distance from the child's corner, moved by `jitter` child units.
    func childLayouts(jitter: Double) -> [TileID: [Symbol]] {
        var out: [TileID: [Symbol]] = [:]
        for s in labels {
            let cx = s.x * 2 >= 8192 ? 1 : 0, cy = s.y * 2 >= 8192 ? 1 : 0
            let child = tile(6, parent.x * 2 + cx, parent.y * 2 + cy)
            out[child, default: []].append(Symbol(key: s.key, x: s.x * 2 - Double(cx) * 8192 + jitter,
                                                  y: s.y * 2 - Double(cy) * 8192 - jitter))
        }
        return out
    }

    @Test func childrenTakeTheirParentsIds() {
        let index = Index()
        let ids = index.addTile(parent, layer: "poi", symbols: labels).map(\.id)
        #expect(Set(ids).count == labels.count)
        var kept: [String: Int] = [:]
        for (child, symbols) in childLayouts(jitter: 40) {
            let got = index.addTile(child, layer: "poi", symbols: symbols)
            for (s, a) in zip(symbols, got) {
                kept[s.key] = a.id
                #expect(!a.duplicate)
            }
        }
        index.removeTiles(notIn: Set(childLayouts(jitter: 0).keys), layer: "poi")
        #expect(index.tileCount(layer: "poi") == 4)
        for (s, id) in zip(labels, ids) { #expect(kept[s.key] == id, "\(s.key)") }
    }

    @Test func aParentTakesItsChildrensIds() {
        let index = Index()
        var fromChildren: [String: Int] = [:]
        for (child, symbols) in childLayouts(jitter: 0) {
            for (s, a) in zip(symbols, index.addTile(child, layer: "poi", symbols: symbols)) { fromChildren[s.key] = a.id }
        }
        // The parent's layout differs by up to 2 child cells (64 child units, 32 of its own).
        let moved = labels.map { Symbol(key: $0.key, x: $0.x + 31, y: $0.y - 31) }
        let ids = index.addTile(parent, layer: "poi", symbols: moved).map(\.id)
        for (s, id) in zip(labels, ids) { #expect(fromChildren[s.key] == id, "\(s.key)") }
    }

    /// Against a parent the tolerance is one parent cell (32 parent units: 64 child units).
    @Test func aLabelMovedPastTheToleranceGetsANewID() {
        for (x, same) in [(2111.0, true), (2112.0, false), (1920.0, true), (1919.0, false)] {
            let index = Index()
            let old = index.addTile(parent, layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
            let new = index.addTile(tile(6, 20, 24), layer: "l", symbols: [Symbol(key: "A", x: x, y: 2000)])[0].id
            #expect((new == old) == same, "x \(x)")
        }
        // Another key at the same place is another symbol.
        let index = Index()
        let old = index.addTile(parent, layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
        #expect(index.addTile(tile(6, 20, 24), layer: "l", symbols: [Symbol(key: "B", x: 2000, y: 2000)])[0].id != old)
    }

    @Test func theSameTextFarApartKeepsDistinctIDs() {
        let index = Index()
        let street = [Symbol(key: "Main St", x: 500, y: 500), Symbol(key: "Main St", x: 3000, y: 3500)]
        let ids = index.addTile(parent, layer: "roads", symbols: street).map(\.id)
        #expect(ids[0] != ids[1])
        // Both in child 6/20/24, listed the other way round.
        let child = index.addTile(tile(6, 20, 24), layer: "roads",
                                  symbols: [Symbol(key: "Main St", x: 6000, y: 7000), Symbol(key: "Main St", x: 1000, y: 1000)])
        #expect(child.map(\.id) == [ids[1], ids[0]])
    }

    /// Two symbols of a zoom near one parent symbol: the first takes its id, the second gets
    /// its own (MapLibre #5993).
    @Test func anIDIsClaimedOncePerZoom() {
        let index = Index()
        let old = index.addTile(parent, layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
        let got = index.addTile(tile(6, 20, 24), layer: "l",
                                symbols: [Symbol(key: "A", x: 2000, y: 2000), Symbol(key: "A", x: 2010, y: 2010)])
        #expect(got[0].id == old)
        #expect(got[1].id != old && !got[1].duplicate)
    }

    /// A feature both neighbours hold (one in its buffer) gets the first one's id, flagged.
    @Test func aBufferDuplicateIsFlagged() {
        let index = Index()
        let a = index.addTile(tile(6, 20, 24), layer: "l",
                              symbols: [Symbol(key: "Park", x: 8192 + 40, y: 300), Symbol(key: "Lake", x: 100, y: 100)])
        let b = index.addTile(tile(6, 21, 24), layer: "l",
                              symbols: [Symbol(key: "Park", x: 40, y: 300), Symbol(key: "Lake", x: 100, y: 100)])
        #expect(b[0] == Index.Assignment(id: a[0].id, duplicate: true))
        #expect(!b[1].duplicate && b[1].id != a[1].id)
        #expect(!a[0].duplicate && !a[1].duplicate)
        // A tile two columns away is no neighbour.
        let c = index.addTile(tile(6, 23, 24), layer: "l", symbols: [Symbol(key: "Park", x: -2 * 8192 + 40, y: 300)])
        #expect(!c[0].duplicate && c[0].id != a[0].id)
        // Across the antimeridian: the last column of copy 0 and the first of copy 1.
        let east = index.addTile(Index.WrappedTile(tile(2, 3, 1)), layer: "l", symbols: [Symbol(key: "Fiji", x: 8192 + 8, y: 50)])
        let west = index.addTile(Index.WrappedTile(tile(2, 0, 1), wrap: 1), layer: "l", symbols: [Symbol(key: "Fiji", x: 8, y: 50)])
        #expect(west[0] == Index.Assignment(id: east[0].id, duplicate: true))
    }

    @Test func removingTilesFreesTheirIDs() {
        let index = Index()
        let old = index.addTile(parent, layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
        let child = tile(6, 20, 24), symbol = [Symbol(key: "A", x: 2000, y: 2000)]
        #expect(index.addTile(child, layer: "l", symbols: symbol)[0].id == old)
        // Gone at zoom 6, the id is free there again: the child matches its parent anew.
        index.removeTiles(notIn: [parent], layer: "l")
        #expect(index.tileCount(layer: "l") == 1)
        #expect(index.addTile(child, layer: "l", symbols: symbol)[0].id == old)
        // With every tile gone nothing matches.
        index.removeTiles(notIn: Set<TileID>(), layer: "l")
        #expect(index.tileCount(layer: "l") == 0)
        let fresh = index.addTile(child, layer: "l", symbols: symbol)[0].id
        #expect(fresh != old)
        // A duplicate's neighbour removed: the duplicate keeps the id claimed at its zoom.
        let a = index.addTile(tile(6, 21, 24), layer: "l", symbols: [Symbol(key: "A", x: 2000 - 8192, y: 2000)])[0]
        #expect(a == Index.Assignment(id: fresh, duplicate: true))
        index.removeTiles(notIn: [tile(6, 21, 24)], layer: "l")
        let again = index.addTile(parent, layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
        #expect(again == fresh)
        // Still claimed at zoom 6: the child finds it only as the duplicate it is.
        #expect(index.addTile(child, layer: "l", symbols: symbol)[0] == Index.Assignment(id: fresh, duplicate: true))
    }

    @Test func aTileLaidOutAgainKeepsItsIDs() {
        let index = Index()
        let first = index.addTile(parent, layer: "l", symbols: labels).map(\.id)
        let moved = labels.map { Symbol(key: $0.key, x: $0.x + 20, y: $0.y) }
        #expect(index.addTile(parent, layer: "l", symbols: moved).map(\.id) == first)
        #expect(index.tileCount(layer: "l") == 1)
    }

    @Test func layersAreIndexedApart() {
        let index = Index()
        let a = index.addTile(parent, layer: "a", symbols: labels).map(\.id)
        let b = index.addTile(parent, layer: "b", symbols: labels).map(\.id)
        #expect(Set(a).isDisjoint(with: b))
        index.removeLayers(notIn: ["b"])
        #expect(index.tileCount(layer: "a") == 0 && index.tileCount(layer: "b") == 1)
    }

    /// Past 128 symbols of a key the search goes through the anchors sorted by column: the
    /// same answers as the scan of them all.
    @Test func manySymbolsOfOneKeyMatchAsFew() {
        for n in [10, 15] {  // 100 icons, then 225
            let index = Index()
            var grid: [Symbol] = []
            for i in 0..<n {
                for j in 0..<n { grid.append(Symbol(key: "", x: Double(i) * 8192 / Double(n) + 5, y: Double(j) * 8192 / Double(n) + 5)) }
            }
            let ids = index.addTile(parent, layer: "l", symbols: grid).map(\.id)
            // In the children, every seventh one moved out of reach (100 parent units), the rest
            // within it (15).
            var children: [TileID: [(Int, Symbol)]] = [:]
            for (k, s) in grid.enumerated() {
                let cx = s.x * 2 >= 8192 ? 1 : 0, cy = s.y * 2 >= 8192 ? 1 : 0
                let dx = k % 7 == 3 ? 200.0 : 30
                children[tile(6, 20 + cx, 24 + cy), default: []].append(
                    (k, Symbol(key: "", x: s.x * 2 - Double(cx) * 8192 + dx, y: s.y * 2 - Double(cy) * 8192)))
            }
            for (child, list) in children {
                for ((k, _), a) in zip(list, index.addTile(child, layer: "l", symbols: list.map(\.1))) {
                    #expect((a.id == ids[k]) == (k % 7 != 3), "n \(n), symbol \(k)")
                }
            }
        }
    }

    @Test func worldCopiesAreApartUntilShifted() {
        let index = Index()
        let old = index.addTile(Index.WrappedTile(parent), layer: "l", symbols: [Symbol(key: "A", x: 1000, y: 1000)])[0].id
        let copy = Index.WrappedTile(tile(6, 20, 24), wrap: 1)
        #expect(index.addTile(copy, layer: "l", symbols: [Symbol(key: "A", x: 2000, y: 2000)])[0].id != old)
        index.removeTiles(notIn: [Index.WrappedTile(parent)], layer: "l")
        #expect(index.tileCount(layer: "l") == 1)
        index.shiftWraps(by: 1)
        #expect(index.addTile(copy, layer: "l", symbols: [Symbol(key: "A", x: 2000, y: 2000)])[0].id == old)
    }
}
