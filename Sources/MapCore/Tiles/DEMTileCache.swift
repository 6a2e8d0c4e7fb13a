import Foundation
import Raster

/// Makes the `DEMTile`s a frame draws from a `raster-dem` source's cover: each tile's image
/// decoded once, its border filled from the 8 neighbours loaded (the antimeridian wraps,
/// nothing past the poles), its slopes prepared. A tile is made again only when it or one of
/// its neighbours changes (another image arrived). Tiles of the last covers are kept, up to
/// `limit` (each holds 6 bytes a pixel: a 512-pixel tile 1.5 MB).
final class DEMTileCache: @unchecked Sendable {
    private struct Key: Hashable {
        let set: ObjectIdentifier
        let tile: TileID
    }
    private struct Made {
        /// The images of the tile and its 8 neighbours it was made from (nil: not loaded).
        let sources: [ObjectIdentifier?]
        let tile: DEMTile
    }
    private let lock = NSLock()
    private var decoded: [Key: (image: ObjectIdentifier, data: DEMData)] = [:]
    private var made: [Key: Made] = [:]
    static let limit = 96

    static let neighbourOffsets = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]

    /// The frame's DEM tiles for `entries`, a cover of `set`.
    func tiles(_ entries: [TileSet.CoverEntry], set: TileSet, encoding: DEMEncoding) -> [DEMTileDraw] {
        lock.lock(); defer { lock.unlock() }
        var out: [DEMTileDraw] = []
        var used = Set<Key>()
        for e in entries {
            guard case let .raster(image) = e.content,
                  let tile = demTile(e.tile, image, set: set, encoding: encoding, used: &used) else { continue }
            out.append(DEMTileDraw(dem: tile, square: e.square))
        }
        // Past the limit, only what this cover used stays.
        if made.count > Self.limit { made = made.filter { used.contains($0.key) } }
        if decoded.count > Self.limit { decoded = decoded.filter { used.contains($0.key) } }
        return out
    }

    private func elevations(_ key: Key, _ image: any RasterTexture, encoding: DEMEncoding) -> DEMData? {
        let id = ObjectIdentifier(image)
        if let d = decoded[key], d.image == id { return d.data }
        guard let data = DEMData(image: image, encoding: encoding) else { return nil }
        decoded[key] = (id, data)
        return data
    }

    private func demTile(_ t: TileID, _ image: any RasterTexture, set: TileSet, encoding: DEMEncoding,
                         used: inout Set<Key>) -> DEMTile? {
        let n = 1 << t.z, setID = ObjectIdentifier(set)
        let key = Key(set: setID, tile: t)
        used.insert(key)
        var neighbours: [(Int, Int, Key, any RasterTexture)] = []
        var sources: [ObjectIdentifier?] = [ObjectIdentifier(image)]
        for (dx, dy) in Self.neighbourOffsets {
            let x = ((t.x + dx) % n + n) % n
            guard let id = TileID(z: t.z, x: x, y: t.y + dy), id != t,
                  let entry = set.cover([id], ancestors: 0).first(where: { $0.tile == id }),
                  case let .raster(other) = entry.content else { sources.append(nil); continue }
            sources.append(ObjectIdentifier(other))
            let k = Key(set: setID, tile: id)
            used.insert(k)
            neighbours.append((dx, dy, k, other))
        }
        if let m = made[key], m.sources == sources { return m.tile }
        guard var data = elevations(key, image, encoding: encoding) else { return nil }
        for (dx, dy, k, other) in neighbours {
            if let d = elevations(k, other, encoding: encoding) { data.backfill(from: d, dx: dx, dy: dy) }
        }
        let tile = DEMTile(tile: t, data: data, encoding: encoding)
        made[key] = Made(sources: sources, tile: tile)
        return tile
    }
}
