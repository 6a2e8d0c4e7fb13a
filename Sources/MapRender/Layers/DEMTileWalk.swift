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
/// mapping is affine for a flat map at any bearing, and along each row of a pitched one: a
/// screen row is a line of constant depth).
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
        if let sphere = p.sphere, let unprojection = p.unprojection {
            return withViews(tiles) { views in drawOnSphere(tiles, views, sphere, unprojection, p, t, shader) }
        }
        // Screen to unrotated screen (the inverse of the view's turn; pitched, the inverse of
        // the ground's projection first).
        let turn = p.turn ?? .identity
        guard let unturn = turn.inverted() else { return }
        var back = Homography(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0, g: 0, h: 0, i: 1)
        if let ground = p.ground {
            guard let inverse = ground.homography.inverted() else { return }
            back = inverse
        }
        back = back.then(unturn)
        for draw in tiles {
            draw.dem.slopes.withUnsafeBufferPointer { slopes in
                draw.dem.data.elevations.withUnsafeBufferPointer { elevations in
                    draw.dem.inverseCosines.withUnsafeBufferPointer { cosines in
                        guard let s = slopes.baseAddress, let e = elevations.baseAddress, let c = cosines.baseAddress else { return }
                        let view = DEMTileView(dim: draw.dem.data.dim, stride: draw.dem.data.stride, slopes: s, elevations: e, inverseCosines: c)
                        drawTile(draw, view, p, t, shader, back: back)
                    }
                }
            }
        }
    }

    /// The tiles' arrays as pointers, valid within `body`.
    private static func withViews(_ tiles: [DEMTileDraw], _ body: ([DEMTileView]) -> Void) {
        var views: [DEMTileView] = []
        views.reserveCapacity(tiles.count)
        func next(_ i: Int) {
            guard i < tiles.count else { return body(views) }
            let dem = tiles[i].dem
            dem.slopes.withUnsafeBufferPointer { slopes in
                dem.data.elevations.withUnsafeBufferPointer { elevations in
                    dem.inverseCosines.withUnsafeBufferPointer { cosines in
                        guard let s = slopes.baseAddress, let e = elevations.baseAddress, let c = cosines.baseAddress else { return next(i + 1) }
                        views.append(DEMTileView(dim: dem.data.dim, stride: dem.data.stride, slopes: s, elevations: e, inverseCosines: c))
                        next(i + 1)
                        views.removeLast()
                    }
                }
            }
        }
        next(0)
    }

    /// On the globe: the pixels whose centres show the sphere, each taken back to its place in
    /// the world (`SphereUnprojection`) every `sphereStep` pixels along a row and linearly
    /// between (so each piece is a `DEMRun`), handed to the tile whose square holds it.
    static let sphereStep = 4

    private static func drawOnSphere<S: DEMRowShader>(_ tiles: [DEMTileDraw], _ views: [DEMTileView], _ sphere: SphereProjection,
                                                      _ unprojection: SphereUnprojection, _ p: Placement, _ t: RenderTarget, _ shader: S) {
        guard views.count == tiles.count, !tiles.isEmpty else { return }
        let width = t.pixmap.width
        // The squares by zoom, for finding the one that holds a place.
        var byZoom: [Int: [Int: Int]] = [:]
        for (i, d) in tiles.enumerated() {
            let n = 1 << d.square.z
            byZoom[d.square.z, default: [:]][d.square.y * n + d.square.x] = i
        }
        let zooms = byZoom.keys.sorted(by: >)
        @inline(__always) func holds(_ i: Int, _ x: Double, _ y: Double) -> Bool {
            let sq = tiles[i].square, n = Double(1 << sq.z)
            return x * n >= Double(sq.x) && x * n < Double(sq.x + 1) && y * n >= Double(sq.y) && y * n < Double(sq.y + 1)
        }
        func find(_ x: Double, _ y: Double) -> Int? {
            for z in zooms {
                let n = 1 << z
                let key = min(Int(y * Double(n)), n - 1) * n + min(Int(x * Double(n)), n - 1)
                if let i = byZoom[z]?[key] { return i }
            }
            return nil
        }
        // The place (normalised Mercator, x in 0...1) screen pixel x of row centre sy shows;
        // the polar caps take the square's edge rows (as MapLibre's pole vertices do).
        @inline(__always) func place(_ x: Int, _ sy: Double) -> (x: Double, y: Double) {
            var m = SphereUnprojection.mercator(unprojection.unit(Double(x) + 0.5, sy))
            m.x -= m.x.rounded(.down)
            m.y = min(max(m.y, 0), 1 - 1e-12)
            return m
        }
        for y in t.rows {
            let sy = Double(y) + 0.5
            guard let span = sphere.discSpan(sy) else { continue }
            let lo = max(0, Int((span.0 - 0.5).rounded(.up))), hi = min(width, Int((span.1 - 0.5).rounded(.down)) + 1)
            guard hi > lo else { continue }
            var current = -1
            var x0 = lo, a = place(lo, sy)
            while x0 < hi {
                let x1 = min(x0 + sphereStep, hi)
                let b = x1 < hi ? place(x1, sy) : (x1 - x0 > 1 ? place(x1 - 1, sy) : a)
                // Per pixel along this piece (b is at x1, or at the last pixel at the row's end).
                let steps = Double(x1 < hi ? x1 - x0 : max(x1 - x0 - 1, 1))
                var bx = b.x
                if bx - a.x > 0.5 { bx -= 1 } else if a.x - bx > 0.5 { bx += 1 }
                let dx = (bx - a.x) / steps, dy = (b.y - a.y) / steps
                var i = x0
                while i < x1 {
                    var mx = a.x + dx * Double(i - x0)
                    mx -= mx.rounded(.down)
                    let my = a.y + dy * Double(i - x0)
                    if current < 0 || !holds(current, mx, my) {
                        guard let found = find(mx, my) else { i += 1; continue }
                        current = found
                    }
                    // The pixels from i on in the same square.
                    var j = i + 1
                    while j < x1 {
                        var nx = a.x + dx * Double(j - x0)
                        nx -= nx.rounded(.down)
                        if !holds(current, nx, a.y + dy * Double(j - x0)) { break }
                        j += 1
                    }
                    let tile = tiles[current].dem.tile, scale = Double(1 << tile.z)
                    let run = DEMRun(count: j - i, u: mx * scale - Double(tile.x), v: my * scale - Double(tile.y), du: dx * scale, dv: dy * scale)
                    shader.shade(views[current], run, t.pixmap.pixels + y * width + i)
                    i = j
                }
                x0 = x1
                if x1 < hi { a = b }
            }
        }
    }

    /// One tile's square, in each world copy.
    private static func drawTile<S: DEMRowShader>(_ draw: DEMTileDraw, _ view: DEMTileView, _ p: Placement, _ t: RenderTarget, _ shader: S,
                                                  back: Homography) {
        let turn = p.turn ?? .identity
        let width = t.pixmap.width
        let tile = draw.dem.tile, square = draw.square
        let tileScale = Double(1 << tile.z), squareScale = Double(1 << square.z)
        let sx0 = Double(square.x) / squareScale, sx1 = Double(square.x + 1) / squareScale
        let sy0 = Double(square.y) / squareScale, sy1 = Double(square.y + 1) / squareScale
        let copies = Int((p.visible.minX - sx1).rounded(.down))...Int((p.visible.maxX - sx0).rounded(.up))
        let rows = p.groundRows(t)
        guard !rows.isEmpty else { return }
        for copy in copies {
            let k = Double(copy)
            // The square's corners on screen, then the rows and columns they span.
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (mx, my) in [(sx0, sy0), (sx1, sy0), (sx1, sy1), (sx0, sy1)] {
                var q = turn.apply(Point((mx + k) * p.world + p.ox, my * p.world + p.oy))
                if let g = p.ground {
                    // (A corner out of the slab: the square may reach any pixel of the ground.)
                    let w = g.depth(q.x, q.y)
                    guard w >= g.near, w <= g.far else { minX = -.infinity; maxX = .infinity; minY = -.infinity; maxY = .infinity; break }
                    q = g.apply(q.x, q.y)
                }
                minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
            }
            guard !minX.isNaN, !maxX.isNaN, !minY.isNaN, !maxY.isNaN else { continue }
            let top = max(rows.lowerBound, Int(max(minY, -1e9).rounded(.down))), bottom = min(rows.upperBound - 1, Int(min(maxY, 1e9).rounded(.up)))
            let left = max(0, Int(max(minX, -1e9).rounded(.down))), right = min(width - 1, Int(min(maxX, 1e9).rounded(.up)))
            guard top <= bottom, left <= right else { continue }
            for y in top...bottom {
                let sy = Double(y) + 0.5
                // This row on the unrotated screen: X = ia x + bx, Y = ib x + by at x a pixel centre.
                let r0 = back.apply(0.5, sy), r1 = back.apply(1.5, sy)
                let ia = r1.x - r0.x, ib = r1.y - r0.y
                let bx = r0.x - 0.5 * ia, by = r0.y - 0.5 * ib
                // Tile places per screen pixel along the row.
                let du = ia / p.world * tileScale, dv = ib / p.world * tileScale
                // The pixel's place in the world (0...1), as Mercator x and y.
                @inline(__always) func mx(_ x: Int) -> Double { ((ia * (Double(x) + 0.5) + bx) - p.ox) / p.world - k }
                @inline(__always) func my(_ x: Int) -> Double { ((ib * (Double(x) + 0.5) + by) - p.oy) / p.world }
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
