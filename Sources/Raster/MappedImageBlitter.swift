/// Where a screen pixel samples an image: normalised image coordinates (s, t) of the pixel
/// centre (x + 0.5, y + 0.5), any mapping at all (outside [0, 1]: the image's edge pixels).
public protocol ImageCoordinates {
    func st(x: Int, y: Int) -> (s: Float, t: Float)
}

/// `ImageBlitter` for mappings that are not linear along screen rows (an image at a bearing with
/// rows at their true latitude): each covered pixel asks `coordinates` where it samples.
public struct MappedImageBlitter<M: ImageCoordinates>: SpanBlitter {
    let dst: UnsafeMutablePointer<UInt32>
    let stride: Int
    let image: ImageBlitter.Source
    let previous: ImageBlitter.Source?
    let fade: UInt32
    let coordinates: M
    let sampling: ImageSampling
    let finish: PixelFinish

    public init(destination: Pixmap, image: Pixmap, previous: Pixmap?, fade: Double, coordinates: M,
                sampling: ImageSampling, opacity: Double, light: (Double, Double, Double), adjustment: ColorAdjustment?) {
        dst = destination.pixels; stride = destination.width
        self.image = .init(image); self.previous = previous.map(ImageBlitter.Source.init)
        self.fade = UInt32((min(max(fade, 0), 1) * 256).rounded())
        self.coordinates = coordinates
        self.sampling = sampling
        finish = PixelFinish(opacity: opacity, light: light, adjustment: adjustment)
    }

    @inline(__always)
    func shade(x: Int, y: Int) -> UInt32 {
        let (s, t) = coordinates.st(x: x, y: y)
        var p = ImageBlitter.sample(image, s, t, sampling)
        if let previous, fade < 256 {
            p = ImageBlitter.pack(ImageBlitter.lerp(ImageBlitter.spread(ImageBlitter.sample(previous, s, t, sampling)),
                                                    ImageBlitter.spread(p), fade))
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
            if s == 0 { continue }
            if k != 256 { s = Blend.scale(s, k) }
            d[i] = Blend.over(s, d[i])
        }
    }
}

extension Rasterizer {
    /// Fills the accumulated edges with a pixel-by-pixel mapped image and forgets them.
    public mutating func fill<M: ImageCoordinates>(_ pixmap: Pixmap, mappedImage blitter: MappedImageBlitter<M>, rule: FillRule = .nonZero) {
        precondition(pixmap.width == width && originY + height <= pixmap.height, "rasterizer and pixmap sizes differ")
        var b = blitter
        sweep(rule, &b)
    }
}
