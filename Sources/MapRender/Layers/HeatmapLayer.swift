import Foundation
import MapCore
import Raster

/// Heatmap layers as MapLibre draws them, in two passes.
///
/// 1. Density: a buffer a quarter of the view's size each way (MapLibre's offscreen texture,
///    `floor(width / 4)` by `floor(height / 4)`), cleared, into which every point adds
///    weight x intensity x `gaussian` x exp(-4.5 |v|^2), v its offset from the point in radii, at
///    the buffer's pixel centres inside the point's square quad (half-size S x radius, S where
///    the kernel falls to `zero`, turned with the map).
/// 2. Colour: each pixel's density, read bilinearly from the buffer, picks a colour from the
///    256-entry ramp (also read linearly), times the opacity, over the layers below.
///
/// The kernel is separable: each point takes one exp per buffer column and row it covers, not
/// one per pixel. The buffer and the scratch arrays are kept between frames. A band renderer
/// sums only the buffer rows its own rows read.
final class HeatmapRenderLayer: RenderLayer {
    /// MapLibre's kernel constants (heatmap.vertex.glsl): the density taken as zero, to which
    /// the quad is sized, and 1 / sqrt(2 pi).
    static let zero = 1.0 / 255.0 / 16.0
    static let gaussian = 0.3989422804014327
    /// The buffer is this many times smaller than the view each way.
    static let downscale = 4
    /// Steps of the ramp's linear read per ramp texel (`fine`).
    static let steps = 16

    /// The density buffer, `columns` x `rows`, row-major (its storage is `store.density`).
    var density: [Float] { Array(store.density.prefix(columns * rows)) }
    var columns = 0, rows = 0
    let store = Scratch()
    /// The ramp read linearly and times the opacity, `steps` entries per texel (premultiplied):
    /// made for `fineRamp` and `fineOpacity`.
    var fine: [UInt32] = []
    private var fineRamp: HeatmapRamp?
    private var fineOpacity = -1.0

    /// The buffers kept between frames (grown, never shrunk; freed with the layer).
    final class Scratch {
        var density = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
        /// The columns kernels reached in each buffer row this frame (the others are zero; an
        /// empty range where none did).
        var rowFirst = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
        var rowLast = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
        /// A point's kernel factors along the buffer's columns and rows.
        var alongX = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
        var alongY = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
        /// For each pixel column: the two buffer columns it reads and the weight of the second.
        var left = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
        var right = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
        var rightWeight = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
        /// One pixel row's density at each buffer column (the two rows it reads, mixed).
        var column = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

        static func grow<T>(_ b: inout UnsafeMutableBufferPointer<T>, to n: Int, _ value: T) {
            guard b.count < n else { return }
            b.baseAddress?.deallocate()
            b = .allocate(capacity: n)
            b.initialize(repeating: value)
        }

        deinit {
            density.baseAddress?.deallocate(); rowFirst.baseAddress?.deallocate(); rowLast.baseAddress?.deallocate()
            alongX.baseAddress?.deallocate(); alongY.baseAddress?.deallocate()
            left.baseAddress?.deallocate(); right.baseAddress?.deallocate(); rightWeight.baseAddress?.deallocate()
            column.baseAddress?.deallocate()
        }
    }

    /// Where one frame's kernels go: the buffer, its scratch and the rows summed.
    struct Grid {
        let density: UnsafeMutablePointer<Float>
        let rowFirst: UnsafeMutablePointer<Int32>, rowLast: UnsafeMutablePointer<Int32>
        let alongX: UnsafeMutablePointer<Float>, alongY: UnsafeMutablePointer<Float>
        let columns: Int
        let sx: Double, sy: Double
        let band: ClosedRange<Int>
        /// Where the buffer's corner is on the (flat) screen: the view's corner, or for a pitched
        /// view the corner of the ground seen, on the flat screen.
        var origin = Point(0, 0)
    }

    func draw(_ draw: HeatmapDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard draw.opacity > 0, !t.rows.isEmpty else { return }
        if p.isPitched { drawPitched(draw, p, t); return }
        let width = t.width, height = p.viewHeight
        let cols = max(width / Self.downscale, 1), rws = max(height / Self.downscale, 1)
        let sx = Double(width) / Double(cols), sy = Double(height) / Double(rws)
        // The buffer rows the target's rows read (two per row, clamped at the edges).
        let first = min(max(Int((((Double(t.rows.lowerBound) + 0.5) / sy) - 0.5).rounded(.down)), 0), rws - 1)
        let last = min(max(Int((((Double(t.rows.upperBound) - 0.5) / sy) - 0.5).rounded(.down)) + 1, 0), rws - 1)
        guard let grid = prepare(cols, rws, sx: sx, sy: sy, first...last) else { return }
        // (On the globe; while it blends into Mercator, past zoom 11, as on the flat map.)
        let sphere = p.sphere.flatMap { $0.globeness >= 1 ? $0 : nil }
        if let sphere { accumulateOnSphere(draw, p, sphere, grid) } else { accumulate(draw, p, grid) }
        makeFine(draw.ramp, draw.opacity)
        colour(t, grid, disc: sphere)
    }

    /// Sizes the buffers and clears the rows `band`.
    func prepare(_ cols: Int, _ rws: Int, sx: Double, sy: Double, _ band: ClosedRange<Int>) -> Grid? {
        columns = cols; rows = rws
        let s = store
        Scratch.grow(&s.density, to: cols * rws, 0)
        Scratch.grow(&s.rowFirst, to: rws, 0); Scratch.grow(&s.rowLast, to: rws, 0)
        Scratch.grow(&s.alongX, to: cols, 0); Scratch.grow(&s.alongY, to: rws, 0)
        guard let d = s.density.baseAddress, let rf = s.rowFirst.baseAddress, let rl = s.rowLast.baseAddress,
              let gx = s.alongX.baseAddress, let gy = s.alongY.baseAddress else { return nil }
        for j in 0..<rws { rf[j] = Int32(cols); rl[j] = -1 }
        (d + band.lowerBound * cols).update(repeating: 0, count: band.count * cols)
        return Grid(density: d, rowFirst: rf, rowLast: rl, alongX: gx, alongY: gy, columns: cols, sx: sx, sy: sy, band: band)
    }

    /// Adds every point's kernel to the buffer rows `grid.band`.
    func accumulate(_ draw: HeatmapDraw, _ p: Placement, _ grid: Grid) {
        // The map's axes on screen (at a bearing the quads turn with the map).
        let turn = p.turn
        let ax = turn.map { Point($0.a, $0.b) } ?? Point(1, 0), ay = turn.map { Point($0.c, $0.d) } ?? Point(0, 1)
        let axes = turn == nil ? nil : (ax, ay)
        let spread = abs(ax.x) + abs(ax.y)
        let tiles = draw.points.tileZoom.map { exp2(Double($0)) }
        for item in draw.points.items {
            let g = item.geometry, paint = item.paint
            let k = paint.weight * draw.intensity * Self.gaussian
            let s = Self.extent(k)
            let r = paint.radius
            guard s > 0, r > 0, r.isFinite else { continue }
            let half = s * r
            let reach = half * spread + 2 * max(grid.sx, grid.sy)
            let cuts = g.kind == .points ? nil : tiles
            p.forEachCopy(g, margin: reach, (0, 0)) { (map: AxisMap) in
                for i in 0..<(g.coordinates.count / 2) {
                    let x = g.coordinates[2 * i], y = g.coordinates[2 * i + 1]
                    if let n = cuts, Self.onTileEdge(x * n) || Self.onTileEdge(y * n) { continue }
                    let c = map.point(x, y)
                    let q = p.turned(c.x, c.y)
                    Self.stamp(Point(q.x - grid.origin.x, q.y - grid.origin.y), k: k, radius: r, half: half, spread: spread, axes: axes, grid)
                }
            }
        }
    }

    /// On the globe, as MapLibre draws the density there: each point's kernel on its
    /// tessellated square turned about the point (`SphereQuad`, of half-size S x radius pixels
    /// at the screen centre's scale), each buffer cell inside taking the kernel at the extrusion
    /// interpolated there. Kernels whose centre lies well behind the horizon are left out (the
    /// squares cut the rest there).
    func accumulateOnSphere(_ draw: HeatmapDraw, _ p: Placement, _ sphere: SphereProjection, _ grid: Grid) {
        let map = AxisMap(p, copy: 0, translate: (0, 0))
        let tiles = draw.points.tileZoom.map { exp2(Double($0)) }
        let perPixel = sphere.anglePerPixel(atFlat: Point(Double(grid.columns) * grid.sx / 2, Double(p.viewHeight) / 2))
        let d = grid.density, cols = grid.columns
        for item in draw.points.items {
            let g = item.geometry, paint = item.paint
            let k = paint.weight * draw.intensity * Self.gaussian
            let s = Self.extent(k)
            guard s > 0, paint.radius > 0, paint.radius.isFinite else { continue }
            let cuts = g.kind == .points ? nil : tiles
            let weight = Float(k)
            for i in 0..<(g.coordinates.count / 2) {
                let x = g.coordinates[2 * i], y = g.coordinates[2 * i + 1]
                if let n = cuts, Self.onTileEdge(x * n) || Self.onTileEdge(y * n) { continue }
                let m = sphere.mercator(map.point(x, y))
                let v = SphereProjection.unit(m.x, m.y)
                guard sphere.side(v) > -0.5,
                      let quad = SphereQuad(centre: v, angle: s * paint.radius * perPixel, on: sphere) else { continue }
                quad.forEachPixel(rows: grid.band.lowerBound..<(grid.band.upperBound + 1), columns: 0..<cols, scale: (grid.sx, grid.sy)) { ci, cj, ex, ey in
                    // The extrusion in S radii: the kernel at distance |e| S radii.
                    let r2 = (ex * ex + ey * ey) * s * s
                    d[cj * cols + ci] += weight * exp(Float(-4.5 * r2))
                    grid.rowFirst[cj] = min(grid.rowFirst[cj], Int32(ci)); grid.rowLast[cj] = max(grid.rowLast[cj], Int32(ci))
                }
            }
        }
    }

    /// Whether a coordinate in tiles (normalised Mercator times 2^z) is on a tile edge.
    @inline(__always) static func onTileEdge(_ v: Double) -> Bool { v == v.rounded(.down) }

    /// S: the quad's half-size in radii, where weight x intensity x gaussian x exp(-4.5 S^2)
    /// falls to `zero`; 0 when the kernel never reaches it (nothing is drawn).
    static func extent(_ k: Double) -> Double {
        let s = (-2 * log(zero / k)).squareRoot() / 3
        return s.isFinite && s > 0 ? s : 0
    }

    /// One point's kernel at `c` (screen pixels): `k` x exp(-4.5 |v|^2) at the buffer pixel
    /// centres inside its quad of half-size `half`, along the map's `axes` (nil: north up).
    static func stamp(_ c: Point, k: Double, radius r: Double, half: Double, spread: Double,
                              axes: (Point, Point)?, _ grid: Grid) {
        let reach = half * spread, sx = grid.sx, sy = grid.sy
        // Buffer pixels whose centres ((i + 0.5) sx) fall in [c - reach, c + reach).
        let i0 = max(Int(((c.x - reach) / sx - 0.5).rounded(.up)), 0)
        let i1 = min(Int(((c.x + reach) / sx - 0.5).rounded(.up)) - 1, grid.columns - 1)
        let j0 = max(Int(((c.y - reach) / sy - 0.5).rounded(.up)), grid.band.lowerBound)
        let j1 = min(Int(((c.y + reach) / sy - 0.5).rounded(.up)) - 1, grid.band.upperBound)
        guard i0 <= i1, j0 <= j1 else { return }
        let scale = -4.5 / (r * r), weight = Float(k)
        let gx = grid.alongX, gy = grid.alongY, d = grid.density
        for i in i0...i1 {
            let dx = (Double(i) + 0.5) * sx - c.x
            gx[i] = exp(Float(scale * dx * dx))
        }
        for j in j0...j1 {
            let dy = (Double(j) + 0.5) * sy - c.y
            gy[j] = weight * exp(Float(scale * dy * dy))
        }
        for j in j0...j1 {
            let row = d + j * grid.columns, f = gy[j]
            grid.rowFirst[j] = min(grid.rowFirst[j], Int32(i0)); grid.rowLast[j] = max(grid.rowLast[j], Int32(i1))
            if let (ax, ay) = axes {
                // The quad turns with the map: keep the centres inside it.
                let dy = (Double(j) + 0.5) * sy - c.y
                for i in i0...i1 {
                    let dx = (Double(i) + 0.5) * sx - c.x
                    guard abs(dx * ax.x + dy * ax.y) < half, abs(dx * ay.x + dy * ay.y) < half else { continue }
                    row[i] += f * gx[i]
                }
            } else {
                for i in i0...i1 { row[i] += f * gx[i] }
            }
        }
    }

    /// The ramp read linearly at `steps` points per texel, times `opacity`, premultiplied.
    func makeFine(_ ramp: HeatmapRamp, _ opacity: Double) {
        guard ramp !== fineRamp || opacity != fineOpacity else { return }
        fineRamp = ramp; fineOpacity = opacity
        let n = HeatmapRamp.size, steps = Self.steps
        if fine.count != (n - 1) * steps + 1 { fine = [UInt32](repeating: 0, count: (n - 1) * steps + 1) }
        let o = min(max(opacity, 0), 1)
        for k in 0..<fine.count {
            let a = ramp.colors[k / steps], b = ramp.colors[min(k / steps + 1, n - 1)]
            let f = Double(k % steps) / Double(steps)
            var packed: UInt32 = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let ca = Double(a >> UInt32(shift) & 255), cb = Double(b >> UInt32(shift) & 255)
                let v = ((ca + (cb - ca) * f) * o).rounded()
                packed |= UInt32(min(max(v, 0), 255)) << UInt32(shift)
            }
            fine[k] = packed
        }
    }

    /// Pass 2 over the target's rows: density read bilinearly, its colour from `fine` over the
    /// pixel.
    private func colour(_ t: RenderTarget, _ grid: Grid, disc: SphereProjection? = nil) {
        let width = t.width, cols = grid.columns, rows = self.rows, sx = grid.sx, sy = grid.sy
        let s = store
        Scratch.grow(&s.left, to: width, 0); Scratch.grow(&s.right, to: width, 0); Scratch.grow(&s.rightWeight, to: width, 0)
        Scratch.grow(&s.column, to: cols, 0)
        guard let left = s.left.baseAddress, let right = s.right.baseAddress, let weight = s.rightWeight.baseAddress,
              let column = s.column.baseAddress else { return }
        for x in 0..<width {
            let u = (Double(x) + 0.5) / sx - 0.5
            let i = Int(u.rounded(.down))
            left[x] = Int32(min(max(i, 0), cols - 1))
            right[x] = Int32(min(max(i + 1, 0), cols - 1))
            weight[x] = Float(u - Double(i))
        }
        // Fine-ramp index = (density x 256 - 0.5) x steps, clamped to the ramp.
        let scale = Float(HeatmapRamp.size * Self.steps), offset = Float(Self.steps) / 2
        let top = fine.count - 1, topIndex = Float(top)
        let d = grid.density, dst = t.pixmap.pixels
        fine.withUnsafeBufferPointer { ramp in
            guard let colours = ramp.baseAddress else { return }
            let emptyColour = colours[0]
            for y in t.rows {
                let v = (Double(y) + 0.5) / sy - 0.5
                let jf = Int(v.rounded(.down))
                let ja = min(max(jf, 0), rows - 1), jb = min(max(jf + 1, 0), rows - 1)
                // Where the density is zero and so is the ramp's first colour, nothing to draw:
                // only the pixels that read a column some kernel reached in either row.
                var xs = 0..<width, columns = 0..<cols
                if emptyColour == 0 {
                    let first = Int(min(grid.rowFirst[ja], grid.rowFirst[jb])), last = Int(max(grid.rowLast[ja], grid.rowLast[jb]))
                    let lower = max(Int((Double(first - 1) * sx).rounded(.down)), 0)
                    let upper = min(Int((Double(last + 2) * sx).rounded(.up)), width)
                    if first > last || lower >= upper { continue }
                    xs = lower..<upper
                    columns = Int(left[lower])..<(Int(right[upper - 1]) + 1)
                }
                // Bilinear = the two rows mixed at each column, then the columns mixed per pixel.
                let fy = Float(v - Double(jf))
                let a = d + ja * cols, b = d + jb * cols
                for i in columns { column[i] = a[i] + (b[i] - a[i]) * fy }
                let line = dst + y * width
                if let disc {
                    // On the globe: only the pixels whose centres show it.
                    guard let s = disc.discSpan(Double(y) + 0.5) else { continue }
                    let lo = max(xs.lowerBound, Int((s.0 - 0.5).rounded(.up))), hi = min(xs.upperBound, Int((s.1 - 0.5).rounded(.down)) + 1)
                    guard lo < hi else { continue }
                    xs = lo..<hi
                }
                for x in xs {
                    let l = column[Int(left[x])], r = column[Int(right[x])]
                    let p = (l + (r - l) * weight[x]) * scale - offset
                    let k = p > 0 ? (p < topIndex ? Int(p + 0.5) : top) : 0
                    let c = colours[k]
                    if c != 0 { line[x] = Blend.over(c, line[x]) }
                }
            }
        }
    }
}
