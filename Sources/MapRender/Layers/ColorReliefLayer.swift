import Foundation
import MapCore
import Raster

/// Color-relief layers: each DEM tile's elevation sampled bilinearly at every screen pixel (its
/// border filled from the neighbours, so tiles meet without seams) and coloured through the
/// layer's ramp (MapLibre's color-relief shader).
final class ColorReliefRenderLayer: RenderLayer {
    func draw(_ draw: ColorReliefDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard !draw.elevations.isEmpty, draw.elevations.count == draw.colors.count else { return }
        let placement = draw.gridStep.map { p.pixelAligned(width: t.width, step: $0) } ?? p
        draw.elevations.withUnsafeBufferPointer { elevations in
            draw.colors.withUnsafeBufferPointer { colors in
                DEMTileWalk.draw(draw.tiles, placement, t, ColorReliefShader(elevations: elevations, colors: colors))
            }
        }
    }
}

struct ColorReliefShader: DEMPixelShader {
    /// The ramp's stops (as many of each, at least one), valid while the layer draws.
    let elevations: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<PremultipliedRGBA>

    func shade(_ tile: DEMTileView, u: Float, v: Float) -> PremultipliedRGBA {
        color(Self.elevation(tile, u: u, v: v))
    }

    /// The elevation at (u, v) across the tile, bilinear between pixel centres (the border
    /// pixels included).
    @inline(__always) static func elevation(_ d: DEMTileView, u: Float, v: Float) -> Float {
        let s = d.stride, e = d.elevations
        let fx = u * Float(d.dim) + 0.5, fy = v * Float(d.dim) + 0.5
        let ix = ShadingMath.floor(fx), iy = ShadingMath.floor(fy)
        let wx = fx - Float(ix), wy = fy - Float(iy)
        let x0 = min(max(ix, 0), s - 1), x1 = min(max(ix + 1, 0), s - 1)
        let y0 = min(max(iy, 0), s - 1), y1 = min(max(iy + 1, 0), s - 1)
        let top = e[y0 * s + x0] + (e[y0 * s + x1] - e[y0 * s + x0]) * wx
        let bottom = e[y1 * s + x0] + (e[y1 * s + x1] - e[y1 * s + x0]) * wx
        return top + (bottom - top) * wy
    }

    /// The ramp's colour at `elevation`: linear between stops, clamped at the ends.
    func color(_ elevation: Float) -> PremultipliedRGBA {
        let n = elevations.count
        if elevation <= elevations[0] || n == 1 { return colors[0] }
        if elevation >= elevations[n - 1] { return colors[n - 1] }
        var lo = 0, hi = n - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if elevations[mid] <= elevation { lo = mid } else { hi = mid }
        }
        let span = elevations[hi] - elevations[lo]
        let t = span > 0 ? (elevation - elevations[lo]) / span : 0
        let a = colors[lo], b = colors[hi]
        return PremultipliedRGBA(r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: a.a + (b.a - a.a) * t)
    }
}
