/// Two coverage masks of one size (a halo under its text) with their colours applied and
/// composited together once: premultiplied pixels drawn with one source-over each, touching only
/// the stretch of each row that either mask covers. Labels are drawn this way every frame; the
/// masks are kept to make the sprite again when the colours change (a light transition).
public struct MaskSprite: Sendable {
    public let width: Int
    public let height: Int
    /// The colours it was made with (premultiplied, packed).
    public let underColor: UInt32, overColor: UInt32
    private let pixels: [UInt32]
    /// Per row, the columns [first, end) holding every non-zero pixel (first == end: none).
    private let spans: [(first: Int32, end: Int32)]

    /// Memory held per pixel.
    public static let bytesPerPixel = 4

    /// `over` in `overColor` on top of `under` in `underColor`; the masks must be the same size.
    public init(under: AlphaMask, _ underColor: PremultipliedColor, over: AlphaMask, _ overColor: PremultipliedColor) {
        precondition(under.width == over.width && under.height == over.height, "mask sizes differ")
        let w = under.width, h = under.height
        let uc = underColor.packed, oc = overColor.packed
        var pixels = [UInt32](repeating: 0, count: w * h)
        var spans: [(first: Int32, end: Int32)] = []
        spans.reserveCapacity(h)
        for y in 0..<h {
            var first = w, end = 0
            for x in 0..<w {
                let i = y * w + x
                let a = UInt32(under.alpha[i]), b = UInt32(over.alpha[i])
                guard a | b != 0 else { continue }
                var p: UInt32 = 0
                if a != 0 { p = a == 255 ? uc : Blend.scale(uc, a &+ (a >> 7)) }
                if b != 0 { p = Blend.over(b == 255 ? oc : Blend.scale(oc, b &+ (b >> 7)), p) }
                pixels[i] = p
                if p != 0 { first = min(first, x); end = x + 1 }
            }
            spans.append(first < end ? (Int32(first), Int32(end)) : (0, 0))
        }
        self.width = w; self.height = h
        self.underColor = uc; self.overColor = oc
        self.pixels = pixels; self.spans = spans
    }

    /// Source-over onto `pixmap`, the sprite's top-left at (x, y), clipped to `rows` of it.
    /// `alpha` (0...256) scales every pixel first: a label fading in or out.
    public func composite(onto pixmap: Pixmap, x: Int, y: Int, rows: Range<Int>, alpha: UInt32 = 256) {
        guard alpha > 0 else { return }
        let y0 = max(y, rows.lowerBound), y1 = min(y + height, rows.upperBound)
        let xMin = max(x, 0), xMax = min(x + width, pixmap.width)
        guard y0 < y1, xMin < xMax else { return }
        pixels.withUnsafeBufferPointer { p in
            spans.withUnsafeBufferPointer { s in
                guard let p = p.baseAddress, let s = s.baseAddress else { return }
                for py in y0..<y1 {
                    let row = py - y
                    let x0 = max(xMin, x + Int(s[row].first)), x1 = min(xMax, x + Int(s[row].end))
                    guard x0 < x1 else { continue }
                    let src = p + row * width - x
                    let dst = pixmap.pixels + py * pixmap.width
                    if alpha >= 256 {
                        SpanOver.over(src + x0, onto: dst + x0, count: x1 - x0)
                    } else {
                        for i in x0..<x1 where src[i] != 0 { dst[i] = Blend.over(Blend.scale(src[i], alpha), dst[i]) }
                    }
                }
            }
        }
    }
}
