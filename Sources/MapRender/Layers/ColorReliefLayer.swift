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

struct ColorReliefShader: DEMRowShader, DEMColoring {
    /// The ramp's stops (as many of each, at least one), valid while the layer draws.
    let elevations: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<PremultipliedRGBA>

    func shade(_ tile: DEMTileView, _ run: DEMRun, _ pixels: UnsafeMutablePointer<UInt32>) {
        let dim = Double(tile.dim), s = tile.stride, e = tile.elevations
        let fx0 = Float(run.u * dim + 0.5), fy0 = Float(run.v * dim + 0.5), dfx = Float(run.du * dim), dfy = Float(run.dv * dim)
        let last = Float(s - 1)
        if run.dv == 0 {
            // Along a row of the map (no bearing): each column's vertical blend made once.
            let fy = min(max(fy0, 0), last)
            let iy = Int(fy), wy = fy - Float(iy)
            let top = e + iy * s, bottom = e + min(iy + 1, s - 1) * s
            @inline(__always) func column(_ x: Int) -> Float { top[x] + (bottom[x] - top[x]) * wy }
            var at = -2, west: Float = 0, east: Float = 0
            DEMTileWalk.fourAtATime(run.count, pixels, { i in
                let fx = min(max(fx0 + Float(i) * dfx, 0), last)
                let ix = Int(fx), wx = fx - Float(ix)
                if ix != at {
                    west = ix == at + 1 ? east : column(ix)
                    east = column(min(ix + 1, s - 1))
                    at = ix
                }
                return (west + (east - west) * wx, 0)
            }, self)
            return
        }
        DEMTileWalk.fourAtATime(run.count, pixels, { i in
            let fi = Float(i)
            return (Self.elevation(e, s, min(max(fx0 + fi * dfx, 0), last), min(max(fy0 + fi * dfy, 0), last)), 0)
        }, self)
    }

    /// The elevation at (fx, fy) in pixels of the bordered grid (each in 0...stride − 1),
    /// bilinear between pixel centres.
    @inline(__always) static func elevation(_ e: UnsafePointer<Float>, _ s: Int, _ fx: Float, _ fy: Float) -> Float {
        let ix = Int(fx), iy = Int(fy)
        let wx = fx - Float(ix), wy = fy - Float(iy)
        let x1 = min(ix + 1, s - 1) - ix, y1 = min(iy + 1, s - 1) - iy
        let p = e + iy * s + ix
        let top = p[0] + (p[x1] - p[0]) * wx
        let bottom = p[y1 * s] + (p[y1 * s + x1] - p[y1 * s]) * wx
        return top + (bottom - top) * wy
    }

    @inline(__always) func color(_ elevation: Float, _: Float) -> PremultipliedRGBA { color(elevation) }

    /// The ramp's colour at `elevation`: linear between stops, clamped at the ends.
    @inline(__always) func color(_ elevation: Float) -> PremultipliedRGBA {
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
