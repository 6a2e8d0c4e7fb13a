import Foundation
import MapCore
import Raster

/// What a DEM layer draws over a run of screen pixels of one tile: each pixel's premultiplied
/// colour blended over it (premultiplied source over, `DEMTileWalk.blend`).
protocol DEMRowShader {
    func shade(_ tile: DEMTileView, _ run: DEMRun, _ pixels: UnsafeMutablePointer<UInt32>)
}

/// A pixel's colour from its two samples (a layer's shading, as a type so that it is inlined
/// into the walk).
protocol DEMColoring {
    func color(_ a: Float, _ b: Float) -> PremultipliedRGBA
}

/// A run of `count` screen pixels along a row, as places in a tile: pixel i's centre is at
/// (u + i·du, v + i·dv), 0...1 across the tile from its north-west corner (the screen to tile
/// mapping is affine for a flat map at any bearing).
struct DEMRun {
    let count: Int
    let u: Double, v: Double, du: Double, dv: Double
}

/// A DEM tile's arrays as pointers, valid while its pixels are drawn (no reference counting
/// per pixel).
struct DEMTileView {
    let dim: Int, stride: Int
    /// stride × stride (east, south) slope bytes, the border a copy of the edge.
    let slopes: UnsafePointer<UInt8>
    /// stride × stride elevations, the border included.
    let elevations: UnsafePointer<Float>
    /// `DEMTile.latitudeSteps` + 1 values down the tile.
    let inverseCosines: UnsafePointer<Float>
}

/// Walks the screen pixels each DEM tile's square covers (in every world copy the view shows,
/// at any bearing), sampling at pixel centres: for each row, the run of pixels whose centres
/// fall in the square (the same test for every tile, so neighbours share no pixel and leave
/// no gap), handed to the shader with the tile places of its first pixel and the step between.
enum DEMTileWalk {
    static func draw<S: DEMRowShader>(_ tiles: [DEMTileDraw], _ p: Placement, _ t: RenderTarget, _ shader: S) {
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
    private static func drawTile<S: DEMRowShader>(_ draw: DEMTileDraw, _ view: DEMTileView, _ p: Placement, _ t: RenderTarget, _ shader: S,
                                                  inverse: (Double, Double, Double, Double, Double, Double)) {
        let (ia, ib, ic, id, itx, ity) = inverse
        let turn = p.turn ?? .identity
        let width = t.pixmap.width
        let tile = draw.dem.tile, square = draw.square
        let tileScale = Double(1 << tile.z), squareScale = Double(1 << square.z)
        let sx0 = Double(square.x) / squareScale, sx1 = Double(square.x + 1) / squareScale
        let sy0 = Double(square.y) / squareScale, sy1 = Double(square.y + 1) / squareScale
        let copies = Int((p.visible.minX - sx1).rounded(.down))...Int((p.visible.maxX - sx0).rounded(.up))
        // Tile places per screen pixel along a row.
        let du = ia / p.world * tileScale, dv = ib / p.world * tileScale
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
                let sy = Double(y) + 0.5
                // The pixel's place in the world (0...1), as Mercator x and y.
                @inline(__always) func mx(_ x: Int) -> Double { ((ia * (Double(x) + 0.5) + ic * sy + itx) - p.ox) / p.world - k }
                @inline(__always) func my(_ x: Int) -> Double { ((ib * (Double(x) + 0.5) + id * sy + ity) - p.oy) / p.world }
                @inline(__always) func inside(_ x: Int) -> Bool {
                    let u = mx(x), v = my(x)
                    return u >= sx0 && u < sx1 && v >= sy0 && v < sy1
                }
                // The columns the square's edges cross this row at, then exactly the pixels in it
                // (each edge test is monotonic along the row, so they are one run).
                var lo = Double(left), hi = Double(right)
                @inline(__always) func narrow(_ a: Double, _ b: Double, _ from: Double, _ to: Double) {
                    if a == 0 {
                        if !(b >= from - 1e-9 && b < to + 1e-9) { lo = 1; hi = -2 }
                        return
                    }
                    let e0 = (from - b) / a - 0.5, e1 = (to - b) / a - 0.5
                    lo = max(lo, min(e0, e1)); hi = min(hi, max(e0, e1))
                }
                let ax = ia / p.world, ay = ib / p.world
                narrow(ax, mx(0) - ax * 0.5, sx0, sx1)
                narrow(ay, my(0) - ay * 0.5, sy0, sy1)
                guard lo.isFinite, hi.isFinite, lo <= hi + 2 else { continue }
                var first = max(left, Int(lo.rounded(.down)) - 1), last = min(right, Int(hi.rounded(.up)) + 1)
                while first <= last && !inside(first) { first += 1 }
                while last >= first && !inside(last) { last -= 1 }
                guard first <= last else { continue }
                while first > left && inside(first - 1) { first -= 1 }
                while last < right && inside(last + 1) { last += 1 }
                let run = DEMRun(count: last - first + 1, u: mx(first) * tileScale - Double(tile.x), v: my(first) * tileScale - Double(tile.y), du: du, dv: dv)
                shader.shade(view, run, t.pixmap.pixels + y * width + first)
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

    /// The colours of `count` pixels from their samples, blended over them: four at a time, so
    /// the arithmetic of four pixels interleaves (each pixel's is one long chain of dependent
    /// square roots, divisions and loads).
    @inline(__always) static func fourAtATime<C: DEMColoring>(_ count: Int, _ pixels: UnsafeMutablePointer<UInt32>,
                                                              _ sample: (Int) -> (Float, Float), _ coloring: C) {
        var i = 0
        while i + 3 < count {
            let a = sample(i), b = sample(i + 1), c = sample(i + 2), d = sample(i + 3)
            let ca = coloring.color(a.0, a.1), cb = coloring.color(b.0, b.1), cc = coloring.color(c.0, c.1), cd = coloring.color(d.0, d.1)
            put(ca, pixels + i); put(cb, pixels + i + 1); put(cc, pixels + i + 2); put(cd, pixels + i + 3)
            i += 4
        }
        while i < count {
            let a = sample(i)
            put(coloring.color(a.0, a.1), pixels + i)
            i += 1
        }
    }

    /// `c` blended over `pixel`, unless it is clear.
    @inline(__always) static func put(_ c: PremultipliedRGBA, _ pixel: UnsafeMutablePointer<UInt32>) {
        if c.a <= 0 && c.r <= 0 && c.g <= 0 && c.b <= 0 { return }
        pixel.pointee = blend(c, over: pixel.pointee)
    }
}
