import Foundation

/// Symbol layers: each feature's icon and text evaluated (lengths in device pixels, colours lit,
/// the text measured in its font), in the order they claim space. Where they go and which of
/// them show is decided per frame, on screen, by the renderer's placement.
extension StyledLayer {
    /// The symbols of `data`'s features (of `candidates` only, when given).
    func symbolSet(_ style: Style, _ data: GeoJSONData, _ e: StyleEvaluation, candidates: [Int32]?) -> SymbolSet? {
        var symbols: [SymbolSet.Symbol] = [], keys: [Double] = [], sources: [Int32] = []
        var sorted = true
        let byY = drawsByViewportY
        // Icons along lines: at most this many in a layer (each part has at most 10 000 anchors,
        // but a layer may have any number of long lines).
        var lineAnchorsLeft = 100_000
        let hasSortKey = definition.layout["symbol-sort-key"] != nil
        // A feature's symbols do not change with the zoom (only the filter may read it): they are
        // kept from the last evaluation while the data, images, fonts, pixel ratio and light stay.
        let memo = symbolsReadZoom || isTransitioning(at: e.now) ? nil : symbolMemo.entries(for: style, data, e)
        defer { memo?.unlock() }
        let count = candidates?.count ?? data.features.count
        if let memo {
            // The features the filter passes; the same ones as last time give the same symbols.
            memo.passing.removeAll(keepingCapacity: true)
            for k in 0..<count {
                let index = candidates.map { Int($0[k]) } ?? k
                if let f = definition.filter, !f.matches(data.features[index].evaluation, zoom: e.zoom) { continue }
                memo.passing.append(Int32(index))
            }
            if let last = memo.lastSet, memo.passing == memo.lastPassing { return last }
        }
        let chosen = memo?.passing.count ?? count
        for k in 0..<chosen {
            let index = memo.map { Int($0.passing[k]) } ?? candidates.map { Int($0[k]) } ?? k
            let feature = data.features[index]
            if memo == nil, let f = definition.filter, !f.matches(feature.evaluation, zoom: e.zoom) { continue }
            let entry: SymbolMemo.Entry
            if let kept = memo?.entries[Int32(index)] {
                entry = kept
            } else {
                entry = featureSymbols(of: feature, style, e, hasSortKey: hasSortKey, lineAnchorsLeft: &lineAnchorsLeft)
                memo?.keep(entry, for: Int32(index))
            }
            guard !entry.symbols.isEmpty else { continue }
            if let last = keys.last, entry.key < last { sorted = false }
            symbols.append(contentsOf: entry.symbols)
            if hasSortKey { keys.append(contentsOf: repeatElement(entry.key, count: entry.symbols.count)) }
            if byY { sources.append(contentsOf: repeatElement(Int32(index), count: entry.symbols.count)) }
        }
        if byY && symbols.count > 1 {
            symbols = viewportYOrder(symbols, sources: sources, style, e)
        }
        // Lower keys first; equal keys keep the source's order (a stable sort, only when needed).
        if !sorted {
            let order = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
            symbols = order.map { symbols[$0] }
        }
        let set = symbols.isEmpty ? nil : SymbolSet(symbols)
        memo?.remember(set)
        return set
    }

    /// Whether the layer's symbols are drawn from the top of the screen down (`symbol-z-order`
    /// `viewport-y`, or `auto` without a sort key when they may overlap), as the reference
    /// engines draw them.
    var drawsByViewportY: Bool {
        let order = definition.layout["symbol-z-order"]?.constant?.asString ?? "auto"
        if order == "viewport-y" { return true }
        guard order == "auto", definition.layout["symbol-sort-key"] == nil else { return false }
        return ["icon-allow-overlap", "text-allow-overlap", "icon-ignore-placement", "text-ignore-placement"].contains {
            definition.layout[$0]?.constant == .bool(true)
        }
    }

    /// The symbols in the reference engines' draw order: tile by tile (north to south, then west
    /// to east, as the map is turned), within a tile by the anchor's height in it (in the tile's
    /// 8192 units, as the map is turned), and of equal heights the later feature first. The
    /// tiles are those the source is cut into at this zoom (GeoJSON: at most zoom 18).
    func viewportYOrder(_ symbols: [SymbolSet.Symbol], sources: [Int32], _ style: Style, _ e: StyleEvaluation) -> [SymbolSet.Symbol] {
        let maxZoom = style.tiles(definition.source)?.definition.maxZoom ?? 18
        let z = Int(min(max(finite(e.zoom).rounded(.down), 0), Double(min(maxZoom, 24))))
        let scale = Double(1 << z)
        let angle = -e.bearing * Double.pi / 180
        let (sn, cs) = (sin(angle), cos(angle))
        struct Key: Comparable {
            let row: Double, column: Double, y: Double, feature: Int32
            static func < (a: Key, b: Key) -> Bool {
                (a.row, a.column, a.y, -Int64(a.feature)) < (b.row, b.column, b.y, -Int64(b.feature))
            }
        }
        let keys = symbols.indices.map { i -> Key in
            let x = symbols[i].point.x * scale, y = symbols[i].point.y * scale
            let tx = x.rounded(.down), ty = y.rounded(.down)
            let ax = (x - tx) * 8192, ay = (y - ty) * 8192
            return Key(row: (sn * tx + cs * ty).rounded(), column: (cs * tx - sn * ty).rounded(),
                       y: (sn * ax + cs * ay).rounded(), feature: sources[i])
        }
        return symbols.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map { symbols[$0] }
    }

    /// One feature's symbols (one per anchor) and its sort key.
    private func featureSymbols(of feature: GeoFeature, _ style: Style, _ e: StyleEvaluation, hasSortKey: Bool,
                         lineAnchorsLeft: inout Int) -> SymbolMemo.Entry {
        let c = EvaluationContext(zoom: e.zoom, feature: feature.evaluation, time: e.now)
        let g = feature.geometry
        guard !g.isEmpty else { return .init(key: 0, symbols: []) }   // (an empty MultiPoint, Polygon, ...: nothing to place)
        let icon = self.icon(style, c, e)
        let text = self.text(style, c, e)
        guard icon != nil || text != nil else { return .init(key: 0, symbols: []) }
        let key: Double = hasSortKey ? finite(number("symbol-sort-key", c, layout: true)) : 0
        let anchors = symbolAnchors(g, c, e, labelLength: icon?.length ?? text.map { $0.width / e.pixelRatio } ?? 0, limit: &lineAnchorsLeft)
        return .init(key: key, symbols: anchors.map { anchor, angle in
            SymbolSet.Symbol(point: anchor, icon: icon.map { $0.turned(by: angle) }?.icon, text: text)
        })
    }

    /// An icon being evaluated: the image and how it collides, and its length along a line.
    private struct PendingIcon {
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
    private func icon(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> PendingIcon? {
        let name = string("icon-image", c)
        guard !name.isEmpty else { return nil }
        let alignment = string("icon-rotation-alignment", c)
        let rotatesWithMap = alignment == "map" || (alignment == "auto" && string("symbol-placement", c) != "point")
        let anchor = IconAnchor(rawValue: string("icon-anchor", c)) ?? .center
        let off = pair("icon-offset", c, layout: true)
        let collision = SymbolSet.Collision(padding: e.length(padding("icon-padding", c) * e.pixelRatio),
                                            allowOverlap: layout("icon-allow-overlap", c) == .bool(true),
                                            ignorePlacement: layout("icon-ignore-placement", c) == .bool(true),
                                            optional: layout("icon-optional", c) == .bool(true))
        func box(_ w: Double, _ h: Double, _ offset: (x: Double, y: Double)) -> FrameDescription.ScreenBox {
            let f = anchor.fraction
            return .init(minX: offset.x - w * f.x, minY: offset.y - h * f.y, maxX: offset.x + w * (1 - f.x), maxY: offset.y + h * (1 - f.y))
        }
        if style.sprite?.icons[name] == nil, let vector = style.icons[name] {
            let size = number("icon-size", c, layout: true)
            var p = VectorIconPaint(icon: vector, scale: size * e.pixelRatio)
            guard p.scale > 0 else { return nil }
            let side = max(vector.width, vector.height, 1e-9)
            if !(p.scale * side <= e.lengthLimit) { p.scale = e.lengthLimit / side }
            p.rotate = degrees(number("icon-rotate", c, layout: true))
            p.anchor = anchor
            p.rotatesWithMap = rotatesWithMap
            p.offset = (e.length(off.0 * p.scale), e.length(off.1 * p.scale))
            p.opacity = number("icon-opacity", c)
            p.light = Color.white.lit(by: e.light, emissive: number("icon-emissive-strength", c))
            return PendingIcon(icon: .init(image: .vector(p), box: box(vector.width * p.scale, vector.height * p.scale, p.offset), collision: collision),
                               length: vector.width)
        }
        guard let sprite = style.sprite, let icon = sprite.icons[name] else { return nil }
        var size = number("icon-size", c, layout: true)
        var p = IconPaint(icon: icon, scale: size * e.pixelRatio / icon.pixelRatio)
        guard p.scale > 0 else { return nil }
        // An icon larger than the length limit is drawn at the limit (an absurd icon-size or
        // sprite pixel ratio).
        let side = Double(max(icon.image.width, icon.image.height, 1))
        if !(p.scale * side <= e.lengthLimit) {
            p.scale = e.lengthLimit / side
            size = p.scale * icon.pixelRatio / e.pixelRatio
        }
        p.rotate = degrees(number("icon-rotate", c, layout: true))
        p.anchor = anchor
        p.rotatesWithMap = rotatesWithMap
        p.size = size
        p.pixelRatio = e.pixelRatio
        p.offset = (e.length(off.0 * size * e.pixelRatio), e.length(off.1 * size * e.pixelRatio))
        p.opacity = number("icon-opacity", c)
        let emissive = number("icon-emissive-strength", c)
        p.color = color("icon-color", c).lit(by: e.light, emissive: emissive)
        p.haloColor = color("icon-halo-color", c).lit(by: e.light, emissive: emissive)
        p.haloWidth = e.length(number("icon-halo-width", c) * e.pixelRatio)
        p.haloBlur = e.length(number("icon-halo-blur", c) * e.pixelRatio)
        p.smooth = p.scale * icon.pixelRatio / e.pixelRatio != 1 || p.rotate.truncatingRemainder(dividingBy: 360) != 0 || icon.sdf
        let w = Double(icon.image.width) * p.scale, h = Double(icon.image.height) * p.scale
        return PendingIcon(icon: .init(image: .sprite(p), box: box(w, h, p.offset), collision: collision), length: icon.width)
    }

    /// The feature's label (`text-field`, transformed, set in the `text-font` at `text-size`), or
    /// nil when it has none or the style has no fonts.
    private func text(_ style: Style, _ c: EvaluationContext, _ e: StyleEvaluation) -> SymbolSet.Text? {
        guard let fonts = style.fonts else { return nil }
        var text = layout("text-field", c).asString ?? ""
        guard !text.isEmpty else { return nil }
        switch string("text-transform", c) {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        let stack: [String]
        if case let .array(names) = layout("text-font", c) { stack = names.compactMap(\.asString) } else { stack = [] }
        let font = fonts.font(stack)
        // (Glyphs are rasterized at this size: at most 256 px, as the reference engines' atlas.)
        let size = min(max(finite(number("text-size", c, layout: true) * e.pixelRatio), 0), 256 * max(e.pixelRatio, 1))
        guard size > 0 else { return nil }
        let emissive = number("text-emissive-strength", c)
        let paint = TextPaint(font: font, size: size,
                              color: color("text-color", c).lit(by: e.light, emissive: emissive),
                              haloColor: color("text-halo-color", c).lit(by: e.light, emissive: emissive),
                              haloWidth: min(max(finite(number("text-halo-width", c) * e.pixelRatio), 0), size / 4 + 1),
                              letterSpacing: min(max(finite(number("text-letter-spacing", c, layout: true)), -1), 10) * size,
                              opacity: number("text-opacity", c))
        let width = font.width(text, size: size, letterSpacing: paint.letterSpacing)
        let (ascent, descent) = font.metrics(size: size)
        // Where the text may go: each variable anchor with its radial offset (or `text-offset`
        // taken away from the anchor), else `text-anchor` with `text-offset` (or the radial one).
        let radial: Double? = definition.layout["text-radial-offset"] == nil ? nil : max(finite(number("text-radial-offset", c, layout: true)), 0)
        let given = pair("text-offset", c, layout: true)
        var positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))] = []
        func ems(_ v: (Double, Double)) -> (x: Double, y: Double) { (e.length(v.0 * size), e.length(v.1 * size)) }
        if case let .array(names) = layout("text-variable-anchor", c), !names.isEmpty {
            for name in names {
                guard let anchor = name.asString.flatMap(IconAnchor.init(rawValue:)) else { continue }
                let away = anchor.away
                let offset = radial.map { r in (away.x * r * (away.y == 0 || away.x == 0 ? 1 : 0.5.squareRoot()),
                                                away.y * r * (away.y == 0 || away.x == 0 ? 1 : 0.5.squareRoot())) }
                    ?? (away.x * abs(given.0), away.y * abs(given.1))
                positions.append((anchor, ems(offset)))
            }
        } else {
            let anchor = IconAnchor(rawValue: string("text-anchor", c)) ?? .center
            let away = anchor.away
            positions.append((anchor, ems(radial.map { (away.x * $0, away.y * $0) } ?? given)))
        }
        guard !positions.isEmpty else { return nil }
        let collision = SymbolSet.Collision(padding: e.length(number("text-padding", c, layout: true) * e.pixelRatio),
                                            allowOverlap: layout("text-allow-overlap", c) == .bool(true),
                                            ignorePlacement: layout("text-ignore-placement", c) == .bool(true),
                                            optional: layout("text-optional", c) == .bool(true))
        return SymbolSet.Text(text: text, paint: paint, width: width, ascent: ascent, descent: descent,
                              positions: positions, collision: collision)
    }

    /// `icon-padding`: one number, or the largest of [top, right, bottom, left] (boxes here grow
    /// the same on every side).
    private func padding(_ name: String, _ c: EvaluationContext) -> Double {
        let v = layout(name, c)
        if let n = v.asNumber { return max(finite(n), 0) }
        return max(finite((v.asNumbers ?? []).max() ?? 0), 0)
    }

    /// Where a feature's symbols go, with the extra rotation (degrees) of each: its points for
    /// `symbol-placement: point` (the default); anchors along its lines or polygon rings for
    /// `line` and `line-center`, turned with the line unless `icon-rotation-alignment` is viewport.
    /// Anchors along lines count against `limit`; none are made once it is used up.
    private func symbolAnchors(_ g: FeatureGeometry, _ c: EvaluationContext, _ e: StyleEvaluation,
                               labelLength: Double, limit: inout Int) -> [(MercatorPoint, Double)] {
        let placement = string("symbol-placement", c)
        if g.kind == .points || placement == "point" {
            guard g.kind == .points else { return [] }
            return (0..<(g.coordinates.count / 2)).map { (MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]), 0) }
        }
        let world = e.worldSize / e.pixelRatio          // CSS pixels: spacing and lengths are in them
        let follow = string("icon-rotation-alignment", c) != "viewport"
        let textMaxSize = layout("text-size", EvaluationContext(zoom: 18)).asNumber ?? 16
        let spacing = number("symbol-spacing", c, layout: true)
        var out: [(MercatorPoint, Double)] = []
        for part in 0..<g.partCount where limit > 0 {
            let line = g.part(part).map { (x: g.coordinates[2 * $0] * world, y: g.coordinates[2 * $0 + 1] * world) }
            let anchors = placement == "line-center" ? [LineAnchors.center(line)].compactMap { $0 }
                : LineAnchors.along(line, spacing: spacing, labelLength: labelLength, boxScale: textMaxSize / 24)
            for a in anchors.prefix(limit) {
                limit -= 1
                out.append((MercatorPoint(x: a.x / world, y: a.y / world), follow ? a.angle * 180 / Double.pi : 0))
            }
        }
        return out
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

/// A symbol layer's features' symbols as last evaluated, by feature index, with what they were
/// evaluated for: a zooming camera evaluates only the filter again. Bounded: past
/// `SymbolMemo.limit` features it keeps only those of the last evaluation (a camera wandering for
/// hours does not gather the whole data set).
final class SymbolMemo: @unchecked Sendable {
    struct Entry {
        let key: Double
        let symbols: [SymbolSet.Symbol]
    }
    static let limit = 2048
    private let lock = NSLock()
    private(set) var entries: [Int32: Entry] = [:]
    /// The features the filter passed this time (kept storage), and last time with the set made of them.
    var passing: [Int32] = []
    private(set) var lastPassing: [Int32] = []
    private(set) var lastSet: SymbolSet?
    private var data: GeoJSONData?, sprite: SpriteSheet?, fonts: AnyObject?
    private var images = -1, pixelRatio = 0.0, light = Color.black

    /// The memo for these inputs (emptied when they differ from the last ones), locked until `unlock`.
    func entries(for style: Style, _ data: GeoJSONData, _ e: StyleEvaluation) -> SymbolMemo {
        lock.lock()
        let fonts = style.fonts.map { $0 as AnyObject }
        if data !== self.data || style.sprite !== sprite || style.imagesVersion != images || e.pixelRatio != pixelRatio
            || e.light != light || fonts !== self.fonts {
            entries.removeAll()
            lastSet = nil
            lastPassing.removeAll()
            self.data = data; sprite = style.sprite; images = style.imagesVersion; pixelRatio = e.pixelRatio; light = e.light
            self.fonts = fonts
        }
        return self
    }

    func keep(_ entry: Entry, for index: Int32) { entries[index] = entry }
    /// `set` is what `passing` gives.
    func remember(_ set: SymbolSet?) {
        lastSet = set
        swap(&passing, &lastPassing)
        if entries.count > Self.limit {
            // (`lastPassing` is in ascending order: the candidates come sorted.)
            let kept = lastPassing
            entries = entries.filter { entry in
                var lo = 0, hi = kept.count
                while lo < hi { let mid = (lo + hi) / 2; if kept[mid] < entry.key { lo = mid + 1 } else { hi = mid } }
                return lo < kept.count && kept[lo] == entry.key
            }
        }
    }
    func unlock() { lock.unlock() }
}
