import Foundation
import MapCore
import Raster

/// The images inside a label's text (`format` image sections) drawn into one premultiplied
/// pixmap, placed as `SDFLabelMasks` places the label's masks (relative to the anchor's pixel,
/// at the same eighth-pixel phase, turned by the same rotation), to go over the label's text.
///
/// Each image's quad is MapLibre's (`quads.ts`): the image's pixels from (x + scale, y + 3·scale)
/// on, `scale / pixelRatio` layout units apart, grown by one image pixel of transparent padding
/// on every side, sampled bilinearly. As MapLibre's text-and-icon shader draws an image quad, a
/// plain image keeps its colours, scaled by `text-opacity`; an SDF image is shaded as an SDF
/// icon's fill in its section's text colour (which carries the opacity already).
struct LabelImages {
    /// The pixmap's top-left pixel, relative to the anchor's pixel.
    let x: Int, y: Int
    let width: Int, height: Int
    /// Premultiplied ARGB, row by row; empty when the label has no image in view.
    let pixels: [UInt32]

    /// The images of `shaped`, plain ones at `opacity`; `color(section)` is the premultiplied
    /// colour (opacity included) an SDF image of that section is filled with.
    init(_ shaped: ShapedText, _ s: SDFLabelMasks.Shading, opacity: Double, color: (Int) -> UInt32) {
        let fontScale = s.size / SDFGlyph.em
        let cosA = cos(s.rotation), sinA = sin(s.rotation)
        let phaseX = Double(s.phaseX) / Double(SDFLabelMasks.Shading.phases)
        let phaseY = Double(s.phaseY) / Double(SDFLabelMasks.Shading.phases)
        // Each image's quad on screen: the corner of its padded rectangle and one image pixel's
        // steps along its axes (turned), in pixels relative to the anchor.
        struct Quad { let image: ImageInText; let ox: Double, oy: Double, ux: Double, uy: Double, vx: Double, vy: Double; let color: UInt32 }
        var quads: [Quad] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for g in shaped.glyphs {
            guard let image = g.image else { continue }
            let step = fontScale * g.scale / image.icon.pixelRatio
            let pad = ImageInText.padding / image.icon.pixelRatio
            let x0 = fontScale * (g.x + (g.glyph.left - pad) * g.scale), y0 = fontScale * (g.y + (-g.glyph.top - pad) * g.scale)
            let ox = x0 * cosA - y0 * sinA + phaseX, oy = x0 * sinA + y0 * cosA + phaseY
            let q = Quad(image: image, ox: ox, oy: oy, ux: step * cosA, uy: step * sinA, vx: -step * sinA, vy: step * cosA,
                         color: color(g.section))
            let w = Double(image.icon.image.width + 2), h = Double(image.icon.image.height + 2)
            for (cx, cy) in [(ox, oy), (ox + q.ux * w, oy + q.uy * w), (ox + q.vx * h, oy + q.vy * h),
                             (ox + q.ux * w + q.vx * h, oy + q.uy * w + q.vy * h)] {
                minX = min(minX, cx); maxX = max(maxX, cx); minY = min(minY, cy); maxY = max(maxY, cy)
            }
            quads.append(q)
        }
        guard !quads.isEmpty, minX.isFinite, maxX - minX < 8192, maxY - minY < 8192 else {
            x = 0; y = 0; width = 0; height = 0; pixels = []
            return
        }
        let left = Int(minX.rounded(.down)), top = Int(minY.rounded(.down))
        let width = Int(maxX.rounded(.up)) - left, height = Int(maxY.rounded(.up)) - top
        var pixels = [UInt32](repeating: 0, count: width * height)
        let gamma = 0.105 / fontScale
        let alpha = UInt32((min(max(opacity, 0), 1) * 256).rounded())
        for q in quads {
            let det = q.ux * q.vy - q.uy * q.vx
            guard det != 0 else { continue }
            let src = q.image.icon.image
            let iw = src.width, ih = src.height
            let qw = Double(iw + 2), qh = Double(ih + 2)
            // The quad's pixel bounds within the pixmap.
            let xs = [q.ox, q.ox + q.ux * qw, q.ox + q.vx * qh, q.ox + q.ux * qw + q.vx * qh]
            let ys = [q.oy, q.oy + q.uy * qw, q.oy + q.vy * qh, q.oy + q.uy * qw + q.vy * qh]
            guard let qminX = xs.min(), let qmaxX = xs.max(), let qminY = ys.min(), let qmaxY = ys.max() else { continue }
            let px0 = max(Int(qminX.rounded(.down)) - left, 0), px1 = min(Int(qmaxX.rounded(.up)) - left, width - 1)
            let py0 = max(Int(qminY.rounded(.down)) - top, 0), py1 = min(Int(qmaxY.rounded(.up)) - top, height - 1)
            guard px0 <= px1, py0 <= py1 else { continue }
            for py in py0...py1 {
                let sy = Double(py + top) + 0.5 - q.oy
                for px in px0...px1 {
                    let sx = Double(px + left) + 0.5 - q.ox
                    // The pixel's centre in the quad's image pixels; only centres inside the quad are drawn.
                    let tu = (sx * q.vy - sy * q.vx) / det, tv = (q.ux * sy - q.uy * sx) / det
                    guard tu >= 0, tv >= 0, tu < qw, tv < qh else { continue }
                    var p = Self.bilinear(src, tu - 1, tv - 1)
                    if q.image.icon.sdf {
                        let d = Double(p >> 24) / 255
                        let fill = smoothstep(0.75 - gamma, 0.75 + gamma, d)
                        p = Blend.scale(q.color, UInt32((fill * 256).rounded()))
                    } else if alpha < 256 {
                        p = Blend.scale(p, alpha)
                    }
                    guard p != 0 else { continue }
                    let i = py * width + px
                    pixels[i] = Blend.over(p, pixels[i])
                }
            }
        }
        x = left; y = top; self.width = width; self.height = height; self.pixels = pixels
    }

    /// Source-over onto `pixmap`, the top-left at (x, y), clipped to `rows`.
    func composite(onto pixmap: Pixmap, x: Int, y: Int, rows: Range<Int>) {
        let y0 = max(y, rows.lowerBound), y1 = min(y + height, rows.upperBound)
        let x0 = max(x, 0), x1 = min(x + width, pixmap.width)
        guard y0 < y1, x0 < x1 else { return }
        for py in y0..<y1 {
            let row = (py - y) * width - x, dst = pixmap.pixels + py * pixmap.width
            for px in x0..<x1 {
                let p = pixels[row + px]
                guard p != 0 else { continue }
                dst[px] = Blend.over(p, dst[px])
            }
        }
    }

    /// Bytes held.
    var bytes: Int { pixels.count * 4 }

    /// `image` at (u, v) in its pixels, bilinearly, texel centres at +0.5, transparent outside
    /// (the atlas' padding).
    private static func bilinear(_ image: Pixmap, _ u: Double, _ v: Double) -> UInt32 {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> UInt32 { x < 0 || y < 0 || x >= image.width || y >= image.height ? 0 : image[x, y] }
        let a = at(x0, y0), b = at(x0 + 1, y0), c = at(x0, y0 + 1), d = at(x0 + 1, y0 + 1)
        var out: UInt32 = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            func ch(_ p: UInt32) -> Double { Double(p >> shift & 255) }
            let upper = ch(a) + (ch(b) - ch(a)) * tx, lower = ch(c) + (ch(d) - ch(c)) * tx
            out |= UInt32(min(255, max(0, (upper + (lower - upper) * ty).rounded()))) << shift
        }
        return out
    }
}
