/// Receives coverage from the rasterizer's sweep and decides colour.
public protocol SpanBlitter {
    /// One pixel with coverage `alpha` (1...255).
    mutating func blitPixel(x: Int, y: Int, alpha: UInt32)
    /// `count` pixels from (x, y) rightwards, all with coverage `alpha` (1...255).
    mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32)
}

/// Source-over of one premultiplied colour.
public struct SolidBlitter: SpanBlitter {
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    let color: UInt32
    let opaque: Bool

    public init(pixmap: Pixmap, color: PremultipliedColor) {
        pixels = pixmap.pixels
        stride = pixmap.width
        self.color = color.packed
        opaque = color.packed >> 24 == 255
    }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        let p = pixels + (y &* stride &+ x)
        let s = Blend.scale(color, alpha &+ (alpha >> 7))
        p.pointee = Blend.over(s, p.pointee)
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let p = pixels + (y &* stride &+ x)
        if alpha == 255 && opaque {
            p.update(repeating: color, count: count)
            return
        }
        let s = alpha == 255 ? color : Blend.scale(color, alpha &+ (alpha >> 7))
        let inv = 256 &- ((s >> 24) &+ (s >> 31))
        var i = 0
        while i < count {
            p[i] = s &+ Blend.scale(p[i], inv)
            i &+= 1
        }
    }
}
