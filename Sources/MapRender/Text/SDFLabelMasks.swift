import Foundation
import MapCore
import Raster

/// A shaped label drawn from its glyphs' distance fields into coverage masks, shaded as
/// MapLibre's SDF text shader shades them: each glyph a quad over its field (grown by the
/// atlas' 1-px padding), sampled bilinearly, the fill's edge at 0.75 with a gamma of
/// 0.105 / (size / 24), the halo hollow under the glyph, quads of one pass blended over each
/// other. The halo mask goes under the fill masks, one fill mask per colour of the label's
/// sections. Lengths are device pixels; the masks' pixels are placed relative to the pixel
/// whose top-left corner is the label's anchor.
struct SDFLabelMasks {
    /// The masks' top-left pixel, relative to the anchor's pixel.
    let x: Int, y: Int
    let halo: AlphaMask
    /// One per colour group (see `groups`).
    let fills: [AlphaMask]

    /// What shades a label: its size in device pixels, its halo's width and blur in device
    /// pixels, its turn (radians, clockwise on screen, about the anchor) and where the anchor
    /// lies within its pixel (in eighths of a pixel from the pixel's top-left corner: labels
    /// are drawn where MapLibre draws them, not snapped to whole pixels).
    struct Shading: Hashable {
        var size: Double
        var haloWidth: Double
        var haloBlur: Double
        var rotation: Double
        var phaseX: Int = 0, phaseY: Int = 0
        /// A label lying in a pitched map's plane: how that plane looks on screen at it (see
        /// `LabelQuad.mapped`), applied to each glyph's quad about the anchor (nil: none).
        var plane: SIMD4<Double>? = nil
        /// Its edges' gamma x this (a label in a pitched map's plane; 1 otherwise).
        var gammaScale: Double = 1
        static let phases = 8
    }

    /// The label's masks; `group(section)` says which fill mask a section's glyphs go to (of
    /// `groups` masks). `glyphsDrawn` counts the glyph quads shaded (the benchmark reads it).
    /// `poses`: for a label laid along its line, each glyph's place and turn relative to the
    /// anchor (one per glyph of `shaped`, in order): each glyph's quad is centred there on its
    /// advance and turned about it, as MapLibre draws glyphs along lines (`s.rotation` unused).
    init(_ shaped: ShapedText, _ s: Shading, poses: [GlyphPose]? = nil, groups: Int, group: (Int) -> Int, glyphsDrawn: inout Int) {
        let fontScale = s.size / SDFGlyph.em
        let cosA = cos(s.rotation), sinA = sin(s.rotation)
        let phaseX = Double(s.phaseX) / Double(Shading.phases), phaseY = Double(s.phaseY) / Double(Shading.phases)
        // Each glyph's quad: its corner and axes on screen (relative to the anchor), in pixels.
        var quads: [(quad: LabelQuad, glyph: SDFGlyph, group: Int)] = []
        quads.reserveCapacity(shaped.glyphs.count)
        let pad = Double(SDFGlyph.border + 1)
        for (k, g) in shaped.glyphs.enumerated() where !g.glyph.bitmap.isEmpty {
            let texel = fontScale * g.scale
            let columns = Double(g.glyph.width + 2 * SDFGlyph.border + 2), rows = Double(g.glyph.height + 2 * SDFGlyph.border + 2)
            if let poses {
                guard k < poses.count else { break }
                // Along a line: the quad around the glyph's centre on its advance, its baseline
                // offset kept, turned with the line there.
                let p = poses[k], c = cos(p.angle), sn = sin(p.angle)
                let half = g.glyph.advance * g.scale / 2
                let ux = (g.glyph.left - pad) * g.scale - half, vy = (-g.glyph.top - pad) * g.scale
                var cx = fontScale * ux, cy = fontScale * (g.y + vy)
                var u = (x: texel, y: 0.0), v = (x: 0.0, y: texel)
                if g.vertical {
                    // An upright glyph of a vertical label along a line, turned −90° as quads.ts
                    // turns it (about (−h, h + 17), then moved by (10 + h, 0)); its line offset after.
                    cx = fontScale * (vy - half - 7); cy = fontScale * (17 - ux + g.y)
                    u = (0, -texel); v = (texel, 0)
                }
                var quad = LabelQuad(corner: (p.x + cx * c - cy * sn, p.y + cx * sn + cy * c), u: (u.x * c - u.y * sn, u.x * sn + u.y * c),
                                     v: (v.x * c - v.y * sn, v.x * sn + v.y * c), columns: columns, rows: rows, cos: 1, sin: 0, phase: (phaseX, phaseY))
                if let m = s.plane {
                    // (In a pitched map's plane: the glyph's shape through the plane's slope, its place as projected.)
                    let local = LabelQuad(corner: (cx * c - cy * sn, cx * sn + cy * c), u: (u.x * c - u.y * sn, u.x * sn + u.y * c),
                                          v: (v.x * c - v.y * sn, v.x * sn + v.y * c), columns: columns, rows: rows, cos: 1, sin: 0, phase: (phaseX, phaseY))
                    quad = local.mapped(by: m, phase: (phaseX, phaseY), offset: (p.x, p.y))
                }
                quads.append((quad, g.glyph, group(g.section)))
                continue
            }
            // The quad's top-left corner and its edges before any turn (layout units → pixels).
            var x0 = fontScale * (g.x + (g.glyph.left - pad) * g.scale), y0 = fontScale * (g.y + (-g.glyph.top - pad) * g.scale)
            var u = (x: texel, y: 0.0), v = (x: 0.0, y: texel)
            if g.vertical {
                // An upright glyph of vertical text is turned −90° as MapLibre's `quads.ts`
                // turns it: what would be drawn at (x + u, y + v) goes to (x + v − 7, y + 17 + h − u),
                // h half its advance (see `PositionedGlyph`).
                let half = g.glyph.advance * g.scale / 2
                let u0 = (g.glyph.left - pad) * g.scale, v0 = (-g.glyph.top - pad) * g.scale
                (x0, y0) = (fontScale * (g.x + v0 - 7), fontScale * (g.y + 17 + half - u0))
                u = (0, -texel); v = (texel, 0)
            }
            // text-rotate (and a label turned with the map): about the anchor. The field plus the
            // atlas' 1-px padding on each side.
            let quad = LabelQuad(corner: (x0, y0), u: u, v: v, columns: columns, rows: rows, cos: cosA, sin: sinA, phase: (phaseX, phaseY))
            quads.append((quad, g.glyph, group(g.section)))
        }
        if let m = s.plane, poses == nil {
            for i in quads.indices { quads[i].quad = quads[i].quad.mapped(by: m, phase: (phaseX, phaseY)) }
        }
        guard let grid = LabelQuad.grid(quads.map(\.quad)) else {
            x = 0; y = 0
            halo = AlphaMask(width: 0, height: 0, alpha: [])
            fills = Array(repeating: AlphaMask(width: 0, height: 0, alpha: []), count: groups)
            return
        }
        let (left, top, width, height) = grid
        x = left; y = top
        // Coverage in floats while quads are blended over each other, then 8 bits; the fill
        // groups one after another in `fillCover`.
        let area = width * height
        var haloCover = [Float](repeating: 0, count: s.haloWidth > 0 ? area : 0)
        var fillCover = [Float](repeating: 0, count: groups * area)
        let gamma = 0.105 / fontScale * s.gammaScale
        let haloGamma = (s.haloBlur * 1.19 / 8 + 0.105) / fontScale * s.gammaScale
        let haloEdge = (6 - s.haloWidth / fontScale) / 8
        let inner = 0.75
        let hasHalo = !haloCover.isEmpty
        // (Each smoothstep's lower edge and 1 / width, once; a sample at or below every lower
        // edge shades nothing: most of a glyph's quad.)
        let fillFrom = inner - gamma, fillSpan = 1 / (2 * gamma)
        let hollowSpan = 1 / (2 * haloGamma)
        let haloFrom = haloEdge - haloGamma, haloSpan = 1 / (2 * haloGamma)
        let nothingBelow = hasHalo ? min(fillFrom, haloFrom) : fillFrom
        haloCover.withUnsafeMutableBufferPointer { haloCover in
          fillCover.withUnsafeMutableBufferPointer { fillCover in
            for (quad, glyph, group) in quads {
                glyphsDrawn += 1
                let bw = glyph.width + 2 * SDFGlyph.border, bh = glyph.height + 2 * SDFGlyph.border
                let groupCover = fillCover.baseAddress.map { $0 + group * area }
                glyph.bitmap.withUnsafeBufferPointer { field in
                    @inline(__always) func distance(_ bx: Double, _ by: Double) -> Double {
                        // Bilinear, texel centres at +0.5, nothing outside the field (the atlas' padding).
                        // (Floors by truncation: `rounded(.down)` calls the C library here.)
                        let fx = bx - 0.5, fy = by - 0.5
                        var ix = Int(fx), iy = Int(fy)
                        if Double(ix) > fx { ix -= 1 }
                        if Double(iy) > fy { iy -= 1 }
                        let tx = fx - Double(ix), ty = fy - Double(iy)
                        let s00: Double, s10: Double, s01: Double, s11: Double
                        if ix >= 0 && iy >= 0 && ix + 1 < bw && iy + 1 < bh {
                            let k = iy * bw + ix
                            s00 = Double(field[k]); s10 = Double(field[k + 1]); s01 = Double(field[k + bw]); s11 = Double(field[k + bw + 1])
                        } else {
                            func at(_ x: Int, _ y: Int) -> Double { x < 0 || y < 0 || x >= bw || y >= bh ? 0 : Double(field[y * bw + x]) }
                            s00 = at(ix, iy); s10 = at(ix + 1, iy); s01 = at(ix, iy + 1); s11 = at(ix + 1, iy + 1)
                        }
                        let a = s00 + (s10 - s00) * tx
                        let b = s01 + (s11 - s01) * tx
                        return (a + (b - a) * ty) / 255
                    }
                    quad.forEachPixel(left: left, top: top, width: width, height: height) { i, tu, tv in
                        let d = distance(tu - 1, tv - 1)
                        guard d > nothingBelow else { return }
                        let fill = Float(smoothstep01((d - fillFrom) * fillSpan))
                        if fill > 0, let g = groupCover { g[i] += fill * (1 - g[i]) }
                        if hasHalo {
                            let hollow = 1 - smoothstep01((d - inner) * hollowSpan)
                            let a = Float(min(smoothstep01((d - haloFrom) * haloSpan), hollow))
                            if a > 0 { haloCover[i] += a * (1 - haloCover[i]) }
                        }
                    }
                }
            }
          }
        }
        // (Rounded as `rounded()` rounds a value in 0...255, half away from zero: + 0.5, exact
        // in a Double, then truncated: the bits of y + 2^52 hold y rounded to the nearest, one
        // less where that lies above y; no conversion to check.)
        func bytes(_ cover: ArraySlice<Float>) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: cover.count) { out, count in
                cover.withUnsafeBufferPointer { cover in
                    for i in cover.indices {
                        let y = Double(min(max(cover[i] * 255, 0), 255)) + 0.5, m = y + 0x1p52
                        out[i] = UInt8(truncatingIfNeeded: m.bitPattern) &- (m - 0x1p52 > y ? 1 : 0)
                    }
                }
                count = cover.count
            }
        }
        halo = AlphaMask(width: width, height: height, alpha: hasHalo ? bytes(haloCover[...]) : [UInt8](repeating: 0, count: area))
        fills = (0..<groups).map { AlphaMask(width: width, height: height, alpha: bytes(fillCover[$0 * area..<($0 + 1) * area])) }
    }
}
