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
        #if arch(x86_64)
        // Four at a time (`SpanOver`'s blend is this one to the bit): a translucent shading
        // laid over the whole frame costs a quarter of the loop's instructions.
        let pair = UInt64(s) | UInt64(s) << 32
        let four = SIMD2<Int64>(Int64(bitPattern: pair), Int64(bitPattern: pair))
        while i + 4 <= count {
            SpanOver.sse2(four, p + i)
            i &+= 4
        }
        #endif
        while i < count {
            p[i] = s &+ Blend.scale(p[i], inv)
            i &+= 1
        }
    }
}

/// Writes coverage (0...255) into an 8-bit mask, keeping the larger value where shapes meet.
public struct CoverageBlitter: SpanBlitter {
    let mask: UnsafeMutablePointer<UInt8>
    let width: Int

    /// `mask` must hold width x height bytes for the rasterizer's device.
    public init(mask: UnsafeMutablePointer<UInt8>, width: Int) { self.mask = mask; self.width = width }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        let p = mask + (y &* width &+ x)
        p.pointee = max(p.pointee, UInt8(alpha))
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let p = mask + (y &* width &+ x)
        let a = UInt8(alpha)
        for i in 0..<count where p[i] < a { p[i] = a }
    }
}

extension Rasterizer {
    /// Sweeps the accumulated edges into an 8-bit coverage mask and forgets them.
    public mutating func fill(mask: UnsafeMutablePointer<UInt8>, rule: FillRule = .nonZero) {
        var b = CoverageBlitter(mask: mask, width: width)
        sweep(rule, &b)
    }
}

/// An 8-bit coverage mask (text, halos) composited with one colour.
public struct AlphaMask: Sendable {
    public let width: Int
    public let height: Int
    public let alpha: [UInt8]

    public init(width: Int, height: Int, alpha: [UInt8]) { self.width = width; self.height = height; self.alpha = alpha }

    /// Source-over of `color` through the mask, its top-left at (x, y), clipped to `rows` of `pixmap`.
    public func composite(_ color: PremultipliedColor, onto pixmap: Pixmap, x: Int, y: Int, rows: Range<Int>) {
        let y0 = max(y, rows.lowerBound), y1 = min(y + height, rows.upperBound)
        let x0 = max(x, 0), x1 = min(x + width, pixmap.width)
        guard y0 < y1, x0 < x1 else { return }
        alpha.withUnsafeBufferPointer { a in
            guard let a = a.baseAddress else { return }
            for py in y0..<y1 {
                let src = a + (py - y) * width - x
                let dst = pixmap.pixels + py * pixmap.width
                for px in x0..<x1 {
                    let c = UInt32(src[px])
                    if c == 0 { continue }
                    let s = c == 255 ? color.packed : Blend.scale(color.packed, c &+ (c >> 7))
                    dst[px] = Blend.over(s, dst[px])
                }
            }
        }
    }
}

extension AlphaMask {
    /// The coverage `coverage` (width x height) grown by `radius` pixels: a halo. Each covered
    /// pixel counts as the shape's edge lying (coverage - 1/2) px past its centre, so a pixel at
    /// distance d from it is covered by clamp(radius + coverage - d, 0, 1); the halo keeps the
    /// largest such value. (A distance-field dilation, as MapLibre's SDF halos are; far cheaper
    /// than stroking every glyph outline with round joins.)
    public static func dilated(_ coverage: [UInt8], width: Int, height: Int, radius: Double) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        guard radius > 0, radius.isFinite, width > 0, height > 0, coverage.count >= width * height else { return coverage }
        let r = min(radius, 64)
        let reach = Int((r + 1).rounded(.up))
        var offsets: [(dx: Int, dy: Int, d: Double)] = []
        for dy in -reach...reach {
            for dx in -reach...reach {
                let d = Double(dx * dx + dy * dy).squareRoot()
                if d < r + 1 { offsets.append((dx, dy, d)) }
            }
        }
        coverage.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    for x in 0..<width {
                        let v = c[y * width + x]
                        guard v != 0 else { continue }
                        let cv = Double(v) / 255
                        for off in offsets {
                            let X = x + off.dx, Y = y + off.dy
                            guard X >= 0, X < width, Y >= 0, Y < height else { continue }
                            // clamp(r + cv - d, 0, 1) as a byte, kept if larger: without a
                            // branch (which pixels of a glyph's rim gain is as good as random).
                            let b = UInt8(min(max(r + cv - off.d, 0), 1) * 255 + 0.5)
                            o[Y * width + X] = max(o[Y * width + X], b)
                        }
                    }
                }
            }
        }
        return out
    }

    /// `under` then `over` composited in one pass, both masks the same size with their top-left at
    /// (x, y): a halo and its text, four pixels at a time where the machine allows; the same pixels as
    /// compositing one mask, then the other.
    public static func composite(_ under: AlphaMask, _ underColor: PremultipliedColor, _ over: AlphaMask,
                                 _ overColor: PremultipliedColor, onto pixmap: Pixmap, x: Int, y: Int, rows: Range<Int>) {
        guard under.width == over.width, under.height == over.height else {
            under.composite(underColor, onto: pixmap, x: x, y: y, rows: rows)
            over.composite(overColor, onto: pixmap, x: x, y: y, rows: rows)
            return
        }
        let width = under.width
        let y0 = max(y, rows.lowerBound), y1 = min(y + under.height, rows.upperBound)
        let x0 = max(x, 0), x1 = min(x + width, pixmap.width)
        guard y0 < y1, x0 < x1 else { return }
        let uc = underColor.packed, oc = overColor.packed
        under.alpha.withUnsafeBufferPointer { ua in
            over.alpha.withUnsafeBufferPointer { oa in
                guard let ua = ua.baseAddress, let oa = oa.baseAddress else { return }
                for py in y0..<y1 {
                    let u = ua + (py - y) * width - x
                    let o = oa + (py - y) * width - x
                    let dst = pixmap.pixels + py * pixmap.width
                    var px = x0
                    #if arch(x86_64)
                    // Four pixels at a time, both colours scaled by their coverage and laid on
                    // in turn (a clear one leaves its pixel as it was): which of them the masks
                    // cover decides no branch.
                    while px + 4 <= x1 {
                        let a = UnsafeRawPointer(u + px).loadUnaligned(as: UInt32.self)
                        let b = UnsafeRawPointer(o + px).loadUnaligned(as: UInt32.self)
                        if a | b != 0 {
                            SpanOver.sse2(SpanOver.shades(uc, coverage: a), dst + px)
                            SpanOver.sse2(SpanOver.shades(oc, coverage: b), dst + px)
                        }
                        px += 4
                    }
                    #endif
                    while px < x1 {
                        if px + 8 <= x1 && UnsafeRawPointer(u + px).loadUnaligned(as: UInt64.self)
                            | UnsafeRawPointer(o + px).loadUnaligned(as: UInt64.self) == 0 { px += 8; continue }
                        let a = UInt32(u[px]), b = UInt32(o[px])
                        if a | b != 0 {
                            var d = dst[px]
                            if a != 0 { d = Blend.over(a == 255 ? uc : Blend.scale(uc, a &+ (a >> 7)), d) }
                            if b != 0 { d = Blend.over(b == 255 ? oc : Blend.scale(oc, b &+ (b >> 7)), d) }
                            dst[px] = d
                        }
                        px += 1
                    }
                }
            }
        }
    }
}

/// A box of whole pixels: columns x0..<x1, rows y0..<y1.
public struct PixelRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    /// The pixels whose centres lie in the box [minX, maxX) x [minY, maxY) (a GPU scissor or
    /// stencil test's rule).
    public init(centresIn minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) {
        func first(_ v: Double) -> Int { Int(max(-1e9, min(1e9, (v - 0.5).rounded(.up)))) }
        self.init(x0: first(minX), y0: first(minY), x1: first(maxX), y1: first(maxY))
    }
}

/// Passes on only the coverage inside a pixel box.
public struct ClipBlitter<B: SpanBlitter>: SpanBlitter {
    var inner: B
    let clip: PixelRect
    public init(_ inner: B, clip: PixelRect) { self.inner = inner; self.clip = clip }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        if x >= clip.x0 && x < clip.x1 && y >= clip.y0 && y < clip.y1 { inner.blitPixel(x: x, y: y, alpha: alpha) }
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        guard y >= clip.y0 && y < clip.y1 else { return }
        let a = max(x, clip.x0), b = min(x + count, clip.x1)
        if b > a { inner.blitSpan(x: a, y: y, count: b - a, alpha: alpha) }
    }
}

/// Aliased coverage: a pixel is either in (its coverage at least half) or out, as an
/// un-antialiased fill samples pixel centres.
public struct ThresholdBlitter<B: SpanBlitter>: SpanBlitter {
    public var inner: B
    public init(_ inner: B) { self.inner = inner }
    @inline(__always) public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        if alpha >= 128 { inner.blitSpan(x: x, y: y, count: 1, alpha: 255) }
    }
    @inline(__always) public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        if alpha >= 128 { inner.blitSpan(x: x, y: y, count: count, alpha: 255) }
    }
}
