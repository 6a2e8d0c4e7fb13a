import Foundation

private typealias P = SymbolPaintProperty
private typealias L = SymbolLayoutProperty

/// A symbol layer's feature's icon and label, evaluated for its context: the image or text,
/// its paint (lengths in device pixels, colours lit), its box and how it collides.
extension StyledLayer {
    /// An icon being evaluated: the image and how it collides, and its length along a line.
    struct PendingIcon {
        var icon: SymbolSet.Icon
        /// CSS pixels (anchors along lines are spaced by it).
        var length: Double
        /// The icon turned by `angle` more degrees (an anchor along a line).
        func turned(by angle: Double) -> PendingIcon {
            guard angle != 0 else { return self }
            var copy = self
            switch icon.image {
            case var .sprite(p): p.rotate = degrees(p.rotate + angle); p.smooth = true; copy.icon = .init(image: .sprite(p), box: icon.box, collision: icon.collision)
            case var .vector(p): p.rotate = degrees(p.rotate + angle); copy.icon = .init(image: .vector(p), box: icon.box, collision: icon.collision)
            }
            return copy
        }
    }

    /// The feature's icon (`icon-image` from the sprite, else a vector image of that name), or nil.
    func icon(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> PendingIcon? {
        let name = string(L.iconImage, c)
        guard !name.isEmpty else { return nil }
        let alignment = string(L.iconRotationAlignment, c)
        let rotatesWithMap = alignment == "map" || (alignment == "auto" && string(L.placement, c) != "point")
        let anchor = IconAnchor(rawValue: string(L.iconAnchor, c)) ?? .center
        let off = pair(L.iconOffset, c)
        let collision = SymbolSet.Collision(padding: e.length(padding(L.iconPadding, c) * e.pixelRatio),
                                            allowOverlap: layout(L.iconAllowOverlap, c) == .bool(true),
                                            ignorePlacement: layout(L.iconIgnorePlacement, c) == .bool(true),
                                            optional: layout(L.iconOptional, c) == .bool(true))
        func box(_ w: Double, _ h: Double, _ offset: (x: Double, y: Double)) -> FrameDescription.ScreenBox {
            let f = anchor.fraction
            return .init(minX: offset.x - w * f.x, minY: offset.y - h * f.y, maxX: offset.x + w * (1 - f.x), maxY: offset.y + h * (1 - f.y))
        }
        if style.sprite?.icons[name] == nil, let vector = style.icons[name] {
            let size = number(L.iconSize, c)
            var p = VectorIconPaint(icon: vector, scale: size * e.pixelRatio)
            guard p.scale > 0 else { return nil }
            let side = max(vector.width, vector.height, 1e-9)
            if !(p.scale * side <= e.lengthLimit) { p.scale = e.lengthLimit / side }
            p.rotate = degrees(number(L.iconRotate, c))
            p.anchor = anchor
            p.rotatesWithMap = rotatesWithMap
            p.offset = (e.length(off.0 * p.scale), e.length(off.1 * p.scale))
            p.opacity = number(P.iconOpacity, c)
            p.light = Color.white.lit(by: e.light, emissive: number(P.iconEmissiveStrength, c))
            return PendingIcon(icon: .init(image: .vector(p), box: box(vector.width * p.scale, vector.height * p.scale, p.offset), collision: collision),
                               length: vector.width)
        }
        guard let sprite = style.sprite, let icon = sprite.icons[name] else { return nil }
        var size = number(L.iconSize, c)
        var p = IconPaint(icon: icon, scale: size * e.pixelRatio / icon.pixelRatio)
        guard p.scale > 0 else { return nil }
        // An icon larger than the length limit is drawn at the limit (an absurd icon-size or
        // sprite pixel ratio).
        let side = Double(max(icon.image.width, icon.image.height, 1))
        if !(p.scale * side <= e.lengthLimit) {
            p.scale = e.lengthLimit / side
            size = p.scale * icon.pixelRatio / e.pixelRatio
        }
        p.rotate = degrees(number(L.iconRotate, c))
        p.anchor = anchor
        p.rotatesWithMap = rotatesWithMap
        p.size = size
        p.pixelRatio = e.pixelRatio
        p.offset = (e.length(off.0 * size * e.pixelRatio), e.length(off.1 * size * e.pixelRatio))
        p.opacity = number(P.iconOpacity, c)
        let emissive = number(P.iconEmissiveStrength, c)
        p.color = color(P.iconColor, c).lit(by: e.light, emissive: emissive)
        p.haloColor = color(P.iconHaloColor, c).lit(by: e.light, emissive: emissive)
        p.haloWidth = e.length(number(P.iconHaloWidth, c) * e.pixelRatio)
        p.haloBlur = e.length(number(P.iconHaloBlur, c) * e.pixelRatio)
        p.smooth = p.scale * icon.pixelRatio / e.pixelRatio != 1 || p.rotate.truncatingRemainder(dividingBy: 360) != 0 || icon.sdf
        let w = Double(icon.image.width) * p.scale, h = Double(icon.image.height) * p.scale
        return PendingIcon(icon: .init(image: .sprite(p), box: box(w, h, p.offset), collision: collision), length: icon.width)
    }

    /// The feature's label (`text-field`, transformed, set in the `text-font` at `text-size`), or
    /// nil when it has none or the style has no fonts.
    func text(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> SymbolSet.Text? {
        guard let fonts = style.fonts else { return nil }
        var text = layout(L.textField, c).asString ?? ""
        guard !text.isEmpty else { return nil }
        switch string(L.textTransform, c) {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        let stack: [String]
        if case let .array(names) = layout(L.textFont, c) { stack = names.compactMap(\.asString) } else { stack = [] }
        let font = fonts.font(stack)
        // (Glyphs are rasterized at this size: at most 256 px, as the reference engines' atlas.)
        let size = min(max(finite(number(L.textSize, c) * e.pixelRatio), 0), 256 * max(e.pixelRatio, 1))
        guard size > 0 else { return nil }
        let emissive = number(P.textEmissiveStrength, c)
        let paint = TextPaint(font: font, size: size,
                              color: color(P.textColor, c).lit(by: e.light, emissive: emissive),
                              haloColor: color(P.textHaloColor, c).lit(by: e.light, emissive: emissive),
                              haloWidth: min(max(finite(number(P.textHaloWidth, c) * e.pixelRatio), 0), size / 4 + 1),
                              letterSpacing: min(max(finite(number(L.textLetterSpacing, c)), -1), 10) * size,
                              opacity: number(P.textOpacity, c))
        let width = font.width(text, size: size, letterSpacing: paint.letterSpacing)
        let (ascent, descent) = font.metrics(size: size)
        // Where the text may go: each variable anchor with its radial offset (or `text-offset`
        // taken away from the anchor), else `text-anchor` with `text-offset` (or the radial one).
        let radial: Double? = isSet(L.textRadialOffset) ? max(finite(number(L.textRadialOffset, c)), 0) : nil
        let given = pair(L.textOffset, c)
        var positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))] = []
        func ems(_ v: (Double, Double)) -> (x: Double, y: Double) { (e.length(v.0 * size), e.length(v.1 * size)) }
        if case let .array(names) = layout(L.textVariableAnchor, c), !names.isEmpty {
            for name in names {
                guard let anchor = name.asString.flatMap(IconAnchor.init(rawValue:)) else { continue }
                let away = anchor.away
                let offset = radial.map { r in (away.x * r * (away.y == 0 || away.x == 0 ? 1 : 0.5.squareRoot()),
                                                away.y * r * (away.y == 0 || away.x == 0 ? 1 : 0.5.squareRoot())) }
                    ?? (away.x * abs(given.0), away.y * abs(given.1))
                positions.append((anchor, ems(offset)))
            }
        } else {
            let anchor = IconAnchor(rawValue: string(L.textAnchor, c)) ?? .center
            let away = anchor.away
            positions.append((anchor, ems(radial.map { (away.x * $0, away.y * $0) } ?? given)))
        }
        guard !positions.isEmpty else { return nil }
        let collision = SymbolSet.Collision(padding: e.length(number(L.textPadding, c) * e.pixelRatio),
                                            allowOverlap: layout(L.textAllowOverlap, c) == .bool(true),
                                            ignorePlacement: layout(L.textIgnorePlacement, c) == .bool(true),
                                            optional: layout(L.textOptional, c) == .bool(true))
        return SymbolSet.Text(text: text, paint: paint, width: width, ascent: ascent, descent: descent,
                              positions: positions, collision: collision)
    }

    /// `icon-padding`: one number, or the largest of [top, right, bottom, left] (boxes here grow
    /// the same on every side).
    private func padding(_ property: SymbolLayoutProperty, _ c: EvaluationContext) -> Double {
        let v = layout(property, c)
        if let n = v.asNumber { return max(finite(n), 0) }
        return max(finite((v.asNumbers ?? []).max() ?? 0), 0)
    }
}

extension IconAnchor {
    /// The direction from the anchor point to the box's centre (an offset "away" from the anchor
    /// moves the box this way): `left` puts the box to the right of its point.
    var away: (x: Double, y: Double) {
        let f = fraction
        return (f.x == 0.5 ? 0 : f.x == 0 ? 1 : -1, f.y == 0.5 ? 0 : f.y == 0 ? 1 : -1)
    }
}
