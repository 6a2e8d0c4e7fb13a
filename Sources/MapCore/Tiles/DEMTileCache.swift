import Foundation
import Raster

/// Makes the `DEMTile`s a frame draws from a `raster-dem` source's cover: each tile's image
/// decoded once, its border filled from the 8 neighbours loaded (the antimeridian wraps,
/// nothing past the poles), its slopes prepared. A tile is made again only when it or one of
/// its neighbours changes (another image arrived).
final class DEMTileCache: @unchecked Sendable {
    private struct Made {
        /// The images of the tile and its 8 neighbours it was made from (nil: not loaded).
        let sources: [ObjectIdentifier?]
        let tile: DEMTile
    }
    private let lock = NSLock()
    private var decoded: [TileID: (image: ObjectIdentifier, data: DEMData)] = [:]
    private var made: [TileID: Made] = [:]
    /// Tiles kept past which the caches start again (a view holds a few dozen).
    static let limit = 512

    static let neighbourOffsets = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]

    /// The frame's DEM tiles for `entries`, a cover of `set`.
    func tiles(_ entries: [TileSet.CoverEntry], set: TileSet, encoding: DEMEncoding) -> [DEMTileDraw] {
        lock.lock(); defer { lock.unlock() }
        if made.count > Self.limit { made = [:] }
        if decoded.count > Self.limit { decoded = [:] }
        var out: [DEMTileDraw] = []
        for e in entries {
            guard case let .raster(image) = e.content, let tile = demTile(e.tile, image, set: set, encoding: encoding) else { continue }
            out.append(DEMTileDraw(dem: tile, square: e.square))
        }
        return out
    }

    private func elevations(_ t: TileID, _ image: any RasterTexture, encoding: DEMEncoding) -> DEMData? {
        let id = ObjectIdentifier(image)
        if let d = decoded[t], d.image == id { return d.data }
        guard let data = DEMData(image: image, encoding: encoding) else { return nil }
        decoded[t] = (id, data)
        return data
    }

    private func demTile(_ t: TileID, _ image: any RasterTexture, set: TileSet, encoding: DEMEncoding) -> DEMTile? {
        let n = 1 << t.z
        var neighbours: [(Int, Int, TileID, any RasterTexture)] = []
        var sources: [ObjectIdentifier?] = [ObjectIdentifier(image)]
        for (dx, dy) in Self.neighbourOffsets {
            let x = ((t.x + dx) % n + n) % n
            guard let id = TileID(z: t.z, x: x, y: t.y + dy), id != t,
                  let entry = set.cover([id], ancestors: 0).first(where: { $0.tile == id }),
                  case let .raster(other) = entry.content else { sources.append(nil); continue }
            sources.append(ObjectIdentifier(other))
            neighbours.append((dx, dy, id, other))
        }
        if let m = made[t], m.sources == sources { return m.tile }
        guard var data = elevations(t, image, encoding: encoding) else { return nil }
        for (dx, dy, id, other) in neighbours {
            if let d = elevations(id, other, encoding: encoding) { data.backfill(from: d, dx: dx, dy: dy) }
        }
        let tile = DEMTile(tile: t, data: data, encoding: encoding)
        made[t] = Made(sources: sources, tile: tile)
        return tile
    }
}
