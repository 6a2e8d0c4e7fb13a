import Foundation

/// The features a frame draws from a vector source: the tiles of its cover, each cut to its
/// square, joined into one GeoJSON-like set per source layer so that every layer kind (fill, line,
/// circle, symbol) draws tiled data through the same feature path as GeoJSON.
///
/// A feature that reaches a tile's edge usually goes on in the next tile; its pieces (in other
/// tiles, with the same id, properties and kind) become one feature again: polygon pieces are
/// filled together (their cut edges cancel, so no seam shows), line pieces are joined end to end
/// where they meet on a tile edge (so joins, caps and dashes run across), and a point on an edge
/// is kept by one tile only. Made once per cover (tiles and squares) and source layer.
public final class CoverFeatures: @unchecked Sendable {
    public let entries: [TileSet.CoverEntry]
    /// The deepest zoom among the entries (line pieces are joined on its tile edges).
    private let zoom: Int
    private let lock = NSLock()
    private var layers: [String: GeoJSONData] = [:]
    private var sets: [String: GeometrySet] = [:]

    public init(entries: [TileSet.CoverEntry]) {
        self.entries = entries
        zoom = entries.map(\.square.z).max() ?? 0
    }

    /// Source layer `name`'s features (made on first use, then kept).
    public func layer(_ name: String) -> GeoJSONData {
        lock.lock()
        if let d = layers[name] { lock.unlock(); return d }
        lock.unlock()
        let d = GeoJSONData(features: Self.merge(entries, layer: name, zoom: zoom))
        lock.lock(); defer { lock.unlock() }
        if let other = layers[name] { return other }
        layers[name] = d
        return d
    }

    /// Source layer `name` as one geometry set (`GeometrySet(name:features:lines:)`), for a
    /// layer that draws every feature alike (made on first use, then kept).
    public func geometry(_ name: String, lines: Bool) -> GeometrySet {
        let key = lines ? "l" + name : "p" + name
        lock.lock()
        if let g = sets[key] { lock.unlock(); return g }
        lock.unlock()
        let g = GeometrySet(name: name, features: layer(name).features, lines: lines)
        lock.lock(); defer { lock.unlock() }
        if let other = sets[key] { return other }
        sets[key] = g
        return g
    }

    /// Two features are pieces of one when they have the same id (or none), the same properties
    /// and the same kind of geometry. An id alone says nothing: tiles' ids are not unique in
    /// real data (every feature of Mapbox Streets v7 has id 0).
    private struct PieceKey: Hashable {
        let hash: Int
        let feature: EvaluationFeature
        let kind: FeatureGeometry.Kind

        init(_ f: GeoFeature) {
            feature = f.evaluation; kind = f.geometry.kind
            var h = Hasher()
            h.combine(kind)
            h.combine(f.evaluation.geometryType)
            if let id = f.evaluation.id { Self.combine(id, &h) }
            for (k, v) in f.evaluation.properties.dictionary.sorted(by: { $0.key < $1.key }) { h.combine(k); Self.combine(v, &h) }
            hash = h.finalize()
        }

        static func combine(_ v: StyleValue, _ h: inout Hasher) {
            switch v {
            case .null: h.combine(0)
            case let .bool(b): h.combine(b)
            case let .number(n): h.combine(n)
            case let .string(s): h.combine(s)
            case let .color(c): h.combine(c.r); h.combine(c.g); h.combine(c.b); h.combine(c.a)
            case let .array(a): h.combine(a.count); for x in a { combine(x, &h) }
            case let .object(o): h.combine(o.count); for (k, x) in o.sorted(by: { $0.key < $1.key }) { h.combine(k); combine(x, &h) }
            case let .formatted(f): h.combine(f.plainText)
            }
        }

        func hash(into h: inout Hasher) { h.combine(hash) }
        static func == (a: PieceKey, b: PieceKey) -> Bool {
            guard a.hash == b.hash, a.kind == b.kind, a.feature.geometryType == b.feature.geometryType else { return false }
            return a.feature.id == b.feature.id && a.feature.properties == b.feature.properties
        }
    }

    /// The features in an order every tile agrees with: each tile's features keep their order
    /// (the order they are drawn in inside its square), a feature made of pieces coming after
    /// everything before any of its pieces. Tiles cut from one data set list their features in
    /// its order, so such an order exists; where tiles disagree (a feature twice in one tile) the
    /// earliest waiting feature goes first.
    static func merge(_ entries: [TileSet.CoverEntry], layer name: String, zoom: Int) -> [GeoFeature] {
        var nodes: [GeoFeature] = []
        var order: [Int] = []                   // each node's first place: entry << 32 | index
        var sequences: [[Int32]] = []
        var groups: [PieceKey: Int32] = [:]
        var groupEntry: [Int32: Int] = [:]     // the entry of each group's first piece
        var pieces: [Int32: [FeatureGeometry]] = [:]
        for (k, entry) in entries.enumerated() {
            guard case let .vector(tile) = entry.content, let layer = tile.features(name, in: TileSquare(entry.square)) else { continue }
            var sequence: [Int32] = []
            sequence.reserveCapacity(layer.features.count)
            nodes.reserveCapacity(nodes.count + layer.features.count)
            for (i, (f, edge)) in zip(layer.features, layer.touchesEdge).enumerated() {
                if edge, entries.count > 1 {
                    let key = PieceKey(f)
                    // (Two features of one tile are two features, however alike.)
                    if let g = groups[key], groupEntry[g] != k {
                        pieces[g, default: []].append(f.geometry)
                        sequence.append(g)
                        continue
                    }
                    if groups[key] == nil {
                        groups[key] = Int32(nodes.count)
                        groupEntry[Int32(nodes.count)] = k
                    }
                }
                sequence.append(Int32(nodes.count))
                nodes.append(f)
                order.append(k << 32 | i)
            }
            sequences.append(sequence)
        }
        for (g, rest) in pieces {
            let first = nodes[Int(g)]
            nodes[Int(g)] = GeoFeature(geometry: Self.joined([first.geometry] + rest, zoom: zoom), evaluation: first.evaluation)
        }
        guard !pieces.isEmpty else { return nodes }
        // Kahn's sort over "comes before" within each tile, earliest first place first.
        var next = [[Int32]](repeating: [], count: nodes.count)
        var waiting = [Int32](repeating: 0, count: nodes.count)
        for seq in sequences {
            for (a, b) in zip(seq, seq.dropFirst()) where a != b { next[Int(a)].append(b); waiting[Int(b)] += 1 }
        }
        // (The earliest place first: by key, a node's place in `order`.)
        var heap = BinaryHeap<(key: Int, node: Int)> { $0.key < $1.key }
        for n in nodes.indices where waiting[n] == 0 { heap.push((order[n], n)) }
        var done = [Bool](repeating: false, count: nodes.count)
        var out: [GeoFeature] = []
        out.reserveCapacity(nodes.count)
        var scan = 0                             // (for a cycle: the earliest node not out yet)
        while out.count < nodes.count {
            var n: Int
            if let top = heap.pop() {
                n = top.node
            } else {
                while done[scan] { scan += 1 }
                n = scan
            }
            if done[n] { continue }
            done[n] = true
            out.append(nodes[n])
            for m in next[Int(n)] {
                waiting[Int(m)] -= 1
                if waiting[Int(m)] == 0 && !done[Int(m)] { heap.push((order[Int(m)], Int(m))) }
            }
        }
        return out
    }

    /// Pieces of one feature (all of one kind) as one geometry.
    static func joined(_ pieces: [FeatureGeometry], zoom: Int) -> FeatureGeometry {
        let kind = pieces[0].kind
        func parts(_ g: FeatureGeometry) -> [[MercatorPoint]] {
            (0..<g.partCount).map { i in g.part(i).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) } }
        }
        switch kind {
        case .points:
            return FeatureGeometry(kind: .points, parts: pieces.flatMap(parts))
        case .lines:
            return FeatureGeometry(kind: .lines, parts: stitched(pieces.flatMap(parts), zoom: zoom))
        case .polygons:
            var rings: [[MercatorPoint]] = [], starts: [Int] = [], outline: [[MercatorPoint]] = []
            for g in pieces {
                let own = parts(g)
                for s in g.polygonStarts.dropLast() { starts.append(rings.count + s) }
                rings += own
                outline += g.outline.map(parts) ?? own
            }
            return FeatureGeometry(kind: .polygons, parts: rings, polygonStarts: starts,
                                   outline: FeatureGeometry(kind: .lines, parts: stitched(outline, zoom: zoom)))
        }
    }

    /// Polylines joined where one ends exactly where another begins, on a tile edge of `zoom`.
    static func stitched(_ lines: [[MercatorPoint]], zoom: Int) -> [[MercatorPoint]] {
        guard lines.count > 1 else { return lines }
        struct Key: Hashable { let x: UInt64, y: UInt64; init(_ p: MercatorPoint) { x = p.x.bitPattern; y = p.y.bitPattern } }
        let scale = Double(1 << min(max(zoom, 0), 30))
        func onTileEdge(_ p: MercatorPoint) -> Bool {
            let x = p.x * scale, y = p.y * scale
            return x == x.rounded() || y == y.rounded()
        }
        var starts: [Key: [Int]] = [:], ends: [Key: [Int]] = [:]
        for (i, l) in lines.enumerated() {
            guard let a = l.first, let b = l.last, l.count >= 2 else { continue }
            if onTileEdge(a) { starts[Key(a), default: []].append(i) }
            if onTileEdge(b) { ends[Key(b), default: []].append(i) }
        }
        var used = [Bool](repeating: false, count: lines.count)
        var out: [[MercatorPoint]] = []
        for i in lines.indices where !used[i] {
            guard lines[i].count >= 2 else { used[i] = true; continue }
            // Back to the first piece of the chain (a ring of pieces stops where it began).
            var head = i, steps = 0
            while steps < lines.count, let a = lines[head].first,
                  let prev = ends[Key(a)]?.first(where: { !used[$0] && $0 != head && $0 != i }) {
                head = prev; steps += 1
            }
            var chain = lines[head]
            used[head] = true
            while let b = chain.last, let next = starts[Key(b)]?.first(where: { !used[$0] }) {
                chain += lines[next].dropFirst()
                used[next] = true
            }
            out.append(chain)
        }
        return out
    }
}
