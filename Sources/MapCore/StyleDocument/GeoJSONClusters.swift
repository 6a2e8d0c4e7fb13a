import Foundation

/// A clustered GeoJSON source's points as MapLibre's supercluster groups them: from the deepest
/// cluster zoom out to zoom 0, each point (or cluster) not yet taken gathers those of the zoom
/// below within `clusterRadius` pixels (of a 512-pixel tile) into a cluster at their weighted
/// centre, when they are at least `clusterMinPoints` together. A cluster is a Point feature with
/// `cluster: true`, `cluster_id` (also its id: the index of the point it grew from, the zoom
/// and the source's feature count, as supercluster encodes it), `point_count`,
/// `point_count_abbreviated` and its `clusterProperties`. Only Point features take part (as
/// in MapLibre, a clustered source draws nothing else). Made on first use.
final class GeoJSONClusters: @unchecked Sendable {
    private struct Item {
        var x: Double, y: Double
        /// The zoom it was last visited at (Int.max: not yet).
        var zoom: Int
        /// A point's index among the features, or a cluster's id.
        var id: Int
        var parent: Int
        var count: Int
        /// Index into `properties` (-1: none).
        var props: Int
    }
    private let features: [GeoFeature]
    private let options: GeoJSONSourceOptions
    /// Items per zoom, 0...maxZoom + 1 (the last: the points themselves).
    private var levels: [[Item]] = []
    /// Aggregated cluster properties, each in `options.clusterProperties` order.
    private var properties: [[StyleValue]] = []
    private let lock = NSLock()
    private var made: [Int: GeoJSONData] = [:]

    init(_ features: [GeoFeature], options: GeoJSONSourceOptions) {
        self.features = features; self.options = options
        var items: [Item] = []
        for (i, f) in features.enumerated() {
            let g = f.geometry
            guard g.kind == .points, g.coordinates.count == 2 else { continue }
            items.append(Item(x: Double(Float(g.coordinates[0])), y: Double(Float(g.coordinates[1])), zoom: .max, id: i, parent: -1, count: 1, props: -1))
        }
        let top = options.effectiveClusterMaxZoom
        levels = [[Item]](repeating: [], count: top + 2)
        levels[top + 1] = items
        for z in stride(from: top, through: 0, by: -1) { levels[z] = cluster(&levels[z + 1], zoom: z) }
    }

    /// The features at camera zoom `zoom`: clusters and the points no cluster took.
    func data(zoom: Double) -> GeoJSONData {
        let z = Int(min(max(finite(zoom).rounded(.down), 0), Double(levels.count - 1)))
        lock.lock(); defer { lock.unlock() }
        if let d = made[z] { return d }
        let d = GeoJSONData(features: levels[z].map(feature))
        made[z] = d
        return d
    }

    private func feature(_ item: Item) -> GeoFeature {
        guard item.count > 1 else {
            let f = features[item.id]
            return GeoFeature(geometry: FeatureGeometry(point: MercatorPoint(x: item.x, y: item.y)), evaluation: f.evaluation)
        }
        var p: [String: StyleValue] = [:]
        if item.props >= 0 { for (k, c) in options.clusterProperties.enumerated() { p[c.name] = properties[item.props][k] } }
        let n = item.count
        p["cluster"] = .bool(true); p["cluster_id"] = .number(Double(item.id)); p["point_count"] = .number(Double(n))
        p["point_count_abbreviated"] = Self.abbreviated(n)
        return GeoFeature(geometry: FeatureGeometry(point: MercatorPoint(x: item.x, y: item.y)),
                          evaluation: EvaluationFeature(properties: p, id: .number(Double(item.id)), geometryType: "Point"))
    }

    /// supercluster's `point_count_abbreviated`: the count below 1000, then "1.2k", then "12k".
    static func abbreviated(_ n: Int) -> StyleValue {
        if n >= 10000 { return .string("\(Int((Double(n) / 1000).rounded(.toNearestOrAwayFromZero)))k") }
        if n >= 1000 { return .string(JSNumber.format((Double(n) / 100).rounded(.toNearestOrAwayFromZero) / 10) + "k") }
        return .number(Double(n))
    }

    /// The items of zoom `zoom` made from those of the zoom below (marked as visited).
    private func cluster(_ data: inout [Item], zoom: Int) -> [Item] {
        let r = options.clusterRadius / (512 * Double(1 << zoom))
        let grid = Grid(data, cell: max(r, 1e-12))
        var next: [Item] = []
        var neighbours: [Int] = []
        for i in data.indices {
            if data[i].zoom <= zoom { continue }
            data[i].zoom = zoom
            let x = data[i].x, y = data[i].y
            grid.within(x, y, r, data, into: &neighbours)
            let origin = data[i].count
            var count = origin
            for k in neighbours where data[k].zoom > zoom { count += data[k].count }
            if count > origin && count >= options.clusterMinPoints {
                var wx = x * Double(origin), wy = y * Double(origin)
                var props = -1
                let id = (i << 5) + (zoom + 1) + features.count
                for k in neighbours {
                    if data[k].zoom <= zoom { continue }
                    data[k].zoom = zoom
                    wx += data[k].x * Double(data[k].count); wy += data[k].y * Double(data[k].count)
                    data[k].parent = id
                    if !options.clusterProperties.isEmpty {
                        if props < 0 { props = properties.count; properties.append(mapped(data[i])) }
                        reduce(props, mapped(data[k]))
                    }
                }
                data[i].parent = id
                next.append(Item(x: wx / Double(count), y: wy / Double(count), zoom: .max, id: id, parent: -1, count: count, props: props))
            } else {
                next.append(data[i])
                if count > 1 {
                    for k in neighbours where data[k].zoom > zoom {
                        data[k].zoom = zoom
                        next.append(data[k])
                    }
                }
            }
        }
        return next
    }

    /// An item's cluster properties: a cluster's aggregates, or the map expressions of a point.
    private func mapped(_ item: Item) -> [StyleValue] {
        if item.count > 1, item.props >= 0 { return properties[item.props] }
        let f = features[item.id].evaluation
        let c = EvaluationContext(zoom: 0, feature: f)
        return options.clusterProperties.map { (try? $0.map.evaluate(c)) ?? .null }
    }

    private func reduce(_ target: Int, _ other: [StyleValue]) {
        for (k, c) in options.clusterProperties.enumerated() {
            let f = EvaluationFeature(properties: [c.name: other[k], GeoJSONSourceOptions.accumulatedKey: properties[target][k]])
            properties[target][k] = (try? c.reduce.evaluate(EvaluationContext(zoom: 0, feature: f))) ?? .null
        }
    }

    /// The items of one zoom in square cells of the cluster radius, for finding neighbours.
    private struct Grid {
        let cell: Double
        var cells: [Int64: [Int32]] = [:]
        init(_ data: [Item], cell: Double) {
            self.cell = cell
            for (i, item) in data.enumerated() { cells[key(Float(item.x), Float(item.y)), default: []].append(Int32(i)) }
        }
        private func column(_ v: Double) -> Int64 { Int64((v / cell).rounded(.down)) }
        private func key(_ x: Float, _ y: Float) -> Int64 { column(Double(x)) << 32 | (column(Double(y)) & 0xFFFF_FFFF) }
        /// The items within `r` of (x, y) (positions as supercluster's index keeps them: 32-bit).
        func within(_ x: Double, _ y: Double, _ r: Double, _ data: [Item], into out: inout [Int]) {
            out.removeAll(keepingCapacity: true)
            let cx = column(x), cy = column(y)
            for gy in (cy - 1)...(cy + 1) {
                for gx in (cx - 1)...(cx + 1) {
                    guard let list = cells[gx << 32 | (gy & 0xFFFF_FFFF)] else { continue }
                    for k in list {
                        let dx = Double(Float(data[Int(k)].x)) - x, dy = Double(Float(data[Int(k)].y)) - y
                        if dx * dx + dy * dy <= r * r { out.append(Int(k)) }
                    }
                }
            }
            out.sort()
        }
    }
}
