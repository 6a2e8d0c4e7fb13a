import Foundation
import MapCore
import Raster

/// Heatmaps on a pitched map. MapLibre lays each point's kernel quad on the ground, so a
/// pixel's density is the density at the ground it shows: the flat map's density, read
/// through the inverse of the ground's projection. The buffer covers the ground seen (its box
/// on the flat screen) a quarter of the flat screen's resolution each way, coarser when that
/// would exceed `maxCells`; each ground pixel reads it bilinearly.
extension HeatmapRenderLayer {
    /// The most buffer cells a pitched view's density takes (4 MB of floats).
    static let maxCells = 1 << 20

    func drawPitched(_ draw: HeatmapDraw, _ p: Placement, _ t: RenderTarget) {
        guard let ground = p.ground, let back = ground.homography.inverted() else { return }
        let rowsShown = p.groundRows(t)
        guard !rowsShown.isEmpty else { return }
        let w = p.cull.maxX - p.cull.minX, h = p.cull.maxY - p.cull.minY
        guard w > 0, h > 0, w.isFinite, h.isFinite else { return }
        var step = Double(Self.downscale)
        while (w / step) * (h / step) > Double(Self.maxCells) { step *= 2 }
        let cols = max(Int((w / step).rounded(.up)), 1), rws = max(Int((h / step).rounded(.up)), 1)
        guard var grid = prepare(cols, rws, sx: step, sy: step, 0...(rws - 1)) else { return }
        grid.origin = Point(p.cull.minX, p.cull.minY)
        accumulate(draw, p, grid)
        makeFine(draw.ramp, draw.opacity)
        let scale = Float(HeatmapRamp.size * Self.steps), offset = Float(Self.steps) / 2
        let top = fine.count - 1, topIndex = Float(top)
        let d = grid.density, dst = t.pixmap.pixels, width = t.width
        fine.withUnsafeBufferPointer { ramp in
            guard let colours = ramp.baseAddress else { return }
            for y in rowsShown {
                // Along a screen row the flat screen is reached affinely (a row is one depth).
                let py = Double(y) + 0.5
                let a = back.apply(0.5, py), b = back.apply(1.5, py)
                let du = (b.x - a.x) / step, dv = (b.y - a.y) / step
                var u = (a.x - grid.origin.x) / step - 0.5, v = (a.y - grid.origin.y) / step - 0.5
                let line = dst + y * width
                for x in 0..<width {
                    defer { u += du; v += dv }
                    let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                    guard i >= -1, j >= -1, i < cols, j < rws else { continue }
                    let fx = Float(u - Double(i)), fy = Float(v - Double(j))
                    let i0 = max(i, 0), i1 = min(i + 1, cols - 1), j0 = max(j, 0), j1 = min(j + 1, rws - 1)
                    let r0 = d + j0 * cols, r1 = d + j1 * cols
                    let top0 = r0[i0] + (r0[i1] - r0[i0]) * fx, bottom = r1[i0] + (r1[i1] - r1[i0]) * fx
                    let density = top0 + (bottom - top0) * fy
                    let q = density * scale - offset
                    let k = q > 0 ? (q < topIndex ? Int(q + 0.5) : top) : 0
                    let c = colours[k]
                    if c != 0 { line[x] = Blend.over(c, line[x]) }
                }
            }
        }
    }
}
