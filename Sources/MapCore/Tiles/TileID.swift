/// A tile of the Web Mercator pyramid: zoom, column from the west, row from the north (XYZ).
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public let z: Int, x: Int, y: Int

    /// Nil unless 0 <= z <= 30 and x, y are within the zoom's 2^z tiles.
    public init?(z: Int, x: Int, y: Int) {
        guard (0...30).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        self.z = z; self.x = x; self.y = y
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// The row counted from the south, as MBTiles and TMS servers number it.
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The tile one zoom out that holds this one (nil at zoom 0).
    public var parent: TileID? { z == 0 ? nil : TileID(z: z - 1, x: x >> 1, y: y >> 1) }

    /// PMTiles v3's tile id: the tiles of every lower zoom (sum of 4^t, t < z), then the tile's
    /// place along the Hilbert curve at its zoom.
    public var pmtilesID: UInt64 {
        var acc: UInt64 = ((UInt64(1) << UInt64(2 * z)) - 1) / 3
        var (x, y) = (UInt64(self.x), UInt64(self.y))
        var a = z - 1
        while a >= 0 {
            let s = UInt64(1) << UInt64(a)
            let rx: UInt64 = x & s != 0 ? 1 : 0, ry: UInt64 = y & s != 0 ? 1 : 0
            acc += ((3 * rx) ^ ry) << UInt64(2 * a)
            // Only the lower bits matter from here: keep them, and turn the quadrant.
            (x, y) = Self.rotate(s, x & (s - 1), y & (s - 1), rx, ry)
            a -= 1
        }
        return acc
    }

    /// The tile of a PMTiles v3 tile id (nil past zoom 30).
    public init?(pmtilesID id: UInt64) {
        var z = 0
        var base: UInt64 = 0
        while z <= 30 {
            let count = UInt64(1) << UInt64(2 * z)
            if id < base + count { break }
            base += count
            z += 1
        }
        guard z <= 30 else { return nil }
        var pos = id - base
        var (x, y): (UInt64, UInt64) = (0, 0)
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx: UInt64 = (pos / 2) & 1, ry: UInt64 = (pos ^ rx) & 1
            (x, y) = Self.rotate(s, x, y, rx, ry)
            x += s * rx; y += s * ry
            pos >>= 2
            s <<= 1
        }
        self.init(z: z, x: Int(x), y: Int(y))
    }

    /// One step of the Hilbert curve's rotation of a quadrant of side `n`.
    private static func rotate(_ n: UInt64, _ x: UInt64, _ y: UInt64, _ rx: UInt64, _ ry: UInt64) -> (UInt64, UInt64) {
        guard ry == 0 else { return (x, y) }
        if rx == 1 { return (n - 1 - y, n - 1 - x) }
        return (y, x)
    }
}
