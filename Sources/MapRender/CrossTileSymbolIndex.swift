import MapCore

/// One identity for the same label wherever it shows: in a tile and in the tiles that replace
/// it when the camera zooms (its parent, its four children), and in a tile laid out again. A
/// label's fade state and its place in the collision order hang off that id, so a label that
/// moves from a tile to its children keeps its opacity instead of blinking out and in, and one
/// that two tiles hold at once is drawn once. (MapLibre GL JS's
/// `src/symbol/cross_tile_symbol_index.ts`, written again over nightmap's `TileID`.)
///
/// A symbol is its key (the shaped text; "" for an icon without text) and its anchor in its
/// tile's 8192 units. Anchors are compared in cells of 32 units of the frame of the tile already
/// in the index (about 4 px at 512 px per tile), so small differences between the layouts of two
/// zooms still match. A new symbol takes the id of the first symbol with its key that is within
/// the tolerance of its cell and whose id no tile of the new symbol's zoom holds yet:
/// - in an index one or more zooms out (the tile's ancestor, or the tile itself laid out
///   before), the tolerance is 1 cell;
/// - in an index dz zooms in (a descendant), it is 2^dz cells of that descendant, a parent's
///   cell being that many of the child's.
/// An id goes to one symbol per zoom: when two symbols of a zoom match the same parent symbol,
/// the second gets an id of its own (MapLibre issue #5993: otherwise both would fade as one
/// and one would hide the other).
///
/// Beyond MapLibre, which drops anchors outside a tile when it lays the tile out: a symbol that
/// matches nothing that way but lies within 1 cell of a symbol with its key in a neighbouring
/// tile of its zoom (a feature both tiles hold in their buffers) takes that symbol's id and is
/// told it is a duplicate. Placement then draws the id once, as MapLibre skips a cross-tile id
/// it has already placed in a frame.
///
/// Layers are indexed apart (the same text in two layers is two symbols), ids are unique across
/// all of them. Tiles of different world copies are different tiles (`WrappedTile`).
public final class CrossTileSymbolIndex {
    /// A tile in one copy of the world: `wrap` copies east (negative: west) of the main one.
    public struct WrappedTile: Hashable, Sendable, CustomStringConvertible {
        public let id: TileID
        public let wrap: Int

        public init(_ id: TileID, wrap: Int = 0) {
            self.id = id; self.wrap = wrap
        }

        public var description: String { wrap == 0 ? id.description : "\(id)@\(wrap)" }

        /// The column counted from the west edge of world copy 0 across copies, so that tiles of
        /// one copy are parents, children and neighbours of each other by plain arithmetic.
        var column: Int { wrap * (1 << id.z) + id.x }
    }

    /// A symbol of a tile: its key and its anchor in the tile's 8192 units.
    public struct Symbol: Sendable {
        public let key: String
        public let x: Double, y: Double

        public init(key: String, x: Double, y: Double) {
            self.key = key; self.x = x; self.y = y
        }
    }

    /// The id given to a symbol, and whether a neighbouring tile of its zoom holds the same
    /// symbol under that id (the caller draws the id once: this one can be skipped).
    public struct Assignment: Equatable, Sendable {
        public let id: Int
        public let duplicate: Bool
    }

    /// A tile's extent in its own units, and the cell size anchors are rounded to (MapLibre's
    /// roundingFactor 512 / 8192 / 2: 32 units).
    static let extent = 8192.0
    static let cell = 32.0
    /// A key with more symbols than this in one tile is searched through its anchors sorted by
    /// cell column instead of all of them (MapLibre builds a KDBush past 128).
    static let sortedThreshold = 128

    private var layers: [String: LayerIndex] = [:]
    private var lastID = 0

    public init() {}

    /// Gives each of `symbols` of `tile` in `layer` its cross-tile id, in order: the id of a
    /// matching symbol of an ancestor or descendant of the tile in the index (or of the tile's
    /// previous layout, which this one replaces), else a new one. The tile is indexed with these
    /// ids for the tiles added after it.
    @discardableResult
    public func addTile(_ tile: WrappedTile, layer: String, symbols: [Symbol]) -> [Assignment] {
        let index: LayerIndex
        if let known = layers[layer] {
            index = known
        } else {
            index = LayerIndex(); layers[layer] = index
        }
        return index.add(tile, symbols) { lastID += 1; return lastID }
    }

    /// `addTile` for a tile of world copy 0.
    @discardableResult
    public func addTile(_ id: TileID, layer: String, symbols: [Symbol]) -> [Assignment] {
        addTile(WrappedTile(id), layer: layer, symbols: symbols)
    }

    /// Forgets the tiles of `layer` not in `keep`: their ids are free to be claimed again at their
    /// zoom, and no tile added later matches their symbols.
    public func removeTiles(notIn keep: Set<WrappedTile>, layer: String) {
        layers[layer]?.remove { !keep.contains($0) }
    }

    /// `removeTiles` where every kept tile is of world copy 0.
    public func removeTiles(notIn keep: Set<TileID>, layer: String) {
        layers[layer]?.remove { $0.wrap != 0 || !keep.contains($0.id) }
    }

    /// Forgets every layer not in `keep` (layers gone from the style).
    public func removeLayers(notIn keep: Set<String>) {
        layers = layers.filter { keep.contains($0.key) }
    }

    /// Renumbers the world copies of every indexed tile by `delta` (the camera's longitude was
    /// wrapped by `delta` turns, and the tiles it covers now carry other copy numbers): their
    /// symbols keep matching the same places. MapLibre's `handleWrapJump`.
    public func shiftWraps(by delta: Int) {
        guard delta != 0 else { return }
        for index in layers.values { index.shiftWraps(by: delta) }
    }

    /// How many tiles of `layer` are indexed.
    func tileCount(layer: String) -> Int {
        layers[layer]?.byZoom.values.reduce(0) { $0 + $1.count } ?? 0
    }
}

/// The tiles of one layer, by zoom, and which ids each zoom's tiles hold.
private final class LayerIndex {
    var byZoom: [Int: [CrossTileSymbolIndex.WrappedTile: TileSymbols]] = [:]
    /// Per zoom, per id, how many of the zoom's tiles hold it (an id held is claimed).
    var claims: [Int: [Int: Int]] = [:]

    func add(_ tile: CrossTileSymbolIndex.WrappedTile, _ symbols: [CrossTileSymbolIndex.Symbol],
             newID: () -> Int) -> [CrossTileSymbolIndex.Assignment] {
        let z = tile.id.z
        // A tile laid out again: its old layout's ids are free for the new one, which matches
        // against the old layout as against any index at its zoom.
        let previous = byZoom[z]?[tile]
        if let previous { release(previous, zoom: z) }

        var ids = [Int](repeating: 0, count: symbols.count)
        var claimed = claims[z] ?? [:]
        func claim(_ id: Int) -> Bool {
            guard claimed[id] == nil else { return false }
            claimed[id] = 1
            return true
        }
        // Ancestors (and the old layout) first, from zoom 0 up, then descendants, zoom by zoom,
        // each zoom's tiles west to east and north to south.
        for zoom in byZoom.keys.sorted() {
            if zoom <= z {
                let d = z - zoom
                let other = zoom == z ? previous : TileID(z: zoom, x: tile.id.x >> d, y: tile.id.y >> d)
                    .flatMap { byZoom[zoom]?[CrossTileSymbolIndex.WrappedTile($0, wrap: tile.wrap)] }
                other?.match(symbols, of: tile, into: &ids, claim: claim)
            } else {
                let d = zoom - z
                let children = (byZoom[zoom] ?? [:]).values
                    .filter { $0.tile.column >> d == tile.column && $0.tile.id.y >> d == tile.id.y }
                    .sorted { ($0.tile.column, $0.tile.id.y) < ($1.tile.column, $1.tile.id.y) }
                for child in children { child.match(symbols, of: tile, into: &ids, claim: claim) }
            }
        }
        // The same symbol in a neighbour's buffer: shares the neighbour's id (no claim: it is
        // already held at this zoom), once per symbol of the neighbour.
        let unmatched = ids.map { $0 == 0 }
        if unmatched.contains(true) {
            var taken = Set(ids)
            for neighbour in neighbours(of: tile) {
                neighbour.match(symbols, of: tile, into: &ids) { id in taken.insert(id).inserted }
            }
        }
        let duplicate = ids.indices.map { unmatched[$0] && ids[$0] != 0 }
        for i in ids.indices where ids[i] == 0 {
            ids[i] = newID()
            claimed[ids[i]] = 1
        }
        // Every id the tile holds counts once more at its zoom (a duplicate's too, so it stays
        // claimed while either tile is indexed).
        for i in ids.indices where duplicate[i] { claimed[ids[i], default: 0] += 1 }
        claims[z] = claimed
        byZoom[z, default: [:]][tile] = TileSymbols(tile, symbols, ids)
        return ids.indices.map { CrossTileSymbolIndex.Assignment(id: ids[$0], duplicate: duplicate[$0]) }
    }

    /// The indexed tiles around `tile` at its zoom, in its world copy's column numbering.
    private func neighbours(of tile: CrossTileSymbolIndex.WrappedTile) -> [TileSymbols] {
        guard let zoom = byZoom[tile.id.z] else { return [] }
        return zoom.values
            .filter { $0.tile != tile && abs($0.tile.column - tile.column) <= 1 && abs($0.tile.id.y - tile.id.y) <= 1 }
            .sorted { ($0.tile.column, $0.tile.id.y) < ($1.tile.column, $1.tile.id.y) }
    }

    func remove(where gone: (CrossTileSymbolIndex.WrappedTile) -> Bool) {
        for (z, tiles) in byZoom {
            for (tile, symbols) in tiles where gone(tile) {
                release(symbols, zoom: z)
                byZoom[z]?[tile] = nil
            }
        }
    }

    /// Gives back the claims `symbols` held at `zoom`.
    private func release(_ symbols: TileSymbols, zoom: Int) {
        for id in symbols.allIDs {
            guard let n = claims[zoom]?[id] else { continue }
            claims[zoom]?[id] = n > 1 ? n - 1 : nil
        }
    }

    func shiftWraps(by delta: Int) {
        for (z, tiles) in byZoom {
            var moved: [CrossTileSymbolIndex.WrappedTile: TileSymbols] = [:]
            for symbols in tiles.values {
                symbols.tile = CrossTileSymbolIndex.WrappedTile(symbols.tile.id, wrap: symbols.tile.wrap + delta)
                moved[symbols.tile] = symbols
            }
            byZoom[z] = moved
        }
    }
}

/// One tile's symbols of a layer, grouped by key: their anchors rounded to cells of the tile and
/// their ids. (MapLibre's TileLayerIndex.)
private final class TileSymbols {
    var tile: CrossTileSymbolIndex.WrappedTile

    struct Group {
        var cellX: [Double] = [], cellY: [Double] = []
        var ids: [Int] = []
        /// For a large group, its entries with finite cells ordered by cell column.
        var byColumn: [Int]?
    }

    private var groups: [String: Group] = [:]

    init(_ tile: CrossTileSymbolIndex.WrappedTile, _ symbols: [CrossTileSymbolIndex.Symbol], _ ids: [Int]) {
        self.tile = tile
        let cell = CrossTileSymbolIndex.cell
        for (s, id) in zip(symbols, ids) {
            groups[s.key, default: Group()].cellX.append((s.x / cell).rounded(.down))
            groups[s.key, default: Group()].cellY.append((s.y / cell).rounded(.down))
            groups[s.key, default: Group()].ids.append(id)
        }
        for (key, g) in groups where g.ids.count > CrossTileSymbolIndex.sortedThreshold {
            groups[key]?.byColumn = g.ids.indices.filter { g.cellX[$0].isFinite && g.cellY[$0].isFinite }
                .sorted { (g.cellX[$0], $0) < (g.cellX[$1], $1) }
        }
    }

    var allIDs: [Int] { groups.values.flatMap(\.ids) }

    /// Gives each symbol of `symbols` (laid out in `other`) still without an id (0 in `ids`) the
    /// id of the first symbol here with its key within the tolerance that `claim` accepts.
    func match(_ symbols: [CrossTileSymbolIndex.Symbol], of other: CrossTileSymbolIndex.WrappedTile,
               into ids: inout [Int], claim: (Int) -> Bool) {
        let extent = CrossTileSymbolIndex.extent, cell = CrossTileSymbolIndex.cell
        let dz = other.id.z - tile.id.z
        let tolerance = dz > 0 ? 1 : Double(1 << -dz)
        // `other`'s anchors in this tile's cells: through world units of `other`'s zoom,
        // scaled to this tile's zoom.
        let scale = 1 / (cell * Double(sign: .plus, exponent: dz, significand: 1))
        let originX = Double(tile.column) * extent / cell, originY = Double(tile.id.y) * extent / cell
        for (i, s) in symbols.enumerated() where ids[i] == 0 {
            guard let g = groups[s.key] else { continue }
            let x = ((Double(other.column) * extent + s.x) * scale - originX).rounded(.down)
            let y = ((Double(other.id.y) * extent + s.y) * scale - originY).rounded(.down)
            func near(_ j: Int) -> Bool { abs(g.cellX[j] - x) <= tolerance && abs(g.cellY[j] - y) <= tolerance }
            var found: Int?
            if let order = g.byColumn {
                // The matches, first in layout order, among the entries of the columns in reach.
                var lo = 0, hi = order.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if g.cellX[order[mid]] < x - tolerance { lo = mid + 1 } else { hi = mid }
                }
                var candidates: [Int] = []
                while lo < order.count, g.cellX[order[lo]] <= x + tolerance {
                    if near(order[lo]) { candidates.append(order[lo]) }
                    lo += 1
                }
                candidates.sort()
                found = candidates.first { claim(g.ids[$0]) }
            } else {
                found = g.ids.indices.first { near($0) && claim(g.ids[$0]) }
            }
            if let j = found { ids[i] = g.ids[j] }
        }
    }
}
