extension Pixmap {
    /// Fills the box [minX, maxX) x [minY, maxY) with `color`, source-over, each pixel by the area
    /// of the box inside it (the coverage the rasterizer gives an axis-aligned rectangle, without
    /// its edge lists), in the rows `rows` only.
    public func fillBox(minX: Double, minY: Double, maxX: Double, maxY: Double, color: PremultipliedColor, rows: Range<Int>) {
        guard maxX > minX, maxY > minY, color.packed != 0 else { return }
        let y0 = max(Int(minY.rounded(.down)), rows.lowerBound, 0), y1 = min(Int(maxY.rounded(.up)), rows.upperBound, height)
        let x0 = max(Int(minX.rounded(.down)), 0), x1 = min(Int(maxX.rounded(.up)), width)
        guard y0 < y1, x0 < x1 else { return }
        let c = color.packed, opaque = c >> 24 == 255
        // Coverage of the first and last columns (the others are whole).
        let firstX = min(Double(x0 + 1), maxX) - max(Double(x0), minX)
        let lastX = min(Double(x1), maxX) - max(Double(x1 - 1), minX)
        @inline(__always) func put(_ p: UnsafeMutablePointer<UInt32>, _ a: Double) {
            let k = UInt32((a * 256).rounded())
            if k >= 256 { p.pointee = opaque ? c : Blend.over(c, p.pointee) } else if k > 0 { p.pointee = Blend.over(Blend.scale(c, k), p.pointee) }
        }
        for y in y0..<y1 {
            let cy = min(Double(y + 1), maxY) - max(Double(y), minY)
            let row = pixels + y * width
            if x1 - x0 == 1 { put(row + x0, cy * min(firstX, lastX)); continue }
            put(row + x0, cy * firstX)
            put(row + x1 - 1, cy * lastX)
            guard x1 - x0 > 2 else { continue }
            let k = UInt32((cy * 256).rounded())
            let inner = row + x0 + 1, n = x1 - x0 - 2
            if k >= 256 && opaque {
                inner.update(repeating: c, count: n)
            } else if k >= 256 {
                for i in 0..<n { inner[i] = Blend.over(c, inner[i]) }
            } else if k > 0 {
                let s = Blend.scale(c, k)
                for i in 0..<n { inner[i] = Blend.over(s, inner[i]) }
            }
        }
    }
}
