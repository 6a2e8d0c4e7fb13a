/// One quad of a label on screen (a glyph's field or an image in the text): the corner of its
/// padded rectangle and one texel's steps along its two axes, in pixels relative to the pixel
/// whose top-left corner is the label's anchor, `columns` × `rows` texels.
struct LabelQuad {
    let ox: Double, oy: Double, ux: Double, uy: Double, vx: Double, vy: Double
    let columns: Double, rows: Double

    /// The quad whose unturned corner is `corner` with texel steps `u` and `v`, turned about the
    /// anchor by the angle of (`cos`, `sin`) and moved by the anchor's `phase` in its pixel.
    init(corner: (x: Double, y: Double), u: (x: Double, y: Double), v: (x: Double, y: Double), columns: Double, rows: Double,
         cos c: Double, sin s: Double, phase: (x: Double, y: Double)) {
        ox = corner.x * c - corner.y * s + phase.x; oy = corner.x * s + corner.y * c + phase.y
        ux = u.x * c - u.y * s; uy = u.x * s + u.y * c
        vx = v.x * c - v.y * s; vy = v.x * s + v.y * c
        self.columns = columns; self.rows = rows
    }

    var corners: [(x: Double, y: Double)] {
        [(ox, oy), (ox + ux * columns, oy + uy * columns), (ox + vx * rows, oy + vy * rows),
         (ox + ux * columns + vx * rows, oy + uy * columns + vy * rows)]
    }

    /// The pixel grid holding every quad, relative to the anchor's pixel; nil when there is none
    /// or it is absurdly large (over 8192 px on a side).
    static func grid(_ quads: [LabelQuad]) -> (left: Int, top: Int, width: Int, height: Int)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for q in quads {
            for (cx, cy) in q.corners { minX = min(minX, cx); maxX = max(maxX, cx); minY = min(minY, cy); maxY = max(maxY, cy) }
        }
        guard !quads.isEmpty, minX.isFinite, maxX - minX < 8192, maxY - minY < 8192 else { return nil }
        let left = Int(minX.rounded(.down)), top = Int(minY.rounded(.down))
        return (left, top, Int(maxX.rounded(.up)) - left, Int(maxY.rounded(.up)) - top)
    }

    /// Calls `body` with the index of each pixel of the `width` × `height` grid at (`left`,
    /// `top`) whose centre lies inside the quad (the pixels a GPU rasterizes for it), and that
    /// centre in the quad's texels.
    @inline(__always)
    func forEachPixel(left: Int, top: Int, width: Int, height: Int, _ body: (_ index: Int, _ tu: Double, _ tv: Double) -> Void) {
        let det = ux * vy - uy * vx
        guard det != 0 else { return }
        let cs = corners
        let xs = cs.map(\.x), ys = cs.map(\.y)
        guard let qminX = xs.min(), let qmaxX = xs.max(), let qminY = ys.min(), let qmaxY = ys.max() else { return }
        let px0 = max(Int((qminX - 0.5).rounded(.down)) - left, 0), px1 = min(Int((qmaxX - 0.5).rounded(.up)) - left, width - 1)
        let py0 = max(Int((qminY - 0.5).rounded(.down)) - top, 0), py1 = min(Int((qmaxY - 0.5).rounded(.up)) - top, height - 1)
        guard px0 <= px1, py0 <= py1 else { return }
        // (One division for the quad: every pixel of a label's glyphs is visited.)
        let perDet = 1 / det
        for py in py0...py1 {
            let sy = Double(py + top) + 0.5 - oy
            let syvx = sy * vx, uxsy = ux * sy
            for px in px0...px1 {
                let sx = Double(px + left) + 0.5 - ox
                let tu = (sx * vy - syvx) * perDet, tv = (uxsy - uy * sx) * perDet
                guard tu >= 0, tv >= 0, tu < columns, tv < rows else { continue }
                body(py * width + px, tu, tv)
            }
        }
    }
}

extension LabelQuad {
    /// The quad as a label lying in a pitched map's plane shows it: its place relative to the
    /// anchor and its texel steps through the linear map `m` (x' = a x + b y, y' = c x + d y),
    /// the anchor's `phase` in its pixel kept, then moved by `offset` (a glyph's place along a
    /// line, projected on its own).
    func mapped(by m: SIMD4<Double>, phase: (x: Double, y: Double), offset: (x: Double, y: Double) = (0, 0)) -> LabelQuad {
        func map(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (m[0] * x + m[1] * y, m[2] * x + m[3] * y) }
        let o = map(ox - phase.x, oy - phase.y), u = map(ux, uy), v = map(vx, vy)
        return LabelQuad(corner: (o.x + offset.x, o.y + offset.y), u: u, v: v, columns: columns, rows: rows, cos: 1, sin: 0, phase: phase)
    }
}
