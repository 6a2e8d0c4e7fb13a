import Foundation
import MapCore
import Raster

/// What a DEM layer computes for one screen pixel of a tile: its premultiplied colour from the
/// tile and the pixel's place in it (`u`, `v`: 0...1 across the tile from its north-west
/// corner).
protocol DEMPixelShader {
    func shade(_ tile: DEMTileView, u: Float, v: Float) -> PremultipliedRGBA
}

/// A DEM tile's arrays as pointers, valid while its pixels are drawn (no reference counting
/// per pixel).
struct DEMTileView {
    let dim: Int, stride: Int
    /// dim × dim (east, south) slope bytes.
    let slopes: UnsafePointer<UInt8>
    /// stride × stride elevations, the border included.
    let elevations: UnsafePointer<Float>
    /// `DEMTile.latitudeSteps` + 1 values down the tile.
    let inverseCosines: UnsafePointer<Float>
}

/// Walks the screen pixels each DEM tile's square covers (in every world copy the view shows,
/// at any bearing), sampling at pixel centres, and blends the shader's colour over them
/// (premultiplied source over).
enum DEMTileWalk {
    static func draw<S: DEMPixelShader>(_ tiles: [DEMTileDraw], _ p: Placement, _ t: RenderTarget, _ shader: S) {
        // Screen to unrotated screen (the inverse of the view's turn).
        let turn = p.turn ?? .identity
        let det = turn.a * turn.d - turn.b * turn.c
        guard det != 0, det.isFinite else { return }
        let ia = turn.d / det, ib = -turn.b / det, ic = -turn.c / det, id = turn.a / det
        let itx = -(ia * turn.tx + ic * turn.ty), ity = -(ib * turn.tx + id * turn.ty)
        for draw in tiles {
            draw.dem.slopes.withUnsafeBufferPointer { slopes in
                draw.dem.data.elevations.withUnsafeBufferPointer { elevations in
                    draw.dem.inverseCosines.withUnsafeBufferPointer { cosines in
                        guard let s = slopes.baseAddress, let e = elevations.baseAddress, let c = cosines.baseAddress else { return }
                        let view = DEMTileView(dim: draw.dem.data.dim, stride: draw.dem.data.stride, slopes: s, elevations: e, inverseCosines: c)
                        drawTile(draw, view, p, t, shader, inverse: (ia, ib, ic, id, itx, ity))
                    }
                }
            }
        }
    }

    /// One tile's square, in each world copy.
    private static func drawTile<S: DEMPixelShader>(_ draw: DEMTileDraw, _ view: DEMTileView, _ p: Placement, _ t: RenderTarget, _ shader: S,
                                                    inverse: (Double, Double, Double, Double, Double, Double)) {
        let (ia, ib, ic, id, itx, ity) = inverse
        let turn = p.turn ?? .identity
        let width = t.pixmap.width
        let tile = draw.dem.tile, square = draw.square
        let tileScale = Double(1 << tile.z), squareScale = Double(1 << square.z)
        let sx0 = Double(square.x) / squareScale, sx1 = Double(square.x + 1) / squareScale
        let sy0 = Double(square.y) / squareScale, sy1 = Double(square.y + 1) / squareScale
        let copies = Int((p.visible.minX - sx1).rounded(.down))...Int((p.visible.maxX - sx0).rounded(.up))
        for copy in copies {
            let k = Double(copy)
            // The square's corners on screen, then the rows and columns they span.
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (mx, my) in [(sx0, sy0), (sx1, sy0), (sx1, sy1), (sx0, sy1)] {
                let q = turn.apply(Point((mx + k) * p.world + p.ox, my * p.world + p.oy))
                minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
            }
            guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { continue }
            let top = max(t.rows.lowerBound, Int(minY.rounded(.down))), bottom = min(t.rows.upperBound - 1, Int(maxY.rounded(.up)))
            let left = max(0, Int(minX.rounded(.down))), right = min(width - 1, Int(maxX.rounded(.up)))
            guard top <= bottom, left <= right else { continue }
            for y in top...bottom {
                let row = t.pixmap.pixels + y * width
                let sy = Double(y) + 0.5
                for x in left...right {
                    let sx = Double(x) + 0.5
                    let ux = ia * sx + ic * sy + itx, uy = ib * sx + id * sy + ity
                    let mx = (ux - p.ox) / p.world - k, my = (uy - p.oy) / p.world
                    guard mx >= sx0, mx < sx1, my >= sy0, my < sy1 else { continue }
                    let u = Float(mx * tileScale - Double(tile.x)), v = Float(my * tileScale - Double(tile.y))
                    let c = shader.shade(view, u: u, v: v)
                    if c.a <= 0 && c.r <= 0 && c.g <= 0 && c.b <= 0 { continue }
                    row[x] = blend(c, over: row[x])
                }
            }
        }
    }

    /// `c` over the packed premultiplied pixel `d`, rounded to 8 bits as a render target does.
    @inline(__always) static func blend(_ c: PremultipliedRGBA, over d: UInt32) -> UInt32 {
        let keep = 1 - min(max(c.a, 0), 1)
        @inline(__always) func ch(_ s: Float, _ shift: UInt32) -> UInt32 {
            let v = s * 255 + Float((d >> shift) & 255) * keep
            return UInt32(min(max(v, 0), 255) + 0.5) << shift
        }
        return ch(c.a, 24) | ch(c.r, 16) | ch(c.g, 8) | ch(c.b, 0)
    }
}
