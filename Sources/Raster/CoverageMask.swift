/// A per-pixel coverage accumulator: several rasterized shapes add weighted coverage into it,
/// then it is composited once with one colour. Used where coverage must sum rather than blend
/// (line blur drawn as a stack of strokes). Storage is kept between uses.
public final class CoverageMask {
    public private(set) var width: Int
    public private(set) var height: Int
    private var values: [UInt16]
    private var minY = Int.max, maxY = -1

    public init(width: Int, height: Int) {
        self.width = width; self.height = height
        values = [UInt16](repeating: 0, count: width * height)
    }

    /// Clears and sizes the mask.
    public func reset(width: Int, height: Int) {
        if width != self.width || height != self.height || values.count != width * height {
            self.width = width; self.height = height
            values = [UInt16](repeating: 0, count: width * height)
        } else if maxY >= minY {
            values.withUnsafeMutableBufferPointer { v in
                for i in (minY * width)..<((maxY + 1) * width) { v[i] = 0 }
            }
        }
        minY = .max; maxY = -1
    }

    /// Sweeps the rasterizer's edges into the mask, each pixel's coverage scaled by `weight / 256`.
    public func accumulate(_ rasterizer: inout Rasterizer, weight: UInt32, rule: FillRule = .nonZero) {
        precondition(rasterizer.width == width && rasterizer.originY + rasterizer.height <= height, "rasterizer and mask sizes differ")
        values.withUnsafeMutableBufferPointer { v in
            guard let v = v.baseAddress else { return }
            var b = Accumulator(values: v, width: width, weight: weight, minY: minY, maxY: maxY)
            rasterizer.sweep(rule, &b)
            minY = b.minY; maxY = b.maxY
        }
    }

    /// Source-over of `color` with the accumulated coverage (clamped to 1) onto `pixmap`.
    public func composite(_ color: PremultipliedColor, onto pixmap: Pixmap, clip: PixelRect? = nil) {
        guard maxY >= minY else { return }
        precondition(pixmap.width == width && pixmap.height == height)
        values.withUnsafeBufferPointer { v in
            for i in (minY * width)..<((maxY + 1) * width) where v[i] != 0 {
                if let c = clip {
                    let x = i % width, y = i / width
                    if x < c.x0 || x >= c.x1 || y < c.y0 || y >= c.y1 { continue }
                }
                let a = UInt32(min(v[i], 255))
                let s = Blend.scale(color.packed, a &+ (a >> 7))
                pixmap.pixels[i] = Blend.over(s, pixmap.pixels[i])
            }
        }
    }

    /// The accumulated coverage at a pixel, 0...255 and beyond (not clamped).
    public func value(x: Int, y: Int) -> Int { Int(values[y * width + x]) }

    struct Accumulator: SpanBlitter {
        let values: UnsafeMutablePointer<UInt16>
        let width: Int
        let weight: UInt32
        var minY: Int, maxY: Int

        @inline(__always) mutating func add(_ i: Int, _ alpha: UInt32) {
            let v = UInt32(values[i]) &+ (alpha &* weight + 128) >> 8
            values[i] = UInt16(min(v, 65535))
        }
        mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
            minY = min(minY, y); maxY = max(maxY, y)
            add(y * width + x, alpha)
        }
        mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
            minY = min(minY, y); maxY = max(maxY, y)
            let base = y * width + x
            for i in 0..<count { add(base + i, alpha) }
        }
    }
}
