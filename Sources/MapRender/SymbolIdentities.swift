import MapCore

/// Each symbol's identity, the same for the same label wherever and whenever it is laid out:
/// symbols are filed by the tile of their layer's layout zoom that holds their anchor, and the
/// cross-tile index (`CrossTileSymbolIndex`) matches them with the symbols of that tile's last
/// layout, its ancestors' and its descendants'. A pan that brings new features (a new symbol
/// set) and a zoom across a whole zoom (a new layout) keep every label's identity, and with it
/// its place in the fade and its last candidate position: nothing blinks. Ids are computed when
/// a layer's symbol set changes, not per frame.
struct SymbolIdentities {
    private let index = CrossTileSymbolIndex()
    /// Per layer of the frame: the set the ids were computed for, and the ids (in its order).
    private var sets: [ObjectIdentifier?] = []
    private var layerIDs: [String] = []
    private var byLayer: [[Int]] = []
    /// Per layer: its symbols' positions filed by tile (kept storage).
    private var files: [TileID: [(index: Int, symbol: CrossTileSymbolIndex.Symbol)]] = [:]

    /// The ids of the frame's layer `layer`'s symbols, in their order (empty for other layers).
    func ids(layer: Int) -> [Int] { layer < byLayer.count ? byLayer[layer] : [] }

    /// Brings the ids up to date with the frame's symbol layers.
    mutating func update(_ layers: [FrameDescription.DrawLayer]) {
        var changed = layers.count != sets.count
        while sets.count < layers.count { sets.append(nil); layerIDs.append(""); byLayer.append([]) }
        if sets.count > layers.count {
            sets.removeLast(sets.count - layers.count); layerIDs.removeLast(layerIDs.count - layers.count)
            byLayer.removeLast(byLayer.count - layers.count)
        }
        for i in layers.indices {
            guard let set = layers[i].symbols?.set else {
                if sets[i] != nil { sets[i] = nil; byLayer[i] = []; changed = true }
                continue
            }
            if sets[i] == ObjectIdentifier(set) && layerIDs[i] == layers[i].id { continue }
            changed = true
            sets[i] = ObjectIdentifier(set); layerIDs[i] = layers[i].id
            byLayer[i] = assign(set, layer: layers[i].id)
        }
        if changed { index.removeLayers(notIn: Set(zip(layers, sets).compactMap { $1 == nil ? nil : $0.id })) }
    }

    /// The ids of `set`'s symbols: filed by their tile at the set's layout zoom (the anchor in
    /// the tile's 8192 units), matched tile by tile, the layer's other tiles dropped.
    private mutating func assign(_ set: SymbolSet, layer: String) -> [Int] {
        let z = min(max(set.layoutZoom, 0), 24)
        let tiles = Double(1 << z)
        for k in files.keys { files[k]?.removeAll(keepingCapacity: true) }
        for (k, symbol) in set.symbols.enumerated() {
            let x = symbol.point.x * tiles, y = symbol.point.y * tiles
            guard x.isFinite, y.isFinite else { continue }
            let tx = min(max(x.rounded(.down), 0), tiles - 1), ty = min(max(y.rounded(.down), 0), tiles - 1)
            guard let tile = TileID(z: z, x: Int(tx), y: Int(ty)) else { continue }
            let key = symbol.text?.string ?? ""
            files[tile, default: []].append((k, .init(key: key, x: (x - tx) * 8192, y: (y - ty) * 8192)))
        }
        // (Ids of symbols not filed, their anchors absurd, stay 0: never placed.)
        var ids = [Int](repeating: 0, count: set.symbols.count)
        var kept = Set<TileID>()
        // (In a fixed order, so the same symbols always get the same ids.)
        for tile in files.keys.sorted(by: { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) }) {
            guard let filed = files[tile], !filed.isEmpty else { continue }
            kept.insert(tile)
            let assigned = index.addTile(tile, layer: layer, symbols: filed.map(\.symbol))
            for (j, a) in assigned.enumerated() where j < filed.count { ids[filed[j].index] = a.id }
        }
        index.removeTiles(notIn: kept, layer: layer)
        if files.count > 4 * kept.count + 64 { files = files.filter { !$0.value.isEmpty } }
        return ids
    }
}
