import Foundation

/// The tiles a view needs from a tiled source: those at one zoom whose squares meet the visible
/// box, within the source's bounds, each once however many world copies the view shows (the
/// renderer draws every copy of what it is given), nearest the view's centre first.
public enum TileCover {
    /// At most this many tiles (a 4K screen at a zoom between two tile zooms needs about 150).
    public static let limit = 1024

    /// The tiles of zoom `z` that meet `box` (normalised Web Mercator; x may run past 0...1
    /// into other world copies) and `bounds`.
    public static func tiles(z: Int, box: MercatorBox, bounds: LngLatBounds = .world) -> [TileID] {
        let z = min(max(z, 0), 30)
        let n = 1 << z, scale = Double(n)
        guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite,
              box.minX <= box.maxX, box.minY <= box.maxY else { return [] }
        // The source's bounds as a range of columns and rows (its x without world copies).
        let bx0 = WebMercator.x(lng: bounds.west), bx1 = WebMercator.x(lng: bounds.east)
        let by0 = WebMercator.y(lat: bounds.north), by1 = WebMercator.y(lat: bounds.south)
        let col0 = max(0, Int((bx0 * scale).rounded(.down))), col1 = min(n - 1, Int((bx1 * scale).rounded(.up)) - 1)
        let row0 = max(0, Int((max(box.minY, by0) * scale).rounded(.down)))
        let row1 = min(n - 1, Int((min(box.maxY, by1) * scale).rounded(.up)) - 1)
        guard row0 <= row1, col0 <= col1 else { return [] }
        // Columns of the box, in every world copy it spans (at most the whole world).
        let first = Int((box.minX * scale).rounded(.down)), last = Int((box.maxX * scale).rounded(.up)) - 1
        var columns: [Int] = []
        var seen = Set<Int>()
        if last - first + 1 >= n {
            columns = Array(0..<n)
        } else if first <= last {
            for c in first...last {
                let k = ((c % n) + n) % n
                if seen.insert(k).inserted { columns.append(k) }
            }
        }
        columns = columns.filter { $0 >= col0 && $0 <= col1 }
        let cx = (box.minX + box.maxX) / 2 * scale, cy = (box.minY + box.maxY) / 2 * scale
        var out: [(TileID, Double)] = []
        for y in row0...row1 {
            for x in columns {
                guard let t = TileID(z: z, x: x, y: y) else { continue }
                // Distance to the centre, in the world copy nearest it.
                var dx = (Double(x) + 0.5 - cx).truncatingRemainder(dividingBy: scale)
                if dx > scale / 2 { dx -= scale } else if dx < -scale / 2 { dx += scale }
                let dy = Double(y) + 0.5 - cy
                out.append((t, dx * dx + dy * dy))
                if out.count >= limit { break }
            }
            if out.count >= limit { break }
        }
        return out.sorted { $0.1 < $1.1 }.map(\.0)
    }
}
