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

    /// The density buffer, `columns` x `rows`, row-major.
    private(set) var density: [Float] = []
    private(set) var columns = 0, rows = 0
    /// The columns kernels reached in each buffer row this frame (the others are zero; an empty
    /// range where none did).
    private var rowFirst: [Int] = [], rowLast: [Int] = []
    /// A point's kernel factors along the buffer's columns and rows.
    private var alongX: [Double] = [], alongY: [Double] = []
    /// For each pixel column: the two buffer columns it reads and the weight of the second (x256).
    private var left: [Int32] = [], right: [Int32] = [], rightWeight: [Int32] = []
    /// The ramp read linearly and times the opacity, `steps` entries per texel (premultiplied):
    /// made for `fineRamp` and `fineOpacity`.
    private var fine: [UInt32] = []
    private var fineRamp: HeatmapRamp?
    private var fineOpacity = -1.0

    func draw(_ draw: HeatmapDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard draw.opacity > 0, !t.rows.isEmpty else { return }
        let width = t.width, height = p.viewHeight
        let cols = max(width / Self.downscale, 1), rws = max(height / Self.downscale, 1)
        let sx = Double(width) / Double(cols), sy = Double(height) / Double(rws)
        // The buffer rows the target's rows read (two per row, clamped at the edges).
        let first = min(max(Int((((Double(t.rows.lowerBound) + 0.5) / sy) - 0.5).rounded(.down)), 0), rws - 1)
        let last = min(max(Int((((Double(t.rows.upperBound) - 0.5) / sy) - 0.5).rounded(.down)) + 1, 0), rws - 1)
        prepare(cols, rws, first...last)
        accumulate(draw, p, sx: sx, sy: sy, first...last)
        makeFine(draw.ramp, draw.opacity)
        colour(t, sx: sx, sy: sy)
    }

    /// Sizes the buffer and clears `band`.
    private func prepare(_ cols: Int, _ rws: Int, _ band: ClosedRange<Int>) {
        if cols != columns || rws != rows {
            columns = cols; rows = rws
            density = [Float](repeating: 0, count: cols * rws)
            rowFirst = [Int](repeating: 0, count: rws); rowLast = rowFirst
        }
        for j in 0..<rws { rowFirst[j] = cols; rowLast[j] = -1 }
        density.withUnsafeMutableBufferPointer { d in
            guard let base = d.baseAddress else { return }
            (base + band.lowerBound * cols).update(repeating: 0, count: band.count * cols)
        }
        if alongX.count < cols { alongX = [Double](repeating: 0, count: cols) }
        if alongY.count < rws { alongY = [Double](repeating: 0, count: rws) }
    }

    /// Adds every point's kernel to the buffer rows `band`.
    private func accumulate(_ draw: HeatmapDraw, _ p: Placement, sx: Double, sy: Double, _ band: ClosedRange<Int>) {
        // The map's axes on screen (at a bearing the quads turn with the map).
        let turn = p.turn
        let ax = turn.map { Point($0.a, $0.b) } ?? Point(1, 0), ay = turn.map { Point($0.c, $0.d) } ?? Point(0, 1)
        let spread = abs(ax.x) + abs(ax.y)
        let tiles = draw.points.tileZoom.map { exp2(Double($0)) }
        for item in draw.points.items {
            let g = item.geometry, paint = item.paint
            let k = paint.weight * draw.intensity * Self.gaussian
            let s = Self.extent(k)
            let r = paint.radius
            guard s > 0, r > 0, r.isFinite else { continue }
            let half = s * r
            let reach = half * spread + 2 * max(sx, sy)
            let cuts = g.kind == .points ? nil : tiles
            p.forEachCopy(g, margin: reach, (0, 0)) { (map: AxisMap) in
                for i in 0..<(g.coordinates.count / 2) {
                    let x = g.coordinates[2 * i], y = g.coordinates[2 * i + 1]
                    if let n = cuts, Self.onTileEdge(x * n) || Self.onTileEdge(y * n) { continue }
                    let c = map.point(x, y)
                    let at = p.turned(c.x, c.y)
                    stamp(at, k: k, radius: r, half: half, spread: spread, axes: turn == nil ? nil : (ax, ay), sx: sx, sy: sy, band)
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
    private func stamp(_ c: Point, k: Double, radius r: Double, half: Double, spread: Double,
                       axes: (Point, Point)?, sx: Double, sy: Double, _ band: ClosedRange<Int>) {
        let reach = half * spread
        // Buffer pixels whose centres ((i + 0.5) sx) fall in [c - reach, c + reach).
        let i0 = max(Int(((c.x - reach) / sx - 0.5).rounded(.up)), 0)
        let i1 = min(Int(((c.x + reach) / sx - 0.5).rounded(.up)) - 1, columns - 1)
        let j0 = max(Int(((c.y - reach) / sy - 0.5).rounded(.up)), band.lowerBound)
        let j1 = min(Int(((c.y + reach) / sy - 0.5).rounded(.up)) - 1, band.upperBound)
        guard i0 <= i1, j0 <= j1 else { return }
        let scale = -4.5 / (r * r)
        for i in i0...i1 {
            let dx = (Double(i) + 0.5) * sx - c.x
            alongX[i] = exp(scale * dx * dx)
        }
        for j in j0...j1 {
            let dy = (Double(j) + 0.5) * sy - c.y
            alongY[j] = k * exp(scale * dy * dy)
        }
        let cols = columns
        density.withUnsafeMutableBufferPointer { d in
            alongX.withUnsafeBufferPointer { gx in
                for j in j0...j1 {
                    let row = j * cols, gy = alongY[j]
                    rowFirst[j] = min(rowFirst[j], i0); rowLast[j] = max(rowLast[j], i1)
                    if let (ax, ay) = axes {
                        // The quad turns with the map: keep the centres inside it.
                        let dy = (Double(j) + 0.5) * sy - c.y
                        for i in i0...i1 {
                            let dx = (Double(i) + 0.5) * sx - c.x
                            guard abs(dx * ax.x + dy * ax.y) < half, abs(dx * ay.x + dy * ay.y) < half else { continue }
                            d[row + i] += Float(gy * gx[i])
                        }
                    } else {
                        for i in i0...i1 { d[row + i] += Float(gy * gx[i]) }
                    }
                }
            }
        }
    }

    /// The ramp read linearly at `steps` points per texel, times `opacity`, premultiplied.
    private func makeFine(_ ramp: HeatmapRamp, _ opacity: Double) {
        guard ramp !== fineRamp || opacity != fineOpacity else { return }
        fineRamp = ramp; fineOpacity = opacity
        let n = HeatmapRamp.size, steps = Self.steps
        fine = [UInt32](repeating: 0, count: (n - 1) * steps + 1)
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
    private func colour(_ t: RenderTarget, sx: Double, sy: Double) {
        let width = t.width, cols = columns
        if left.count < width {
            left = [Int32](repeating: 0, count: width); right = left; rightWeight = left
        }
        for x in 0..<width {
            let u = (Double(x) + 0.5) / sx - 0.5
            let i = Int(u.rounded(.down))
            left[x] = Int32(min(max(i, 0), cols - 1))
            right[x] = Int32(min(max(i + 1, 0), cols - 1))
            rightWeight[x] = Int32(((u - Double(i)) * 256).rounded())
        }
        let steps = Double(Self.steps), top = fine.count - 1
        let emptyColour = fine[0]
        let buf = t.pixmap.buffer
        density.withUnsafeBufferPointer { d in
            for y in t.rows {
                let v = (Double(y) + 0.5) / sy - 0.5
                let jf = Int(v.rounded(.down))
                let ja = min(max(jf, 0), rows - 1), jb = min(max(jf + 1, 0), rows - 1)
                // Where the density is zero and so is the ramp's first colour, nothing to draw:
                // only the pixels that read a column some kernel reached in either row.
                var xs = 0..<width
                if emptyColour == 0 {
                    let first = min(rowFirst[ja], rowFirst[jb]), last = max(rowLast[ja], rowLast[jb])
                    let lower = max(Int((Double(first - 1) * sx).rounded(.down)), 0)
                    let upper = min(Int((Double(last + 2) * sx).rounded(.up)), width)
                    if first > last || lower >= upper { continue }
                    xs = lower..<upper
                }
                let fy = Float(v - Double(jf))
                let ra = ja * cols, rb = jb * cols
                let line = y * width
                for x in xs {
                    let l = Int(left[x]), r = Int(right[x])
                    let fx = Float(rightWeight[x]) / 256
                    let da = d[ra + l] + (d[ra + r] - d[ra + l]) * fx
                    let db = d[rb + l] + (d[rb + r] - d[rb + l]) * fx
                    let density = Double(da + (db - da) * fy)
                    // Texel space of the 256-entry ramp, clamped at its ends.
                    let p = density * Double(HeatmapRamp.size) - 0.5
                    let k = p > 0 ? (p < Double(HeatmapRamp.size - 1) ? Int(p * steps + 0.5) : top) : 0
                    let c = fine[k]
                    if c != 0 { buf[line + x] = Blend.over(c, buf[line + x]) }
                }
            }
        }
    }
}
