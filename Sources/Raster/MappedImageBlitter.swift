/// Where the pixels of a screen sample an image whose mapping is not linear along screen rows
/// (an image at a bearing, rows at their true latitude): the pixel centre goes through `inverse`
/// to a plane point (X, Y); Y through the optional monotone `table` (samples of Y -> Y' at equal
/// steps, linearly interpolated: latitude from Web Mercator y); then through one of two affine
/// maps to normalised image coordinates (s, t), by the side of the diagonal from `tr` to `bl`
/// the point lies on (the quad's two triangles).
public struct ImageWarp {
    /// s = a X + b Y + c, t = d X + e Y + f.
    public struct Plane: Sendable {
        public let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double
        public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
            self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
        }
    }
    public let inverse: Transform
    /// A pitched view: the screen to the plane in perspective, used instead of `inverse`.
    public var projective: Homography? = nil
    /// The globe: the screen back onto the flat screen through the sphere, then `inverse`.
    public var sphere: SphereUnprojection? = nil
    public let first: Plane, second: Plane
    public let tr: Point, bl: Point
    /// The sign of the side of the diagonal the first triangle lies on.
    public let firstSide: Double
    let table: UnsafePointer<Double>?
    let tableCount: Int
    let tableY0: Double, tableStep: Double

    /// `table` (when given) holds `tableCount` values of Y' for Y = tableY0 + k / tableStep.
    public init(inverse: Transform, first: Plane, second: Plane, tr: Point, bl: Point, firstSide: Double,
                table: UnsafePointer<Double>? = nil, tableCount: Int = 0, tableY0: Double = 0, tableStep: Double = 1) {
        self.inverse = inverse; self.first = first; self.second = second; self.tr = tr; self.bl = bl
        self.firstSide = firstSide
        self.table = tableCount >= 2 ? table : nil
        self.tableCount = tableCount; self.tableY0 = tableY0; self.tableStep = tableStep
    }

    /// (s, t) at plane point (X, Y) (Y before the table).
    @inline(__always)
    func st(_ X: Double, _ Y: Double) -> (Float, Float) {
        var y = Y
        if let table {
            var u = (Y - tableY0) * tableStep
            u = min(max(u, 0), Double(tableCount - 1))          // (NaN: 0)
            let i = min(Int(u), tableCount - 2)
            y = table[i] + (table[i + 1] - table[i]) * (u - Double(i))
        }
        let side = (bl.x - tr.x) * (y - tr.y) - (bl.y - tr.y) * (X - tr.x)
        let m = (side > 0) == (firstSide > 0) ? first : second
        return (Float(m.a * X + m.b * y + m.c), Float(m.d * X + m.e * y + m.f))
    }
}

/// `ImageBlitter` for an `ImageWarp`: each covered pixel is mapped on its own (stepping the
/// inverse along the span), and bilinear samples of four clear pixels cost no blending.
public struct MappedImageBlitter: SpanBlitter {
    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    let image: ImageBlitter.Source
    let previous: ImageBlitter.Source?
    let fade: UInt32
    let warp: ImageWarp
    let sampling: ImageSampling
    let finish: PixelFinish

    public init(destination: Pixmap, image: any RasterTexture, previous: (any RasterTexture)?, fade: Double, warp: ImageWarp,
                sampling: ImageSampling, opacity: Double, light: (Double, Double, Double), adjustment: ColorAdjustment?) {
        dst = destination.pixels; stride = destination.width
        self.image = .init(image); self.previous = previous.map(ImageBlitter.Source.init)
        self.fade = UInt32((min(max(fade, 0), 1) * 256).rounded())
        self.warp = warp
        self.sampling = sampling
        finish = PixelFinish(opacity: opacity, light: light, adjustment: adjustment)
    }

    /// On the globe, the triangles the image is drawn on (MapLibre's tile mesh): the footprint
    /// is measured through them where set, else through the sphere.
    public var mesh: SurfaceMesh? = nil
    /// On the globe: the image's mipmap levels, read as MapLibre's raster tiles are
    /// (`LINEAR_MIPMAP_NEAREST`: the level nearest each pixel's footprint, bilinear in it).
    public var mips: MipChain? = nil {
        didSet { levels = mips?.levels.map(ImageBlitter.Source.init) ?? [] }
    }
    private var levels: [ImageBlitter.Source] = []

    /// The bilinear sample, 0 at once when its four pixels are clear (most of a radar frame).
    @inline(__always)
    func sample(_ s: Float, _ t: Float) -> UInt32 { sample(image, s, t) }

    @inline(__always)
    func sample(_ src: ImageBlitter.Source, _ s: Float, _ t: Float) -> UInt32 {
        guard sampling == .bilinear else { return ImageBlitter.sample(src, s, t, sampling) }
        let fx = s * src.fw - 0.5, fy = t * src.fh - 0.5
        guard fx.isFinite, fy.isFinite else { return 0 }
        let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
        let xi = Int(min(max(x0f, -2), src.fw + 2)), yi = Int(min(max(y0f, -2), src.fh + 2))
        let x0 = min(max(xi, 0), src.width - 1), x1 = min(max(xi + 1, 0), src.width - 1)
        let y0 = min(max(yi, 0), src.height - 1), y1 = min(max(yi + 1, 0), src.height - 1)
        let r0 = y0 &* src.width, r1 = y1 &* src.width, px = src.texels
        let p00 = px[r0 &+ x0], p01 = px[r0 &+ x1], p10 = px[r1 &+ x0], p11 = px[r1 &+ x1]
        if p00 | p01 | p10 | p11 == 0 { return 0 }
        let wx = UInt32((fx - x0f) * 256), wy = UInt32((fy - y0f) * 256)
        let top = ImageBlitter.lerp(ImageBlitter.spread(p00), ImageBlitter.spread(p01), wx)
        let bottom = ImageBlitter.lerp(ImageBlitter.spread(p10), ImageBlitter.spread(p11), wx)
        return ImageBlitter.pack(ImageBlitter.lerp(top, bottom, wy))
    }

    @inline(__always)
    func shade(_ X: Double, _ Y: Double) -> UInt32 {
        let (s, t) = warp.st(X, Y)
        if let previous, fade < 256 {
            let p = ImageBlitter.sample(image, s, t, sampling)
            return finish.apply(ImageBlitter.pack(ImageBlitter.lerp(ImageBlitter.spread(ImageBlitter.sample(previous, s, t, sampling)),
                                                                  ImageBlitter.spread(p), fade)))
        }
        let p = sample(s, t)
        return p == 0 ? 0 : finish.apply(p)
    }

    /// The colour at screen pixel centre (px, py) on the globe, from the mip level its
    /// footprint asks (the image's own without levels, or while it fades from another).
    @inline(__always)
    func shadeOnSphere(_ sphere: SphereUnprojection, _ px: Double, _ py: Double) -> UInt32 {
        let q = warp.inverse.apply(sphere.flat(px, py))
        guard let mips, !levels.isEmpty, sampling == .bilinear, previous == nil || fade >= 256 else { return shade(q.x, q.y) }
        // The footprint: texels per pixel across and down.
        let (s, t) = warp.st(q.x, q.y)
        let across: (Double, Double), down: (Double, Double)
        if let mesh, let (c, a, d) = sphere.flatOnMesh(px, py, mesh) {
            // Through the mesh's triangle, as the GPU's neighbouring fragments.
            func texels(_ f: Point) -> (Float, Float) { let q = warp.inverse.apply(f); return warp.st(q.x, q.y) }
            let (s0, t0) = texels(c), (sa, ta) = texels(a), (sd, td) = texels(d)
            across = (Double((sa - s0) * image.fw), Double((ta - t0) * image.fh))
            down = (Double((sd - s0) * image.fw), Double((td - t0) * image.fh))
        } else {
            // Through the sphere: to the next pixel's centre, or from the one before where the
            // next lies across the image's wrap (a jump of half of it).
            func step(_ dx: Double, _ dy: Double) -> (Double, Double) {
                var n = warp.inverse.apply(sphere.flat(px + dx, py + dy))
                var (sn, tn) = warp.st(n.x, n.y), k: Float = 1
                if Swift.abs(sn - s) > 0.5 || Swift.abs(tn - t) > 0.5 {
                    n = warp.inverse.apply(sphere.flat(px - dx, py - dy))
                    (sn, tn) = warp.st(n.x, n.y); k = -1
                }
                return (Double((sn - s) * k * image.fw), Double((tn - t) * k * image.fh))
            }
            across = step(1, 0)
            down = step(0, 1)
        }
        let (ux, vx) = across, (uy, vy) = down
        let rho = max(ux * ux + vx * vx, uy * uy + vy * vy).squareRoot()
        let level = rho.isFinite ? mips.level(footprint: rho) : 0
        guard level > 0 else { return shade(q.x, q.y) }
        let p = sample(levels[level - 1], s, t)
        return p == 0 ? 0 : finish.apply(p)
    }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) {
        if let s = warp.sphere {
            let c = shadeOnSphere(s, Double(x) + 0.5, Double(y) + 0.5)
            if c == 0 { return }
            let d = dst + (y &* stride &+ x)
            d.pointee = Blend.over(Blend.scale(c, alpha &+ (alpha >> 7)), d.pointee)
            return
        }
        let q = warp.projective?.apply(Double(x) + 0.5, Double(y) + 0.5) ?? warp.inverse.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
        let c = shade(q.x, q.y)
        if c == 0 { return }
        let s = Blend.scale(c, alpha &+ (alpha >> 7))
        let d = dst + (y &* stride &+ x)
        d.pointee = Blend.over(s, d.pointee)
    }

    @inline(__always)
    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        let d = dst + (y &* stride &+ x)
        let k = alpha &+ (alpha >> 7)
        if let sphere = warp.sphere {
            // On the globe: each pixel back through the sphere.
            let py = Double(y) + 0.5
            for i in 0..<count {
                var s = shadeOnSphere(sphere, Double(x + i) + 0.5, py)
                if s == 0 { continue }
                if k != 256 { s = Blend.scale(s, k) }
                d[i] = Blend.over(s, d[i])
            }
            return
        }
        if let h = warp.projective {
            // In perspective: each pixel through the homography.
            let py = Double(y) + 0.5
            for i in 0..<count {
                let q = h.apply(Double(x + i) + 0.5, py)
                var s = shade(q.x, q.y)
                if s == 0 { continue }
                if k != 256 { s = Blend.scale(s, k) }
                d[i] = Blend.over(s, d[i])
            }
            return
        }
        let q = warp.inverse.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
        let dx = warp.inverse.a, dy = warp.inverse.b          // one pixel right, in the plane
        for i in 0..<count {
            var s = shade(q.x + dx * Double(i), q.y + dy * Double(i))
            if s == 0 { continue }
            if k != 256 { s = Blend.scale(s, k) }
            d[i] = Blend.over(s, d[i])
        }
    }
}

