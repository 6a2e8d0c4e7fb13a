/// Source-over of an image repeated without end (a fill pattern): each covered pixel's centre
/// goes through `toImage` to image pixel coordinates, wraps into the image, and samples it
/// bilinearly across the wrap, as a GPU samples a repeating texture. When the map only moves by
/// whole pixels, pixel centres land on texel centres and the texels are copied as they are.
public struct PatternBlitter: SpanBlitter {
    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    /// Held so that `texels` stay valid while the blitter lives.
    let image: Pixmap
    let texels: UnsafeMutablePointer<UInt32>
    let w: Int, h: Int
    let fw: Double, fh: Double
    /// Screen to image pixels, its offsets reduced into the image.
    let map: Transform
    /// 0...256.
    let opacity: UInt32
    /// `map` is a translation by whole pixels: (x + dx, y + dy) wrapped is the texel.
    let exact: (dx: Int, dy: Int)?
    /// A pitched view: the screen back to the flat screen, before `map` (nil: flat).
    let unpitch: Homography?

    /// `toImage`: screen pixel coordinates to the image's (its pixel (i, j) spans [i, i + 1) x
    /// [j, j + 1)); `opacity` in 0...1 scales every sample. `unpitch`: a pitched view's screen
    /// back to the flat screen `toImage` starts from.
    public init(destination: Pixmap, image: Pixmap, toImage: Transform, opacity: Double, unpitch: Homography? = nil) {
        self.unpitch = unpitch
        dst = destination.pixels; stride = destination.width
        self.image = image
        texels = image.pixels; w = image.width; h = image.height
        fw = Double(w); fh = Double(h)
        var m = toImage
        // (Far from the world's origin the offsets are large: one period less is the same pattern.)
        m.tx = Self.reduce(m.tx, fw); m.ty = Self.reduce(m.ty, fh)
        map = m
        self.opacity = UInt32((min(max(opacity.isNaN ? 0 : opacity, 0), 1) * 256).rounded())
        let whole = { (v: Double) in abs(v - v.rounded()) < 1e-6 }
        if unpitch == nil, m.a == 1, m.b == 0, m.c == 0, m.d == 1, whole(m.tx), whole(m.ty) {
            exact = (Int(m.tx.rounded()), Int(m.ty.rounded()))
        } else {
            exact = nil
        }
    }

    /// `v` modulo `period` in [0, period); 0 when not finite.
    static func reduce(_ v: Double, _ period: Double) -> Double {
        guard v.isFinite else { return 0 }
        let r = v.truncatingRemainder(dividingBy: period)
        return r < 0 ? r + period : r
    }

    @inline(__always) static func wrap(_ i: Int, _ n: Int) -> Int {
        let r = i % n
        return r < 0 ? r &+ n : r
    }

    /// The bilinear sample at image point (u, v) (pixel centres at half units), wrapped.
    @inline(__always)
    func sample(_ u: Double, _ v: Double) -> UInt32 {
        let fx = Self.reduce(u - 0.5, fw), fy = Self.reduce(v - 0.5, fh)
        let x0 = min(Int(fx), w - 1), y0 = min(Int(fy), h - 1)
        let x1 = x0 + 1 == w ? 0 : x0 + 1, y1 = y0 + 1 == h ? 0 : y0 + 1
        let r0 = texels + y0 &* w, r1 = texels + y1 &* w
        let p00 = r0[x0], p01 = r0[x1], p10 = r1[x0], p11 = r1[x1]
        let wx = UInt32((fx - Double(x0)) * 256), wy = UInt32((fy - Double(y0)) * 256)
        if p00 == p01 && p10 == p11 && p00 == p10 { return p00 }
        let top = ImageBlitter.lerp(ImageBlitter.spread(p00), ImageBlitter.spread(p01), wx)
        let bottom = ImageBlitter.lerp(ImageBlitter.spread(p10), ImageBlitter.spread(p11), wx)
        return ImageBlitter.pack(ImageBlitter.lerp(top, bottom, wy))
    }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        blitSpan(x: x, y: y, count: 1, alpha: alpha)
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let d = dst + (y &* stride &+ x)
        let k = ((alpha &+ (alpha >> 7)) &* opacity) >> 8
        guard k > 0 else { return }
        if let (dx, dy) = exact {
            let row = texels + Self.wrap(y &+ dy, h) &* w
            var u = Self.wrap(x &+ dx, w)
            for i in 0..<count {
                var s = row[u]
                u = u + 1 == w ? 0 : u + 1
                if s == 0 { continue }
                if k != 256 { s = Blend.scale(s, k) }
                d[i] = Blend.over(s, d[i])
            }
            return
        }
        if let h = unpitch {
            let py = Double(y) + 0.5
            for i in 0..<count {
                let q = map.apply(h.apply(Double(x + i) + 0.5, py))
                var s = sample(q.x, q.y)
                if s == 0 { continue }
                if k != 256 { s = Blend.scale(s, k) }
                d[i] = Blend.over(s, d[i])
            }
            return
        }
        let q = map.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
        for i in 0..<count {
            var s = sample(q.x + map.a * Double(i), q.y + map.b * Double(i))
            if s == 0 { continue }
            if k != 256 { s = Blend.scale(s, k) }
            d[i] = Blend.over(s, d[i])
        }
    }
}

