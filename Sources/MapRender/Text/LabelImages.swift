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
        // Each image's quad on screen: its padded rectangle and one image pixel's steps along
        // its axes (turned), in pixels relative to the anchor.
        var quads: [(quad: LabelQuad, image: ImageInText, color: UInt32)] = []
        for g in shaped.glyphs {
            guard let image = g.image else { continue }
            let step = fontScale * g.scale / image.icon.pixelRatio
            let pad = ImageInText.padding / image.icon.pixelRatio
            let x0 = fontScale * (g.x + (g.glyph.left - pad) * g.scale), y0 = fontScale * (g.y + (-g.glyph.top - pad) * g.scale)
            let quad = LabelQuad(corner: (x0, y0), u: (step, 0), v: (0, step), columns: Double(image.icon.image.width + 2),
                                 rows: Double(image.icon.image.height + 2), cos: cosA, sin: sinA, phase: (phaseX, phaseY))
            quads.append((quad, image, color(g.section)))
        }
        guard let grid = LabelQuad.grid(quads.map(\.quad)) else {
            x = 0; y = 0; width = 0; height = 0; pixels = []
            return
        }
        let (left, top, width, height) = grid
        var pixels = [UInt32](repeating: 0, count: width * height)
        let gamma = 0.105 / fontScale
        let alpha = UInt32((min(max(opacity, 0), 1) * 256).rounded())
        for (quad, image, color) in quads {
            let src = image.icon.image
            quad.forEachPixel(left: left, top: top, width: width, height: height) { i, tu, tv in
                var p = Self.bilinear(src, tu - 1, tv - 1)
                if image.icon.sdf {
                    let d = Double(p >> 24) / 255
                    let fill = smoothstep(0.75 - gamma, 0.75 + gamma, d)
                    p = Blend.scale(color, UInt32((fill * 256).rounded()))
                } else if alpha < 256 {
                    p = Blend.scale(p, alpha)
                }
                guard p != 0 else { return }
                pixels[i] = Blend.over(p, pixels[i])
            }
        }
        x = left; y = top; self.width = width; self.height = height; self.pixels = pixels
    }

    /// Source-over onto `pixmap`, the top-left at (x, y), clipped to `rows`, every pixel scaled
    /// by `alpha` (0...256) first.
    func composite(onto pixmap: Pixmap, x: Int, y: Int, rows: Range<Int>, alpha: UInt32 = 256) {
        let y0 = max(y, rows.lowerBound), y1 = min(y + height, rows.upperBound)
        let x0 = max(x, 0), x1 = min(x + width, pixmap.width)
        guard y0 < y1, x0 < x1 else { return }
        for py in y0..<y1 {
            let row = (py - y) * width - x, dst = pixmap.pixels + py * pixmap.width
            for px in x0..<x1 {
                var p = pixels[row + px]
                guard p != 0 else { continue }
                if alpha < 256 { p = Blend.scale(p, alpha) }
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
