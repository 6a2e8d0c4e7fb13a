import Raster

/// A DEM tile's elevations (metres, row-major from the north-west) with a one-pixel border
/// around them: `dim` × `dim` pixels in a `stride` × `stride` grid (stride = dim + 2). The
/// border starts as a copy of the edge pixels and is filled from the neighbouring tiles
/// (`backfilled`) so slopes and sampling across tile edges are seamless (MapLibre's DEMData).
public struct DEMData: Sendable {
    public let dim: Int
    public var stride: Int { dim + 2 }
    /// stride × stride elevations.
    public private(set) var elevations: [Float]

    /// The elevations of a square image in `encoding`; nil when the image is not square.
    public init?(image: any RasterTexture, encoding: DEMEncoding) {
        guard image.width == image.height, image.width > 0 else { return nil }
        let dim = image.width, stride = dim + 2
        self.dim = dim
        elevations = [Float](repeating: 0, count: stride * stride)
        let texels = image.texels
        for y in 0..<dim {
            for x in 0..<dim {
                // (Opaque DEM pixels: premultiplied and straight channels agree.)
                let c = PremultipliedColor(packed: texels[y * dim + x]).unpremultiplied
                elevations[(y + 1) * stride + x + 1] = encoding.elevation(r: c.r, g: c.g, b: c.b)
            }
        }
        fillBorderFromEdges()
    }

    /// From elevations given row by row (`dim` × `dim`), for tests and made-up terrain.
    /// Nil unless there are dim × dim values.
    public init?(dim: Int, values: [Float]) {
        guard dim > 0, values.count == dim * dim else { return nil }
        self.dim = dim
        let stride = dim + 2
        elevations = [Float](repeating: 0, count: stride * stride)
        for y in 0..<dim { for x in 0..<dim { elevations[(y + 1) * stride + x + 1] = values[y * dim + x] } }
        fillBorderFromEdges()
    }

    /// The elevation at (x, y), each in -1...dim (the border included).
    @inline(__always) public func get(_ x: Int, _ y: Int) -> Float { elevations[(y + 1) * stride + x + 1] }

    private mutating func fillBorderFromEdges() {
        let s = stride
        for x in 0..<s {
            let cx = min(max(x, 1), dim)
            elevations[x] = elevations[s + cx]
            elevations[(s - 1) * s + x] = elevations[dim * s + cx]
        }
        for y in 0..<s {
            let cy = min(max(y, 1), dim)
            elevations[y * s] = elevations[cy * s + 1]
            elevations[y * s + s - 1] = elevations[cy * s + dim]
        }
    }

    /// This tile with the side or corner of its border toward (dx, dy) (each -1, 0 or 1, not
    /// both 0) copied from `neighbour`, the tile there (of the same size; else unchanged).
    public func backfilled(from neighbour: DEMData, dx: Int, dy: Int) -> DEMData {
        var out = self
        out.backfill(from: neighbour, dx: dx, dy: dy)
        return out
    }

    public mutating func backfill(from neighbour: DEMData, dx: Int, dy: Int) {
        guard neighbour.dim == dim, (-1...1).contains(dx), (-1...1).contains(dy), dx != 0 || dy != 0 else { return }
        var x0 = dx * dim, x1 = dx * dim + dim, y0 = dy * dim, y1 = dy * dim + dim
        if dx == -1 { x0 = x1 - 1 } else if dx == 1 { x1 = x0 + 1 }
        if dy == -1 { y0 = y1 - 1 } else if dy == 1 { y1 = y0 + 1 }
        let ox = -dx * dim, oy = -dy * dim, s = stride
        for y in y0..<y1 {
            for x in x0..<x1 { elevations[(y + 1) * s + x + 1] = neighbour.get(x + ox, y + oy) }
        }
    }
}
