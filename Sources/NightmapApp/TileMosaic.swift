import Foundation
import MapCore
import Raster

/// The tiles of one zoom that cover a view, side by side as one image: how a tiled weather
/// service's frame (RainViewer's radar) becomes one frame of the radar's image source, so the
/// loop, its cache, timeline and legend work alike for every provider.
///
/// The zoom is the one a raster source of 256-pixel tiles would draw at (the camera's zoom plus
/// one, to the nearest), at most the service's `maxZoom` (deeper views stretch its tiles), and
/// lower while the view would take more than `tileLimit` tiles (a wall display). Columns run
/// east from `x0` and may pass the antimeridian (a tile's column is taken modulo the zoom's
/// width); rows are clamped to the world.
public struct TileMosaic: Equatable, Hashable, Sendable {
    public let z: Int
    /// The first column (may be negative or past the world's width) and row.
    public let x0: Int, y0: Int
    public let columns: Int, rows: Int

    /// Tile size in pixels.
    public static let tileSize = 256

    public init(z: Int, x0: Int, y0: Int, columns: Int, rows: Int) {
        self.z = z; self.x0 = x0; self.y0 = y0; self.columns = max(1, columns); self.rows = max(1, rows)
    }

    /// The mosaic for a view showing Mercator `visible` (units of the world, as
    /// `ViewTransform.visibleMercator`) at camera zoom `zoom` (512-pixel world at zoom 0).
    /// Nil for a view that is not finite.
    public static func covering(_ visible: (minX: Double, minY: Double, maxX: Double, maxY: Double), zoom: Double,
                                maxZoom: Int, tileLimit: Int = 48) -> TileMosaic? {
        guard zoom.isFinite, visible.minX.isFinite, visible.maxX.isFinite, visible.minY.isFinite, visible.maxY.isFinite,
              visible.maxX >= visible.minX, visible.maxY >= visible.minY else { return nil }
        var z = Int(min(max((zoom + 1).rounded(), 0), Double(max(0, min(maxZoom, 20)))))
        while true {
            let n = Double(1 << z)
            // A view wider than the world takes the world once.
            let wide = visible.maxX - visible.minX >= 1
            let x0 = wide ? 0 : Int((visible.minX * n).rounded(.down))
            let x1 = wide ? (1 << z) - 1 : Int((visible.maxX * n).rounded(.up)) - 1
            let y0 = Int((max(0, visible.minY) * n).rounded(.down))
            let y1 = min((1 << z) - 1, Int((min(1, visible.maxY) * n).rounded(.up)) - 1)
            let mosaic = TileMosaic(z: z, x0: x0, y0: min(y0, (1 << z) - 1), columns: x1 - x0 + 1, rows: max(y1, y0) - y0 + 1)
            if mosaic.columns * mosaic.rows <= max(1, tileLimit) || z == 0 { return mosaic }
            z -= 1
        }
    }

    /// Whether this mosaic covers `visible` wholly (then a view within it needs no other).
    public func covers(_ visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        let n = Double(1 << z)
        let wide = columns >= 1 << z
        return (wide || (Double(x0) / n <= visible.minX && Double(x0 + columns) / n >= visible.maxX))
            && Double(y0) / n <= max(0, visible.minY) && Double(y0 + rows) / n >= min(1, visible.maxY)
    }

    /// The tile at column `c` and row `r` of the mosaic (its column wrapped into the world).
    public func tile(column c: Int, row r: Int) -> TileID? {
        let n = 1 << z
        return TileID(z: z, x: (((x0 + c) % n) + n) % n, y: y0 + r)
    }

    /// Every tile, row by row, with its place.
    public var tiles: [(column: Int, row: Int, tile: TileID)] {
        var list: [(Int, Int, TileID)] = []
        for r in 0..<rows {
            for c in 0..<columns { if let t = tile(column: c, row: r) { list.append((c, r, t)) } }
        }
        return list
    }

    /// The mosaic's corners on the map (longitudes may pass 180 when it crosses the antimeridian).
    public var corners: ImageCorners {
        let n = Double(1 << z)
        func lng(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
        func lat(_ y: Int) -> Double { WebMercator.lat(y: Double(y) / n) }
        return ImageCorners(LngLatBounds(west: lng(x0), south: lat(y0 + rows), east: lng(x0 + columns), north: lat(y0)))
    }

    /// The image of `tiles` (each `tileSize` square, by tile) side by side; tiles not given stay
    /// clear. Tiles of another size are skipped.
    public func compose(_ images: [TileID: Pixmap]) -> Pixmap {
        let s = Self.tileSize
        let out = Pixmap(width: columns * s, height: rows * s)      // (cleared)
        for (c, r, id) in tiles {
            guard let image = images[id], image.width == s, image.height == s else { continue }
            for y in 0..<s {
                (out.pixels + (r * s + y) * out.width + c * s).update(from: image.pixels + y * s, count: s)
            }
        }
        return out
    }
}
