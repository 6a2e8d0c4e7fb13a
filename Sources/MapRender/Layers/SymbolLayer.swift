import Foundation
import MapCore
import Raster

/// Symbol layers: the symbols the placement kept, icons under the layer's labels. Sprite and SDF
/// icons are sampled through their turn; vector icons (style images drawn from paths) are
/// filled after their transform, or, upright, drawn at whole pixels from cached masks, as labels
/// are. Owns the placement of the frame's symbol layers and the icons' masks; labels come from
/// the renderer's `LabelSprites`.
final class SymbolRenderLayer: RenderLayer {
    /// A symbol layer's draw: where it is among the frame's layers (the frame's symbol layers
    /// are placed together), and the renderer's frame count (the label cache's clock).
    struct Draw {
        let index: Int
        let frame: FrameDescription
        let frameNumber: Int
    }

    /// The placement of all symbol layers, kept while the view and those layers stay the same.
    private(set) var placement = SymbolPlacement()
    /// Whether `placement` is made by someone else (a parallel renderer) for each frame.
    private var placementIsShared = false
    private let labels: LabelSprites
    /// Upright vector icons as coverage masks, by icon and scale (see `iconMasks`).
    private var iconMaskCache: [IconMaskKey: IconMasks] = [:]
    /// A vector icon's outline, rebuilt in a path kept between frames.
    private var iconPath = Path()

    init(labels: LabelSprites) { self.labels = labels }

    /// Reads the symbols from `placement`, which its owner places for each frame before drawing
    /// (several band renderers share one placement instead of each making its own).
    func usePlacement(_ placement: SymbolPlacement) {
        self.placement = placement
        placementIsShared = true
    }

    func draw(_ draw: Draw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        // All symbol layers are placed together, once per view and set of symbol layers.
        if !placementIsShared && !placement.isCurrent(for: draw.frame) { placement.place(draw.frame) }
        let symbols = placement.symbols(layer: draw.index)
        for symbol in symbols {
            switch symbol.icon {
            case var .sprite(p)?:
                p.opacity *= symbol.iconFade
                drawIcon(p, at: symbol.point, t, plane: symbol.iconPlane)
            case var .vector(p)?:
                p.opacity *= symbol.iconFade
                if p.rotate.truncatingRemainder(dividingBy: 360) == 0 && p.offset.x == 0 && p.offset.y == 0 && symbol.iconPlane == nil {
                    drawUprightVectorIcon(p, at: symbol.point, t)
                } else {
                    drawVectorIcon(p, at: symbol.point, t, &rasterizer, plane: symbol.iconPlane)
                }
            case nil: break
            }
        }
        // Text: halo masks under text masks, at whole pixels.
        let top = Double(t.rows.lowerBound), bottom = Double(t.rows.upperBound)
        let exact = draw.frame.layers[draw.index].symbols?.settled ?? true
        for symbol in symbols {
            guard let text = symbol.text, text.box.maxY >= top, text.box.minY <= bottom, text.text.paint.opacity > 0, text.fade > 0 else { continue }
            labels.draw(text, symbol: symbol.id, exact: exact, frame: draw.frameNumber, t)
        }
        if draw.frame.showsCollisionBoxes { drawCollisionBoxes(symbols, t) }
    }

    /// Each placed point label's collision box, outlined as MapLibre's collision debug draws it
    /// (`draw_collision_debug.ts`, `collision_box.fragment.glsl`): one-pixel lines round the box
    /// from its top left clockwise, blue at a quarter's opacity for a label shown.
    private func drawCollisionBoxes(_ symbols: [PlacedSymbol], _ t: RenderTarget) {
        let shown = RGBA8(0, 0, 255, 64).premultiplied.packed
        for symbol in symbols {
            guard let text = symbol.text, text.glyphs == nil else { continue }
            let b = text.box
            let corners = [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)]
            for k in 0..<4 {
                AliasedLine.draw(from: corners[k], to: corners[(k + 1) % 4], color: shown, into: t.pixmap, rows: t.rows)
            }
        }
    }

    /// An upright vector icon from its masks (one per shape, made once per icon and scale), its
    /// anchor on the nearest pixel centre: the same pixels wherever it is drawn, like the text beside it.
    private func drawUprightVectorIcon(_ paint: VectorIconPaint, at point: Point, _ t: RenderTarget) {
        guard paint.opacity > 0 else { return }
        let masks = iconMasks(paint)
        let x = Int((point.x - masks.centre).rounded()), y = Int((point.y - masks.centre).rounded())
        let light = paint.light, shapes = paint.icon.shapes
        func color(_ i: Int) -> PremultipliedColor {
            let c = shapes[i].color
            return MapCore.Color(r: c.r * light.r, g: c.g * light.g, b: c.b * light.b, a: c.a).premultiplied(opacity: paint.opacity)
        }
        // (Two shapes at a time in one pass: the same pixels as one after the other.)
        var i = 0
        while i < masks.shapes.count {
            if i + 1 < masks.shapes.count {
                AlphaMask.composite(masks.shapes[i], color(i), masks.shapes[i + 1], color(i + 1), onto: t.pixmap, x: x, y: y, rows: t.rows)
                i += 2
            } else {
                masks.shapes[i].composite(color(i), onto: t.pixmap, x: x, y: y, rows: t.rows)
                i += 1
            }
        }
    }

    /// A vector icon's shapes as coverage masks of one square size, its anchor `centre` px from
    /// their top-left corner (a pixel's centre).
    private func iconMasks(_ paint: VectorIconPaint) -> IconMasks {
        let key = IconMaskKey(icon: ObjectIdentifier(paint.icon), scale: paint.scale, anchor: paint.anchor)
        if let m = iconMaskCache[key] { return m }
        let icon = paint.icon
        let a = paint.anchor.fraction
        let t = Transform.scale(paint.scale, paint.scale).concatenating(.translation(-a.x * icon.width, -a.y * icon.height))
        // How far the shapes reach from the anchor (control points bound the curves).
        var outer = 0.0
        func reach(_ x: Double, _ y: Double, _ r: Double = 0) {
            let p = t.apply(Point(x, y))
            outer = max(outer, abs(p.x) + r * paint.scale, abs(p.y) + r * paint.scale)
        }
        for shape in icon.shapes {
            for c in shape.commands {
                switch c {
                case let .move(x, y), let .line(x, y): reach(x, y)
                case let .cubic(x1, y1, x2, y2, x, y): reach(x1, y1); reach(x2, y2); reach(x, y)
                case let .quad(x1, y1, x, y): reach(x1, y1); reach(x, y)
                case let .circle(x, y, r): reach(x, y, r)
                case .close: break
                }
            }
        }
        outer = min(outer, 256)
        let size = Int((2 * outer).rounded(.up)) + 3
        let centre = Double(size / 2) + 0.5
        var r = Rasterizer(width: size, height: size)
        let place = Transform.translation(centre, centre).concatenating(t)
        var path = Path()
        var shapes: [AlphaMask] = []
        for shape in icon.shapes {
            path.removeAll()
            VectorIconPath.append(shape, place, scale: paint.scale, to: &path)
            path.replay(into: &r)
            var alpha = [UInt8](repeating: 0, count: size * size)
            alpha.withUnsafeMutableBufferPointer { if let m = $0.baseAddress { r.fill(mask: m, rule: .nonZero) } }
            shapes.append(AlphaMask(width: size, height: size, alpha: alpha))
        }
        let masks = IconMasks(shapes: shapes, centre: centre)
        if iconMaskCache.count >= 64 { iconMaskCache.removeAll() }
        iconMaskCache[key] = masks
        return masks
    }

    /// An icon: its image placed by the anchor and offset (or laid over its fitted box, slice
    /// by slice), turned about its point, sampled exactly or bilinearly; an SDF icon shaded by
    /// its distance field (halo, then colour). `plane`: an icon lying in a pitched map's plane,
    /// how that plane looks on screen at it (x' = a x + b y, y' = c x + d y, after the turn).
    private func drawIcon(_ paint: IconPaint, at point: Point, _ t: RenderTarget, plane: SIMD4<Double>? = nil) {
        let image = paint.icon.image
        guard paint.opacity > 0 else { return }
        let s = paint.scale
        let f = paint.anchor.fraction
        // Icon-space box relative to the point, before rotation.
        let slices = paint.slices
        let box = slices?.box ?? FrameDescription.ScreenBox(minX: -Double(image.width) * s * f.x + paint.offset.x,
                                                            minY: -Double(image.height) * s * f.y + paint.offset.y,
                                                            maxX: Double(image.width) * s * (1 - f.x) + paint.offset.x,
                                                            maxY: Double(image.height) * s * (1 - f.y) + paint.offset.y)
        let left = box.minX, top = box.minY
        let angle = paint.rotate * Double.pi / 180
        let cosA = cos(angle), sinA = sin(angle)
        // Screen pixels back into the icon's frame: the turn undone (and the plane's map first).
        var m00 = cosA, m01 = sinA, m10 = -sinA, m11 = cosA
        if let m = plane {
            let det = m[0] * m[3] - m[1] * m[2]
            guard det != 0, det.isFinite else { return }
            let i00 = m[3] / det, i01 = -m[1] / det, i10 = -m[2] / det, i11 = m[0] / det
            (m00, m01, m10, m11) = (cosA * i00 + sinA * i10, cosA * i01 + sinA * i11, -sinA * i00 + cosA * i10, -sinA * i01 + cosA * i11)
        }
        // Screen bounds of the rotated box.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (u, v) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            var rx = u * cosA - v * sinA, ry = u * sinA + v * cosA
            if let m = plane { (rx, ry) = (m[0] * rx + m[1] * ry, m[2] * rx + m[3] * ry) }
            let x = point.x + rx, y = point.y + ry
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard let xs = pixelSpan(minX, maxX, in: 0..<t.pixmap.width), let ys = pixelSpan(minY, maxY, in: t.rows) else { return }
        let buf = t.pixmap.buffer
        let src = image.buffer
        let iw = image.width, ih = image.height
        // SDF shading (the reference engines' symbol shader: buffer 0.75, edge gamma 0.105 / ratio).
        let gamma = 0.105 / paint.pixelRatio / max(paint.size, 1e-6)
        let haloGamma = (paint.haloBlur / paint.pixelRatio * 1.19 / 8 + 0.105 / paint.pixelRatio) / max(paint.size, 1e-6)
        let haloBuffer = (6 - paint.haloWidth / paint.pixelRatio / max(paint.size, 1e-6)) / 8
        let fillColor = premultipliedFloats(paint.color, paint.opacity)
        let haloColor = premultipliedFloats(paint.haloColor, paint.opacity)
        for y in ys {
            for x in xs {
                // Screen pixel centre back into image pixels.
                let dx = Double(x) + 0.5 - point.x, dy = Double(y) + 0.5 - point.y
                let lx = m00 * dx + m01 * dy, ly = m10 * dx + m11 * dy
                let u: Double, v: Double
                if let slices {
                    // (A fitted icon's cuts reach into the transparent pixel around the image,
                    // which bilinear sampling fades its edges into, as MapLibre's atlas padding.)
                    guard let su = IconSlices.image(at: lx, slices.x), let sv = IconSlices.image(at: ly, slices.y) else { continue }
                    u = su; v = sv
                    if !(paint.smooth || paint.icon.sdf) && !(u >= 0 && v >= 0 && u < Double(iw) && v < Double(ih)) { continue }
                } else {
                    u = (lx - left) / s; v = (ly - top) / s
                    guard u >= 0, v >= 0, u < Double(iw), v < Double(ih) else { continue }
                }
                let i = y * t.pixmap.width + x
                if paint.icon.sdf {
                    let d = Double(bilinear(src, iw, ih, u, v) >> 24) / 255
                    if paint.haloWidth > 0 && paint.haloColor.a > 0 {
                        let a = smoothstep(haloBuffer - haloGamma, haloBuffer + haloGamma, d)
                        if a > 0 { buf[i] = Blend.over(packPremultiplied(haloColor * a), buf[i]) }
                    }
                    let a = smoothstep(0.75 - gamma, 0.75 + gamma, d)
                    if a > 0 { buf[i] = Blend.over(packPremultiplied(fillColor * a), buf[i]) }
                } else {
                    var c = paint.smooth ? bilinear(src, iw, ih, u, v) : src[Int(v) * iw + Int(u)]
                    if paint.opacity < 1 { c = Blend.scale(c, UInt32((paint.opacity * 256).rounded())) }
                    if c >> 24 != 0 { buf[i] = Blend.over(c, buf[i]) }
                }
            }
        }
    }

    /// Bilinear sample of a premultiplied image at image coordinates (u, v) (pixel centres at +0.5).
    /// Outside the image is transparent, as the transparent padding around each icon in the
    /// reference engines' atlas is: edges fade over half a texel.
    private func bilinear(_ src: UnsafeMutableBufferPointer<UInt32>, _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> UInt32 {
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> UInt32 { x < 0 || y < 0 || x >= w || y >= h ? 0 : src[y * w + x] }
        var out: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            func ch(_ p: UInt32) -> Double { Double(p >> UInt32(shift) & 255) }
            let top = ch(at(x0, y0)) * (1 - tx) + ch(at(x0 + 1, y0)) * tx
            let bottom = ch(at(x0, y0 + 1)) * (1 - tx) + ch(at(x0 + 1, y0 + 1)) * tx
            out |= UInt32(min(255, max(0, (top * (1 - ty) + bottom * ty).rounded()))) << UInt32(shift)
        }
        return out
    }

    /// A vector icon at `point`: its shapes filled (non-zero) after scaling, moving its anchor
    /// to the point, shifting by the offset and turning by `rotate` about the point.
    private func drawVectorIcon(_ paint: VectorIconPaint, at point: Point, _ t: RenderTarget, _ rasterizer: inout Rasterizer,
                                plane: SIMD4<Double>? = nil) {
        let icon = paint.icon
        let reach = paint.reach
        guard paint.opacity > 0, point.x > -reach, point.x < Double(t.pixmap.width) + reach,
              point.y > Double(t.rows.lowerBound) - reach, point.y < Double(t.rows.upperBound) + reach else { return }
        let a = paint.anchor.fraction
        var place = Transform.translation(point.x, point.y)
        if let m = plane { place = place.concatenating(Transform(a: m[0], b: m[2], c: m[1], d: m[3], tx: 0, ty: 0)) }
        place = place.concatenating(.rotation(paint.rotate * Double.pi / 180))
        if paint.offset.x != 0 || paint.offset.y != 0 { place = place.concatenating(.translation(paint.offset.x, paint.offset.y)) }
        place = place.concatenating(.scale(paint.scale, paint.scale)).concatenating(.translation(-a.x * icon.width, -a.y * icon.height))
        // The icon's outline is rebuilt in a path kept between frames.
        var path = Path()
        swap(&path, &iconPath)
        defer { swap(&path, &iconPath) }
        for shape in icon.shapes {
            path.removeAll()
            VectorIconPath.append(shape, place, scale: paint.scale, to: &path)
            path.replay(into: &rasterizer)
            let c = shape.color, light = paint.light
            let lit = MapCore.Color(r: c.r * light.r, g: c.g * light.g, b: c.b * light.b, a: c.a)
            rasterizer.fill(t.pixmap, color: lit.premultiplied(opacity: paint.opacity), rule: .nonZero)
        }
    }
}

/// A vector icon's shape as a path, through `t` (a uniform `scale` times a move and turn).
enum VectorIconPath {
    static func append(_ shape: VectorIcon.Shape, _ t: Transform, scale: Double, to path: inout Path) {
        for c in shape.commands {
            switch c {
            case let .move(x, y): path.moveTo(t.apply(Point(x, y)))
            case let .line(x, y): path.lineTo(t.apply(Point(x, y)))
            case let .cubic(x1, y1, x2, y2, x, y):
                path.cubicTo(t.apply(Point(x1, y1)), t.apply(Point(x2, y2)), t.apply(Point(x, y)))
            case let .quad(x1, y1, x, y): path.quadTo(t.apply(Point(x1, y1)), t.apply(Point(x, y)))
            case let .circle(x, y, r): path.addCircle(center: t.apply(Point(x, y)), radius: r * scale)
            case .close: path.close()
            }
        }
    }
}

struct IconMaskKey: Hashable {
    let icon: ObjectIdentifier
    let scale: Double
    let anchor: IconAnchor
}

/// An upright vector icon's masks (see `FrameRenderer.iconMasks`).
struct IconMasks {
    let shapes: [AlphaMask]
    let centre: Double
}
