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
        /// How the icon is fitted to the feature's text, once that is shaped (`icon-text-fit`).
        var fitting: IconFitting?
        /// The icon turned by `angle` more degrees (an anchor along a line).
        func turned(by angle: Double) -> PendingIcon {
            guard angle != 0 else { return self }
            var copy = self
            let image: SymbolSet.IconImage
            switch icon.image {
            case var .sprite(p): p.rotate = degrees(p.rotate + angle); p.smooth = true; image = .sprite(p)
            case var .vector(p): p.rotate = degrees(p.rotate + angle); image = .vector(p)
            }
            copy.icon = .init(image: image, box: icon.box, collision: icon.collision, followsText: icon.followsText, vertical: icon.vertical)
            copy.icon.pitchesWithMap = icon.pitchesWithMap
            return copy
        }
    }

    /// The feature's icon (`icon-image` from the sprite, else a vector image of that name), or nil.
    func icon(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> PendingIcon? {
        let name = string(L.iconImage, style.withImages(c))
        guard !name.isEmpty else { return nil }
        let alignment = string(L.iconRotationAlignment, c)
        let rotatesWithMap = alignment == "map" || (alignment == "auto" && string(L.placement, c) != "point")
        let pitch = string(L.iconPitchAlignment, c)
        let pitchesWithMap = pitch == "map" || (pitch == "auto" && rotatesWithMap)
        let anchor = IconAnchor(rawValue: string(L.iconAnchor, c)) ?? .center
        let off = pair(L.iconOffset, c)
        let collision = SymbolSet.Collision(padding: e.length(padding(L.iconPadding, c) * e.pixelRatio),
                                            overlap: overlap(L.iconOverlap, L.iconAllowOverlap, c),
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
            var pending = PendingIcon(icon: .init(image: .vector(p), box: box(vector.width * p.scale, vector.height * p.scale, p.offset), collision: collision),
                                      length: vector.width)
            pending.icon.pitchesWithMap = pitchesWithMap
            return pending
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
        // (Sampled as MapLibre's atlas is: bilinearly when scaled, drawn for another pixel
        // ratio, turned or a distance field; else nearest.)
        p.smooth = size != 1 || icon.pixelRatio != e.pixelRatio || p.rotate.truncatingRemainder(dividingBy: 360) != 0 || icon.sdf
        let w = Double(icon.image.width) * p.scale, h = Double(icon.image.height) * p.scale
        let fit = IconTextFit(rawValue: string(L.iconTextFit, c)) ?? .none
        var fitting: IconFitting?
        if fit != .none {
            let pad = layout(L.iconTextFitPadding, c).asNumbers ?? []
            let css = { (i: Int) in pad.count == 4 ? e.length(finite(pad[i]) * e.pixelRatio) / e.pixelRatio : 0 }
            fitting = IconFitting(mode: fit, padding: (css(0), css(1), css(2), css(3)),
                                  offset: (e.length(finite(off.0) * e.pixelRatio) / e.pixelRatio, e.length(finite(off.1) * e.pixelRatio) / e.pixelRatio),
                                  size: size, pixelRatio: e.pixelRatio)
        }
        var pending = PendingIcon(icon: .init(image: .sprite(p), box: box(w, h, p.offset), collision: collision), length: icon.width, fitting: fitting)
        pending.icon.pitchesWithMap = pitchesWithMap
        return pending
    }

    /// The feature's label (`text-field`, transformed, shaped in its `text-font` from the style's
    /// glyphs), or nil when it has none, nothing of it can be drawn, or its glyphs are still on
    /// their way (the glyph source's next arrival evaluates it again).
    func text(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> SymbolSet.Text? {
        guard let glyphs = style.glyphs else { return nil }
        let stack: String
        if case let .array(names) = layout(L.textFont, c) { stack = names.compactMap(\.asString).joined(separator: ",") } else { stack = "" }
        let sections = textSections(style, c, stack: stack, e)
        guard !sections.isEmpty else { return nil }
        // (Glyphs are drawn at this size: at most 256 px, as the reference engines' atlas.)
        let size = min(max(finite(number(L.textSize, c) * e.pixelRatio), 0), 256 * max(e.pixelRatio, 1))
        guard size > 0 else { return nil }

        let placement = string(L.placement, c)
        let variable = variableAnchors(c)
        var options = shapingOptions(c, placement: placement, variable: variable)
        // A label along its line is shaped around its anchor; its offset is applied along and
        // across the line where it is laid out (MapLibre's line offsets).
        let rotation = string(L.textRotationAlignment, c)
        var alongLine: SymbolSet.AlongLine?
        if placement != "point" && rotation != "viewport" {
            alongLine = .init(keepUpright: layout(L.textKeepUpright, c) != .bool(false), rotateGlyphs: rotation != "viewport-glyph",
                              offset: (e.length(options.offset.x / SDFGlyph.em * size), e.length(options.offset.y / SDFGlyph.em * size)))
            options.offset = (0, 0)
        }
        let shaper = LabelShaper(sections: sections, glyphs: glyphs, bidi: style.bidi)
        guard case let .shaped(horizontal) = shaper.shape(options), let shaped = horizontal else { return nil }
        // Vertical writing (point labels only, as in MapLibre): a second shaping, justified
        // left, when the text has characters set upright in vertical lines.
        var vertical: ShapedText?, verticalFirst = false
        if placement == "point", case let .array(modes) = layout(L.textWritingMode, c),
           let v = modes.firstIndex(of: .string("vertical")),
           sections.contains(where: { $0.text.unicodeScalars.contains { ScriptProperties.hasUprightVerticalOrientation($0.value) } }) {
            verticalFirst = v < (modes.firstIndex(of: .string("horizontal")) ?? modes.count)
            var o = options
            o.writingMode = .vertical; o.justify = .left
            guard case let .shaped(v) = shaper.shape(o) else { return nil }
            vertical = v
        }
        // A label of upright script along its line and kept upright: a vertical shaping too,
        // which steep stretches of the line show (MapLibre's; its Latin glyphs stay turned).
        if let along = alongLine, along.keepUpright,
           sections.contains(where: { $0.text.unicodeScalars.contains { ScriptProperties.hasUprightVerticalOrientation($0.value) } }) {
            var o = options
            o.writingMode = .vertical; o.verticalPlacement = false
            if case let .shaped(v) = shaper.shape(o) { vertical = v }
        }
        // With variable anchors and automatic justification, a shaping per justification.
        var justified: [TextJustify: ShapedText] = [:]
        if placement == "point", string(L.textJustify, c) == "auto", !variable.isEmpty, shaped.lineCount > 1 {
            for j in Set(variable.map { TextJustify(anchor: $0.anchor) }) {
                var o = options
                o.justify = j
                if j == options.justify { justified[j] = shaped } else if case let .shaped(s) = shaper.shape(o) { justified[j] = s }
            }
        }

        let collision = SymbolSet.Collision(padding: e.length(number(L.textPadding, c) * e.pixelRatio),
                                            overlap: overlap(L.textOverlap, L.textAllowOverlap, c),
                                            ignorePlacement: layout(L.textIgnorePlacement, c) == .bool(true),
                                            optional: layout(L.textOptional, c) == .bool(true))
        let scale = size / SDFGlyph.em
        let positions = variable.map { (anchor: $0.anchor, offset: (x: e.length($0.offset.x * scale), y: e.length($0.offset.y * scale))) }
        // (An image in text is keyed by its name and its image's identity.)
        let key = sections.map { section in
            "\(section.text)\u{2}\(section.fontStack)\u{2}\(section.scale)\u{2}\(section.verticalAlign.rawValue)"
                + (section.image.map { "\u{2}\($0.name)\u{2}\(ObjectIdentifier($0.icon).hashValue)" } ?? "")
        }.joined(separator: "\u{3}")
            + "\u{1}\(options.maxWidth),\(options.lineHeight),\(options.letterSpacing),\(options.justify),"
            + "\(options.anchor),\(options.offset.x),\(options.offset.y),\(options.textSize)"
        var text = SymbolSet.Text(shaped: shaped, vertical: vertical, verticalFirst: verticalFirst, justified: justified, key: key,
                                  paint: textPaint(c, size: size, e), rotate: degrees(finite(number(L.textRotate, c))),
                                  rotatesWithMap: string(L.textRotationAlignment, c) == "map" && placement == "point",
                                  positions: positions, collision: collision, alongLine: alongLine)
        // (`auto` pitch alignment follows the rotation: map for labels along lines by default.)
        let pitch = string(L.textPitchAlignment, c)
        text.pitchesWithMap = pitch == "map" || (pitch == "auto" && (rotation == "map" || (rotation == "auto" && placement != "point")))
        return text
    }

    /// How a label's text is laid out, in ems of 24 units (MapLibre's shaping): labels along
    /// lines break only at line feeds; with variable anchors the box is centred and moved at
    /// placement, otherwise `text-anchor` with `text-offset` (or the radial offset) places it.
    private func shapingOptions(_ c: EvaluationContext, placement: String,
                                variable: [(anchor: IconAnchor, offset: (x: Double, y: Double))]) -> ShapingOptions {
        let em = SDFGlyph.em
        var options = ShapingOptions()
        options.maxWidth = placement == "point" ? max(finite(number(L.textMaxWidth, c)), 0) * em : .infinity
        options.lineHeight = finite(number(L.textLineHeight, c)) * em
        options.letterSpacing = min(max(finite(number(L.textLetterSpacing, c)), -1), 10) * em
        options.textSize = max(finite(number(L.textSize, c)), 0)
        options.anchor = variable.isEmpty ? IconAnchor(rawValue: string(L.textAnchor, c)) ?? .center : .center
        let justify = string(L.textJustify, c)
        if placement != "point" {
            options.justify = .center
        } else if justify == "auto" {
            options.justify = TextJustify(anchor: variable.first?.anchor ?? options.anchor)
        } else {
            options.justify = TextJustify(rawValue: justify) ?? .center
        }
        if variable.isEmpty {
            let radial: Double = isSet(L.textRadialOffset) ? finite(number(L.textRadialOffset, c)) : 0
            if radial != 0 {
                options.offset = Self.variableOffset(options.anchor, radial: radial * em)
            } else {
                let o = pair(L.textOffset, c)
                options.offset = (finite(o.0) * em, finite(o.1) * em)
            }
        }
        return options
    }

    /// The text's paint for one feature: colours lit, lengths in device pixels (the halo at most
    /// a quarter of the size and a pixel, as far as the glyphs' fields reach).
    private func textPaint(_ c: EvaluationContext, size: Double, _ e: StyleEvaluation) -> TextPaint {
        let emissive = number(P.textEmissiveStrength, c)
        return TextPaint(size: size,
                         color: color(P.textColor, c).lit(by: e.light, emissive: emissive),
                         haloColor: color(P.textHaloColor, c).lit(by: e.light, emissive: emissive),
                         haloWidth: min(max(finite(number(P.textHaloWidth, c) * e.pixelRatio), 0), size / 4 + 1),
                         haloBlur: min(max(finite(number(P.textHaloBlur, c) * e.pixelRatio), 0), size),
                         opacity: number(P.textOpacity, c))
    }

    /// The label's words (`text-field`, transformed), nil when it has none: what lines are
    /// merged by.
    func plainText(_ c: EvaluationContext) -> String? {
        let text: String
        switch layout(L.textField, c) {
        case let .formatted(f): text = f.plainText
        case let value: text = value.asString ?? ""
        }
        guard !text.isEmpty else { return nil }
        switch string(L.textTransform, c) {
        case "uppercase": return text.uppercased()
        case "lowercase": return text.lowercased()
        default: return text
        }
    }

    /// `text-field` as sections of text: one for a plain string, one per text section of a
    /// `format` (its own font stack, scale, colour and vertical alignment), each transformed by
    /// `text-transform`. Empty sections are dropped. An image section becomes an image in text
    /// (`ImageInText`): the next Private Use Area character, scale 1, its vertical alignment;
    /// one whose image the sprite lacks is dropped, as MapLibre drops it. (Vector icons, the
    /// style's `icons`, are not drawn inside text.)
    private func textSections(_ style: Style, _ c: EvaluationContext, stack: String, _ e: StyleEvaluation) -> [TextSection] {
        let transform = string(L.textTransform, c)
        func transformed(_ s: String) -> String {
            switch transform {
            case "uppercase": return s.uppercased()
            case "lowercase": return s.lowercased()
            default: return s
            }
        }
        switch layout(L.textField, c) {
        case let .formatted(f):
            let emissive = number(P.textEmissiveStrength, c)
            var characters = ImageInText.characters.makeIterator()
            return f.sections.compactMap { section in
                if let name = section.image {
                    guard let icon = style.sprite?.icons[name], let character = characters.next().flatMap(Unicode.Scalar.init) else { return nil }
                    return TextSection(text: String(Character(character)), fontStack: stack,
                                       verticalAlign: section.verticalAlign.flatMap(TextSection.VerticalAlign.init(rawValue:)) ?? .bottom,
                                       image: ImageInText(name: name, icon: icon))
                }
                guard !section.text.isEmpty else { return nil }
                return TextSection(text: transformed(section.text), fontStack: section.textFont.map { $0.joined(separator: ",") } ?? stack,
                                   scale: section.scale.map { min(max(finite($0), 0), 16) } ?? 1,
                                   color: section.textColor.map { $0.lit(by: e.light, emissive: emissive) },
                                   verticalAlign: section.verticalAlign.flatMap(TextSection.VerticalAlign.init(rawValue:)) ?? .bottom)
            }
        case let value:
            let text = value.asString ?? ""
            return text.isEmpty ? [] : [TextSection(text: transformed(text), fontStack: stack)]
        }
    }

    /// `text-variable-anchor-offset`, else `text-variable-anchor` with its radial or text offset:
    /// each anchor with its offset in layout units (24 per em), as MapLibre converts them.
    private func variableAnchors(_ c: EvaluationContext) -> [(anchor: IconAnchor, offset: (x: Double, y: Double))] {
        let em = SDFGlyph.em
        if case let .array(values) = layout(L.textVariableAnchorOffset, c), !values.isEmpty {
            var out: [(anchor: IconAnchor, offset: (x: Double, y: Double))] = []
            var i = 0
            while i + 1 < values.count {
                if let anchor = values[i].asString.flatMap(IconAnchor.init(rawValue:)), let o = values[i + 1].asNumbers, o.count == 2 {
                    let f = anchor.fraction
                    // (Offsets reach to the baseline, taken as 7 units above the em box's bottom.)
                    out.append((anchor, (finite(o[0]) * em, finite(o[1]) * em + (f.y == 0 ? -7 : f.y == 1 ? 7 : 0))))
                }
                i += 2
            }
            return out
        }
        guard case let .array(names) = layout(L.textVariableAnchor, c), !names.isEmpty else { return [] }
        let radial: Double? = isSet(L.textRadialOffset) ? finite(number(L.textRadialOffset, c)) * em : nil
        let given = pair(L.textOffset, c)
        return names.compactMap { name in
            guard let anchor = name.asString.flatMap(IconAnchor.init(rawValue:)) else { return nil }
            if let radial { return (anchor, Self.variableOffset(anchor, radial: radial)) }
            return (anchor, Self.variableOffset(anchor, x: finite(given.0) * em, y: finite(given.1) * em))
        }
    }

    /// A radial offset (layout units, to the edge of the text's box) as a move of the box
    /// placed by `anchor` (MapLibre's rule: diagonals share it between the axes; vertically it
    /// reaches the baseline, 7 units above the box's bottom).
    static func variableOffset(_ anchor: IconAnchor, radial: Double) -> (x: Double, y: Double) {
        let r = max(radial, 0), h = r / 2.0.squareRoot()
        let f = anchor.fraction
        let diagonal = f.x != 0.5 && f.y != 0.5
        let x = f.x == 0.5 ? 0 : (diagonal ? h : r) * (f.x == 0 ? 1 : -1)
        let y = f.y == 0.5 ? 0 : f.y == 0 ? (diagonal ? h : r) - 7 : 7 - (diagonal ? h : r)
        return (x, y)
    }

    /// `text-offset` with a variable anchor: its sizes away from the anchor's point, the
    /// vertical one to the baseline.
    static func variableOffset(_ anchor: IconAnchor, x: Double, y: Double) -> (x: Double, y: Double) {
        let f = anchor.fraction
        let ox = f.x == 0.5 ? 0 : f.x == 0 ? abs(x) : -abs(x)
        let oy = f.y == 0.5 ? 0 : f.y == 0 ? abs(y) - 7 : 7 - abs(y)
        return (ox, oy)
    }

    /// `text-overlap` or `icon-overlap` when set, else `*-allow-overlap` (true: always), as
    /// MapLibre resolves them.
    private func overlap(_ mode: SymbolLayoutProperty, _ allow: SymbolLayoutProperty, _ c: EvaluationContext) -> OverlapMode {
        if isSet(mode), let m = OverlapMode(rawValue: string(mode, c)) { return m }
        return layout(allow, c) == .bool(true) ? .always : .never
    }

    /// `icon-padding`: one number, or the largest of [top, right, bottom, left] (boxes here grow
    /// the same on every side).
    private func padding(_ property: SymbolLayoutProperty, _ c: EvaluationContext) -> Double {
        let v = layout(property, c)
        if let n = v.asNumber { return max(finite(n), 0) }
        return max(finite((v.asNumbers ?? []).max() ?? 0), 0)
    }
}
