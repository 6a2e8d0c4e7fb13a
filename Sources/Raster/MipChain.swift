import Foundation

/// An image's mipmap levels as a GPU makes them for a texture sampled `LINEAR_MIPMAP_NEAREST`
/// (MapLibre's raster tiles): each level half the one before in each direction (rounded down,
/// at least 1), each texel the mean of the two by two premultiplied texels under it, down to
/// one texel.
public final class MipChain: @unchecked Sendable {
    /// Levels 1, 2, ... (level 0 is the image itself).
    public let levels: [Pixmap]

    public init(_ image: any RasterTexture) {
        var out: [Pixmap] = []
        var w = image.width, h = image.height
        var read: (Int) -> UInt32 = { image.texels[$0] }
        var stride = image.width
        while w > 1 || h > 1 {
            let nw = max(w / 2, 1), nh = max(h / 2, 1)
            let next = Pixmap(width: nw, height: nh)
            for y in 0..<nh {
                let y0 = min(2 * y, h - 1), y1 = min(2 * y + 1, h - 1)
                for x in 0..<nw {
                    let x0 = min(2 * x, w - 1), x1 = min(2 * x + 1, w - 1)
                    let a = read(y0 * stride + x0), b = read(y0 * stride + x1), c = read(y1 * stride + x0), d = read(y1 * stride + x1)
                    var packed: UInt32 = 0
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let sum = (a >> shift & 255) + (b >> shift & 255) + (c >> shift & 255) + (d >> shift & 255)
                        packed |= ((sum + 2) / 4) << shift
                    }
                    next.pixels[y * nw + x] = packed
                }
            }
            out.append(next)
            let pixels = next.pixels
            read = { pixels[$0] }
            stride = nw
            w = nw; h = nh
        }
        levels = out
    }

    /// The level LINEAR_MIPMAP_NEAREST reads for a footprint of `rho` level-0 texels per pixel
    /// (λ = log2 rho; level 0 up to λ = 1/2, then the level nearest λ), at most the last.
    @inline(__always) public func level(footprint rho: Double) -> Int {
        guard rho > 1.4142135623730951 else { return 0 }
        let lambda = log2(rho)
        return min(Int((lambda + 0.5).rounded(.up)) - 1, levels.count)
    }
}
