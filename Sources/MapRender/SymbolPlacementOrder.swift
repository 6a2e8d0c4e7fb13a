import Foundation
import MapCore

/// The order a layer's symbols are placed in, as MapLibre places them: tile by tile (the
/// tiles of the layer's layout zoom, rows from the top of the turned map down, each row west
/// to east: the order its symbols are drawn in, which the render tests bear out for placement
/// too, where the reverse order loses four of them), each tile's symbols in the layer's order
/// (from the bottom up for `symbol-z-order: viewport-y`). A `symbol-sort-key` orders them
/// across tiles instead. Kept per symbol set and bearing.
struct SymbolPlacementOrder {
    private var set: ObjectIdentifier?
    private var bearing = Double.nan
    private(set) var order: [Int] = []

    /// The order for `set` at `bearing` (degrees).
    mutating func order(for set: SymbolSet, bearing: Double) -> [Int] {
        if self.set == ObjectIdentifier(set) && self.bearing == bearing { return order }
        self.set = ObjectIdentifier(set); self.bearing = bearing
        let n = set.symbols.count
        let forward = set.placesBottomUp ? Array((0..<n).reversed()) : Array(0..<n)
        guard set.placesByTile, n > 1 else { order = forward; return order }
        let tiles = Double(1 << min(max(set.layoutZoom, 0), 24))
        let angle = -bearing * Double.pi / 180
        let c = cos(angle), s = sin(angle)
        // Each symbol's tile, turned with the map as MapLibre turns tile coordinates.
        var keys: [(y: Double, x: Double)] = []
        keys.reserveCapacity(n)
        for symbol in set.symbols {
            let tx = (symbol.point.x * tiles).rounded(.down), ty = (symbol.point.y * tiles).rounded(.down)
            let x = tx.isFinite ? tx : 0, y = ty.isFinite ? ty : 0
            keys.append((x * s + y * c, x * c - y * s))
        }
        var rank = [Int](repeating: 0, count: n)
        for (r, i) in forward.enumerated() { rank[i] = r }
        order = forward.sorted { a, b in
            let ka = keys[a], kb = keys[b]
            if ka.y != kb.y { return ka.y < kb.y }
            if ka.x != kb.x { return ka.x < kb.x }
            return rank[a] < rank[b]
        }
        return order
    }
}
