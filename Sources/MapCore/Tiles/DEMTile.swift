import Foundation

/// A DEM tile ready to draw: its elevations (border filled from the neighbours loaded) and
/// its hillshade slopes, MapLibre's prepare pass: for each pixel, the Sobel derivatives of the
/// elevation toward the east and the south, scaled to the tile's zoom and stored as two bytes
/// (deriv / 8 + 0.5, so ±4 at most, in steps of 8/255).
public final class DEMTile: Sendable {
    public let tile: TileID
    public let data: DEMData
    public let encoding: DEMEncoding
    /// stride × stride pairs (east, south), row-major like `data.elevations`: the dim × dim
    /// slopes with a one-pixel border repeating their edges (what sampling clamped at the
    /// tile's edges reads, without clamping each sample).
    public let slopes: [UInt8]
    /// 1 / cos(latitude) down the tile, at `latitudeSteps` + 1 places from its top edge to its
    /// bottom edge, the latitude linear between them (as MapLibre's shader has it): the
    /// Mercator scale the slopes are corrected by.
    public let inverseCosines: [Float]
    public static let latitudeSteps = 1024

    public init(tile: TileID, data: DEMData, encoding: DEMEncoding) {
        self.tile = tile; self.data = data; self.encoding = encoding
        slopes = Self.prepare(data, zoom: tile.z)
        let n = Double(1 << tile.z), steps = Self.latitudeSteps
        let north = WebMercator.lat(y: Double(tile.y) / n), south = WebMercator.lat(y: Double(tile.y + 1) / n)
        inverseCosines = (0...steps).map { i in
            Float(1 / max(cos((north + (south - north) * Double(i) / Double(steps)) * .pi / 180), 1e-6))
        }
    }

    /// The factor from a Sobel sum of metres to the stored derivative at tile zoom `zoom`: one
    /// pixel is 2^(28.2562 − z) / dim / 8 metres (the equator's length over the pixels), and
    /// zooms below 15 are exaggerated (by 2^(−(z − 15)·f)).
    public static func slopeScale(dim: Int, zoom: Int) -> Double {
        let z = Double(zoom)
        let f = z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3
        let exaggeration = z < 15 ? (z - 15) * f : 0
        return Double(dim) / pow(2, exaggeration + (28.2562 - z))
    }

    /// The slope pair of pixel (x, y), each in -1...dim (the border included).
    public func slope(_ x: Int, _ y: Int) -> (east: UInt8, south: UInt8) {
        let i = ((y + 1) * data.stride + x + 1) * 2
        return (slopes[i], slopes[i + 1])
    }

    static func prepare(_ d: DEMData, zoom: Int) -> [UInt8] {
        let dim = d.dim, s = d.stride
        let scale = Float(slopeScale(dim: dim, zoom: zoom))
        var out = [UInt8](repeating: 0, count: s * s * 2)
        d.elevations.withUnsafeBufferPointer { e in
            for y in 0..<dim {
                for x in 0..<dim {
                    let c = (y + 1) * s + x + 1
                    let a = e[c - s - 1], b = e[c - s], cc = e[c - s + 1]
                    let dd = e[c - 1], f = e[c + 1]
                    let g = e[c + s - 1], h = e[c + s], i = e[c + s + 1]
                    let dx = ((cc + f + f + i) - (a + dd + dd + g)) * scale
                    let dy = ((g + h + h + i) - (a + b + b + cc)) * scale
                    out[c * 2] = Self.byte(dx / 8 + 0.5)
                    out[c * 2 + 1] = Self.byte(dy / 8 + 0.5)
                }
            }
        }
        // The border: the nearest edge pixel's pair.
        for y in 0..<s {
            for x in 0..<s where y == 0 || y == s - 1 || x == 0 || x == s - 1 {
                let from = (min(max(y, 1), dim) * s + min(max(x, 1), dim)) * 2
                out[(y * s + x) * 2] = out[from]; out[(y * s + x) * 2 + 1] = out[from + 1]
            }
        }
        return out
    }

    /// A value in 0...1 as an 8-bit channel (a render target's rounding).
    @inline(__always) static func byte(_ v: Float) -> UInt8 {
        guard v.isFinite else { return 128 }
        return UInt8((min(max(v, 0), 1) * 255).rounded())
    }
}

/// A DEM tile placed for a frame: drawn inside `square` (its own, or the part of it that stands
/// in for a missing descendant).
public struct DEMTileDraw: Sendable {
    public let dem: DEMTile
    public let square: TileID
}
