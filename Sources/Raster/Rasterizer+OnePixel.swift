extension Rasterizer {
    /// The pixel and coverage a shape gets when all of it lies inside one pixel of the device
    /// box `width` x `height` (rows from `originY`), exactly as filling it with the non-zero rule
    /// would give them; nil when it does not lie so.
    ///
    /// A map at a low zoom holds thousands of polygons smaller than a pixel (buildings of a city
    /// at zoom 7), and the full machinery (cells, sort, sweep) costs each far more than its one
    /// pixel. Inside one cell every edge adds only area, (fx1 + fx2) (fy2 - fy1) in the cell's
    /// 24.8 fixed point, and the cover it adds sums to 0 over closed rings: the coverage is that
    /// sum's `alpha`, from the points rounded to fixed point as `line` rounds them.
    /// `points[ends[k - 1] ..< ends[k]]` is ring k, closed back to its first point.
    public static func onePixelCoverage(_ points: UnsafeBufferPointer<Point>, ends: [Int], width: Int, height: Int,
                                        originY: Int = 0) -> (x: Int, y: Int, alpha: UInt32)? {
        guard let first = points.first else { return nil }
        let oy = Double(originY), w = Double(width), h = Double(height)
        @inline(__always) func fixed(_ p: Point) -> (Int32, Int32)? {
            let x = p.x, y = p.y - oy
            // (Inside the box, so `line` would take the edge unclipped; NaN fails too.)
            guard x >= 0, x < w, y >= 0, y < h else { return nil }
            return (Int32(x * 256 + 0.5), Int32(y * 256 + 0.5))
        }
        guard let (x0, y0) = fixed(first) else { return nil }
        let cellX = x0 >> shift, cellY = y0 >> shift
        guard cellX < Int32(width), cellY < Int32(height) else { return nil }
        var area: Int32 = 0
        var start = 0
        for end in ends {
            defer { start = end }
            guard end > start, end <= points.count else { continue }
            guard var (px, py) = fixed(points[end - 1]) else { return nil }
            for i in start..<end {
                guard let (qx, qy) = fixed(points[i]), qx >> shift == cellX, qy >> shift == cellY else { return nil }
                area &+= ((px & mask) &+ (qx & mask)) &* ((qy & mask) &- (py & mask))
                (px, py) = (qx, qy)
            }
        }
        return (Int(cellX), Int(cellY) + originY, alpha(0 &- area, .nonZero))
    }
}
