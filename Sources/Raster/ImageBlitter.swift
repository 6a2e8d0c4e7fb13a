/// How an image is sampled.
public enum ImageSampling: Sendable { case nearest, bilinear }

/// Where one screen row samples an image: normalised image coordinates (s, t) in [0, 1] are
/// linear in the screen x of the pixel centre, with a second linear piece from `split` on
/// (a quad drawn as two triangles).
public struct ImageRowMap: Sendable {
    public var s0: Float, ds: Float, t0: Float, dt: Float
    public var s1: Float, ds1: Float, t1: Float, dt1: Float
    /// Screen x from which the second piece applies.
    public var split: Float

    public init(s0: Float, ds: Float, t0: Float, dt: Float, s1: Float, ds1: Float, t1: Float, dt1: Float, split: Float) {
        self.s0 = s0; self.ds = ds; self.t0 = t0; self.dt = dt
        self.s1 = s1; self.ds1 = ds1; self.t1 = t1; self.dt1 = dt1; self.split = split
    }
}

/// The style specification's raster colour adjustments, as MapLibre's raster shader applies
/// them to the unpremultiplied colour: hue rotation, saturation, contrast, then brightness.
public struct ColorAdjustment: Sendable, Equatable {
    let spin: (Float, Float, Float)
    let saturation: Float
    let contrast: Float
    let brightnessLow: Float
    let brightnessHigh: Float

    public static func == (a: ColorAdjustment, b: ColorAdjustment) -> Bool {
        a.spin == b.spin && a.saturation == b.saturation && a.contrast == b.contrast
            && a.brightnessLow == b.brightnessLow && a.brightnessHigh == b.brightnessHigh
    }

    /// From the paint properties (hue in degrees; contrast and saturation in -1...1).
    public init(brightnessMin: Double, brightnessMax: Double, contrast: Double, saturation: Double, hueRotate: Double) {
        let a = hueRotate * Double.pi / 180, s = sin(a), c = cos(a)
        spin = (Float((2 * c + 1) / 3), Float((-(3.0).squareRoot() * s - c + 1) / 3), Float(((3.0).squareRoot() * s - c + 1) / 3))
        self.saturation = Float(saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation)
        self.contrast = Float(contrast > 0 ? 1 / (1 - contrast) : 1 + contrast)
        brightnessLow = Float(brightnessMin)
        brightnessHigh = Float(brightnessMax)
    }

    /// Applies the adjustments to a premultiplied packed pixel.
    @inline(__always)
    func apply(_ p: UInt32) -> UInt32 {
        let a = Float(p >> 24)
        guard a > 0 else { return 0 }
        let r = Float(p >> 16 & 255) / a, g = Float(p >> 8 & 255) / a, b = Float(p & 255) / a
        var nr = r * spin.0 + g * spin.1 + b * spin.2
        var ng = r * spin.2 + g * spin.0 + b * spin.1
        var nb = r * spin.1 + g * spin.2 + b * spin.0
        let average = (r + g + b) / 3
        nr += (average - nr) * saturation; ng += (average - ng) * saturation; nb += (average - nb) * saturation
        nr = (nr - 0.5) * contrast + 0.5; ng = (ng - 0.5) * contrast + 0.5; nb = (nb - 0.5) * contrast + 0.5
        nr = brightnessLow + (brightnessHigh - brightnessLow) * nr
        ng = brightnessLow + (brightnessHigh - brightnessLow) * ng
        nb = brightnessLow + (brightnessHigh - brightnessLow) * nb
        func q(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * a + 0.5) }
        return p & 0xFF00_0000 | q(nr) << 16 | q(ng) << 8 | q(nb)
    }
}

/// What happens to a sampled pixel after sampling, for both image blitters: colour adjustments,
/// the per-channel light factor, then opacity.
struct PixelFinish {
    let opacity: UInt32                  // 0...256
    let light: (UInt32, UInt32, UInt32)  // 0...256 per channel
    let lit: Bool
    let adjustment: ColorAdjustment?

    init(opacity: Double, light: (Double, Double, Double), adjustment: ColorAdjustment?) {
        func q(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 256).rounded()) }
        self.opacity = q(opacity)
        self.light = (q(light.0), q(light.1), q(light.2))
        lit = self.light != (256, 256, 256)
        self.adjustment = adjustment
    }

    /// The pixel finished (a clear pixel stays clear: adjustments keep it so).
    @inline(__always)
    func apply(_ pixel: UInt32) -> UInt32 {
        var p = pixel
        if let adjustment { p = adjustment.apply(p) }
        if lit {
            let r = ((p >> 16 & 255) &* light.0) >> 8, g = ((p >> 8 & 255) &* light.1) >> 8, b = ((p & 255) &* light.2) >> 8
            p = p & 0xFF00_0000 | r << 16 | g << 8 | b
        }
        return opacity == 256 ? p : Blend.scale(p, opacity)
    }
}

/// Draws an image through the rasterizer's coverage: every covered pixel samples the image
/// (and, while cross-fading, the previous one), applies colour adjustments, opacity and a
/// per-channel light factor, and is composited source-over.
public struct ImageBlitter: SpanBlitter {
    struct Source {
        let texels: Texels
        let width: Int, height: Int
        let fw: Float, fh: Float
        init(_ p: any RasterTexture) { texels = p.texels; width = p.width; height = p.height; fw = Float(p.width); fh = Float(p.height) }
    }

    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    let image: Source
    let previous: Source?
    let fade: UInt32                  // weight of `image` against `previous`, 0...256
    let rows: UnsafePointer<ImageRowMap>
    let rowOffset: Int                // rows[y - rowOffset]
    let sampling: ImageSampling
    let finish: PixelFinish

    public init(destination: Pixmap, image: any RasterTexture, previous: (any RasterTexture)?, fade: Double, rows: UnsafePointer<ImageRowMap>,
                firstRow: Int, sampling: ImageSampling, opacity: Double, light: (Double, Double, Double),
                adjustment: ColorAdjustment?) {
        dst = destination.pixels; stride = destination.width
        self.image = Source(image); self.previous = previous.map(Source.init)
        self.fade = UInt32((min(max(fade, 0), 1) * 256).rounded())
        self.rows = rows; rowOffset = firstRow
        self.sampling = sampling
        finish = PixelFinish(opacity: opacity, light: light, adjustment: adjustment)
    }

    @inline(__always)
    func sample(_ src: Source, _ s: Float, _ t: Float) -> UInt32 { Self.sample(src, s, t, sampling) }

    /// The image's colour at normalised coordinates (s, t).
    @inline(__always)
    static func sample(_ src: Source, _ s: Float, _ t: Float, _ sampling: ImageSampling) -> UInt32 {
        switch sampling {
        case .nearest:
            let x = min(max(Int(s * src.fw), 0), src.width - 1)
            let y = min(max(Int(t * src.fh), 0), src.height - 1)
            return src.texels[y &* src.width &+ x]
        case .bilinear:
            let fx = s * src.fw - 0.5, fy = t * src.fh - 0.5
            let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
            let wx = UInt32((fx - x0f) * 256), wy = UInt32((fy - y0f) * 256)
            let x0 = min(max(Int(x0f), 0), src.width - 1), x1 = min(max(Int(x0f) + 1, 0), src.width - 1)
            let y0 = min(max(Int(y0f), 0), src.height - 1), y1 = min(max(Int(y0f) + 1, 0), src.height - 1)
            let r0 = y0 &* src.width, r1 = y1 &* src.width, px = src.texels
            let top = Self.lerp(Self.spread(px[r0 &+ x0]), Self.spread(px[r0 &+ x1]), wx)
            let bottom = Self.lerp(Self.spread(px[r1 &+ x0]), Self.spread(px[r1 &+ x1]), wx)
            return Self.pack(Self.lerp(top, bottom, wy))
        }
    }

    /// The four channels of a pixel in 16-bit lanes.
    @inline(__always) static func spread(_ c: UInt32) -> UInt64 {
        let x = UInt64(c)
        return (x & 0xFF) | (x & 0xFF00) << 8 | (x & 0xFF_0000) << 16 | (x & 0xFF00_0000) << 24
    }
    @inline(__always) static func pack(_ v: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (v & 0xFF) | (v >> 8 & 0xFF00) | (v >> 16 & 0xFF_0000) | (v >> 24 & 0xFF00_0000))
    }
    /// Lane-wise a + (b - a) * w / 256, rounded, so equal inputs come back unchanged.
    @inline(__always) static func lerp(_ a: UInt64, _ b: UInt64, _ w: UInt32) -> UInt64 {
        let w64 = UInt64(w)
        return ((a &* (256 &- w64) &+ b &* w64 &+ 0x0080_0080_0080_0080) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    @inline(__always)
    func shade(x: Int, y: Int) -> UInt32 {
        let m = rows[y &- rowOffset]
        let fx = Float(x) + 0.5
        let s: Float, t: Float
        if fx < m.split { s = m.s0 + m.ds * fx; t = m.t0 + m.dt * fx } else { s = m.s1 + m.ds1 * fx; t = m.t1 + m.dt1 * fx }
        var p = sample(image, s, t)
        if let previous, fade < 256 {
            p = Self.pack(Self.lerp(Self.spread(sample(previous, s, t)), Self.spread(p), fade))
        }
        return finish.apply(p)
    }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        let s = Blend.scale(shade(x: x, y: y), alpha &+ (alpha >> 7))
        let d = dst + (y &* stride &+ x)
        d.pointee = Blend.over(s, d.pointee)
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let d = dst + (y &* stride &+ x)
        let k = alpha &+ (alpha >> 7)
        for i in 0..<count {
            var s = shade(x: x &+ i, y: y)
            if k != 256 { s = Blend.scale(s, k) }
            d[i] = Blend.over(s, d[i])
        }
    }
}


#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sample positions of one axis of a separable image mapping: for each screen column (or row),
/// the two source indices to blend and the weight of the second (0...256; nearest: 0).
public struct AxisSamples: Sendable {
    public var i0: Int32
    public var i1: Int32
    public var w: UInt32
    /// The same blend as two neighbours: index `tap` with weight 256 - `tapWeight` and `tap + 1`
    /// with `tapWeight` (an axis of at least two pixels), so one 8-byte load fetches both.
    public var tap: Int32
    public var tapWeight: UInt32

    /// Samples for normalised coordinates `u` over an axis of `size` pixels.
    @inline(__always)
    public static func make(_ u: Double, size: Int, sampling: ImageSampling) -> AxisSamples {
        let i0: Int32, i1: Int32, w: UInt32
        switch sampling {
        case .nearest:
            i0 = Int32(min(max(Int((u * Double(size)).rounded(.down)), 0), size - 1))
            i1 = i0; w = 0
        case .bilinear:
            let f = u * Double(size) - 0.5
            let fl = f.rounded(.down)
            let i = Int(fl)
            i0 = Int32(min(max(i, 0), size - 1)); i1 = Int32(min(max(i + 1, 0), size - 1))
            w = UInt32((f - fl) * 256)
        }
        return AxisSamples(i0: i0, i1: i1, w: w, size: size)
    }

    /// Blends `i0` and `i1` (equal, or `i1 == i0 + 1`) of an axis of `size` pixels with weight `w`.
    @inline(__always)
    public init(i0: Int32, i1: Int32, w: UInt32, size: Int) {
        self.i0 = i0; self.i1 = i1; self.w = w
        // Blending a pixel with itself gives it back at any weight, so a clamped pair (i0 == i1)
        // becomes that pixel with weight 0 after it, or weight 256 before it at the last index.
        if i1 != i0 { tap = i0; tapWeight = w } else if Int(i0) + 1 < size { tap = i0; tapWeight = 0 } else { tap = max(0, i0 - 1); tapWeight = 256 }
    }
}

/// The fast path of `ImageBlitter` for an image whose source column depends only on the screen
/// column and whose source row only on the screen row (an axis-aligned longitude/latitude box,
/// in either placement): per pixel, four table-driven loads, and nothing at all for fully
/// transparent source pixels (most of a radar image).
public struct SeparableImageBlitter: SpanBlitter {
    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    let src: Texels
    let srcWidth: Int
    let previous: Texels?
    let fade: UInt32
    let columns: UnsafePointer<AxisSamples>     // indexed by screen x
    let rows: UnsafePointer<AxisSamples>        // indexed by screen y - rowOffset
    let rowOffset: Int
    let finish: PixelFinish

    /// `previous`, when given, must have the same size as `image`.
    public init(destination: Pixmap, image: any RasterTexture, previous: (any RasterTexture)?, fade: Double, columns: UnsafePointer<AxisSamples>,
                rows: UnsafePointer<AxisSamples>, firstRow: Int, opacity: Double, light: (Double, Double, Double),
                adjustment: ColorAdjustment?) {
        precondition(previous.map { $0.width == image.width && $0.height == image.height } ?? true)
        dst = destination.pixels; stride = destination.width
        src = image.texels; srcWidth = image.width
        self.previous = previous?.texels
        self.fade = UInt32((min(max(fade, 0), 1) * 256).rounded())
        self.columns = columns; self.rows = rows; rowOffset = firstRow
        finish = PixelFinish(opacity: opacity, light: light, adjustment: adjustment)
    }

    /// This blitter reading its image through `R` (the image's storage's reader).
    func typed<R: TexelReader>(_: R.Type) -> TypedSeparableBlitter<R> {
        let (base, palette) = src.raw
        return TypedSeparableBlitter<R>(dst: dst, stride: stride, base: base, palette: palette, srcWidth: srcWidth, src: src,
                                        previous: previous, fade: fade, columns: columns, rows: rows, rowOffset: rowOffset,
                                        finish: finish)
    }

    var isIndexed: Bool { src.isIndexed }

    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        if isIndexed { var b = typed(IndexedTexels.self); b.blitPixel(x: x, y: y, alpha: alpha) }
        else { var b = typed(PackedTexels.self); b.blitPixel(x: x, y: y, alpha: alpha) }
    }

    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        if isIndexed { var b = typed(IndexedTexels.self); b.blitSpan(x: x, y: y, count: count, alpha: alpha) }
        else { var b = typed(PackedTexels.self); b.blitSpan(x: x, y: y, count: count, alpha: alpha) }
    }
}

/// `SeparableImageBlitter` with its image read by `R`: what the sweep runs.
struct TypedSeparableBlitter<R: TexelReader>: SpanBlitter {
    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    let base: UnsafeRawPointer
    let palette: UnsafePointer<UInt32>
    let srcWidth: Int
    let src: Texels
    let previous: Texels?
    let fade: UInt32
    let columns: UnsafePointer<AxisSamples>
    let rows: UnsafePointer<AxisSamples>
    let rowOffset: Int
    let finish: PixelFinish

    @inline(__always)
    func sample(_ c: AxisSamples, _ r: AxisSamples) -> UInt32 {
        let r0 = Int(r.i0) &* srcWidth, r1 = Int(r.i1) &* srcWidth
        guard srcWidth >= 2 else { return Self.sampleOneByOne(src, r0, r1, c, r) }
        // Both columns of each row in one load (two palette lookups for indices).
        let top = R.pair(base, palette, r0 &+ Int(c.tap))
        let bottom = R.pair(base, palette, r1 &+ Int(c.tap))
        // (Four clear pixels blend to 0 without a test: whether they are clear is as good as
        // random at the edges of the weather.)
        return PairBlend.blend(top, bottom, wx: c.tapWeight, wy: r.w)
    }

    /// `sample` for an image one pixel wide (or the previous image of a cross-fade).
    @inline(never)
    static func sampleOneByOne(_ t: Texels, _ r0: Int, _ r1: Int, _ c: AxisSamples, _ r: AxisSamples) -> UInt32 {
        let p00 = t[r0 + Int(c.i0)], p01 = t[r0 + Int(c.i1)], p10 = t[r1 + Int(c.i0)], p11 = t[r1 + Int(c.i1)]
        if p00 | p01 | p10 | p11 == 0 { return 0 }
        if p00 == p01 && p00 == p10 && p00 == p11 { return p00 }
        let top = ImageBlitter.lerp(ImageBlitter.spread(p00), ImageBlitter.spread(p01), c.w)
        let bottom = ImageBlitter.lerp(ImageBlitter.spread(p10), ImageBlitter.spread(p11), c.w)
        return ImageBlitter.pack(ImageBlitter.lerp(top, bottom, r.w))
    }

    @inline(__always)
    func shade(_ c: AxisSamples, _ r: AxisSamples) -> UInt32 {
        var p = sample(c, r)
        if let previous, fade < 256 {
            let r0 = Int(r.i0) &* srcWidth, r1 = Int(r.i1) &* srcWidth
            let q = srcWidth < 2 ? Self.sampleOneByOne(previous, r0, r1, c, r)
                : PairBlend.blend(previous.pair(r0 &+ Int(c.tap)), previous.pair(r1 &+ Int(c.tap)), wx: c.tapWeight, wy: r.w)
            p = ImageBlitter.pack(ImageBlitter.lerp(ImageBlitter.spread(q), ImageBlitter.spread(p), fade))
        }
        return finish.apply(p)
    }

    @inline(__always)
    mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        let s = shade(columns[x], rows[y &- rowOffset])
        if s == 0 { return }
        let d = dst + (y &* stride &+ x)
        d.pointee = Blend.over(Blend.scale(s, alpha &+ (alpha >> 7)), d.pointee)
    }

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let d = dst + (y &* stride &+ x)
        let k = alpha &+ (alpha >> 7)
        let r = rows[y &- rowOffset]
        for i in 0..<count {
            var s = shade(columns[x &+ i], r)
            if s == 0 { continue }
            if k != 256 { s = Blend.scale(s, k) }
            d[i] = s >> 24 == 255 ? s : Blend.over(s, d[i])
        }
    }
}

extension Rasterizer {
    /// Fills the accumulated edges with a separably mapped image and forgets them, through the
    /// blitter typed for the image's texels.
    public mutating func fill(_ pixmap: Pixmap, separableImage blitter: SeparableImageBlitter, rule: FillRule = .nonZero,
                              aliased: Bool = false) {
        if blitter.isIndexed { fill(pixmap, with: blitter.typed(IndexedTexels.self), rule: rule, aliased: aliased) }
        else { fill(pixmap, with: blitter.typed(PackedTexels.self), rule: rule, aliased: aliased) }
    }
}
