import Foundation
import MapCore
import Raster

/// A `fill-extrusion-pattern` image laid on one face, as MapLibre's pattern shader lays it: the
/// image repeated every `displaySize` tile pixels (pixels of the world at the zoom the source's
/// tiles are cut at), anchored to the world on roofs and running along walls by their edge
/// distance and height; sampled bilinearly, wrapping round the image.
struct ExtrusionPattern {
    let image: Pixmap
    /// Image pixels per tile pixel (the image's pixel ratio).
    let ratio: Double
    /// Tile pixels x and y as affine functions of the face's (u, v): (coefficient of u, of v, constant).
    var x = SIMD3<Double>(), y = SIMD3<Double>()

    init(_ p: FillPattern, tilePixelsPerWorld: Double) {
        image = p.image
        ratio = p.pixelsPerWorld / tilePixelsPerWorld
    }

    /// The premultiplied texel at (u, v), channels 0...1.
    @inline(__always) func sample(u: Double, v: Double) -> SIMD4<Double> {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return SIMD4() }
        let tx = (x.x * u + x.y * v + x.z) * ratio, ty = (y.x * u + y.y * v + y.z) * ratio
        let fw = Double(w), fh = Double(h)
        // (Texel centres at half pixels: the four around the point, wrapping.)
        var sx = (tx - (tx / fw).rounded(.down) * fw) - 0.5, sy = (ty - (ty / fh).rounded(.down) * fh) - 0.5
        if !sx.isFinite || !sy.isFinite { sx = 0; sy = 0 }
        let x0 = sx.rounded(.down), y0 = sy.rounded(.down)
        let fx = sx - x0, fy = sy - y0
        func wrap(_ i: Int, _ n: Int) -> Int { let m = i % n; return m < 0 ? m + n : m }
        let ix0 = wrap(Int(x0), w), ix1 = wrap(Int(x0) + 1, w), iy0 = wrap(Int(y0), h), iy1 = wrap(Int(y0) + 1, h)
        let px = image.pixels
        @inline(__always) func texel(_ i: Int, _ j: Int) -> SIMD4<Double> {
            let p = px[j * w + i]
            return SIMD4(Double(p >> 16 & 255), Double(p >> 8 & 255), Double(p & 255), Double(p >> 24)) / 255
        }
        let top = texel(ix0, iy0) * (1 - fx) + texel(ix1, iy0) * fx
        let bottom = texel(ix0, iy1) * (1 - fx) + texel(ix1, iy1) * fx
        return top * (1 - fy) + bottom * fy
    }
}

extension FillExtrusionRenderLayer.Shade {
    /// The pattern shader's lighting of a vertex (the colour comes from the image): normal over
    /// 16383, directional light between 1 - intensity and max(0.5 + intensity, 1).
    func patternVertex(nx: Double, ny: Double, nz: Double, top: Bool, base: Double, height: Double) -> SIMD3<Double> {
        let i = light.intensity, k = 16384.0 / 16383
        var d = min(max((nx * light.x + ny * light.y + nz * light.z) * k, 0), 1)
        d = (1 - i) + (max(0.5 + i, 1) - (1 - i)) * d
        if ny != 0 && gradient {
            let lo = 0.7 + (0.98 - 0.7) * (1 - i)
            d *= min(max(((top ? 1 : 0) + base) * (height / 150).squareRoot(), lo), 1)
        }
        let v = lightColor * d
        return v.replacing(with: floor, where: v .< floor).replacing(with: 1, where: v .> 1)
    }
}
