import Foundation

private typealias L = SymbolLayoutProperty

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
        let hasSortKey = isSet(L.sortKey)
        // A feature's symbols do not change with the zoom (only the filter may read it): they are
        // kept from the last evaluation while the data, images, fonts, pixel ratio and light stay.
        let memo = symbolsReadZoom || isTransitioning(at: e.now) ? nil : symbolMemo.entries(for: style, data, e, layoutZoom: layoutZoom(style, e), states: featureStateVersion(style))
        defer { memo?.unlock() }
        let count = candidates?.count ?? data.features.count
        if let memo {
            // The features the filter passes; the same ones as last time give the same symbols.
            memo.passing.removeAll(keepingCapacity: true)
            for k in 0..<count {
                let index = candidates.map { Int($0[k]) } ?? k
                if !passesFilter(data.features[index].evaluation, zoom: e.zoom) { continue }
                memo.passing.append(Int32(index))
            }
            if let last = memo.lastSet, memo.passing == memo.lastPassing { return last }
        }
        let chosen = memo?.passing.count ?? count
        var lineLayout = lineLayout(style, e)
        // Labels along lines: pieces of one street (the same text, end to end) joined first.
        let merged = string(L.placement, EvaluationContext(zoom: e.zoom)) == "line" && isSet(L.textField)
            ? mergedLines(data, style, e, count: chosen) { k in memo.map { Int($0.passing[k]) } ?? candidates.map { Int($0[k]) } ?? k } : nil
        for k in 0..<chosen {
            let index = memo.map { Int($0.passing[k]) } ?? candidates.map { Int($0[k]) } ?? k
            let feature = data.features[index]
            if memo == nil, !passesFilter(feature.evaluation, zoom: e.zoom) { continue }
            let entry: SymbolMemo.Entry
            if let kept = memo?.entries[Int32(index)] {
                entry = kept
            } else {
                if let merged, merged[index] == nil { continue }
                entry = featureSymbols(of: feature, lines: merged?[index], style, e, hasSortKey: hasSortKey, layout: &lineLayout,
                                       lineAnchorsLeft: &lineAnchorsLeft)
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
        let order = layoutValues[L.zOrder.rawValue]?.constant?.asString
        let set = symbols.isEmpty ? nil : SymbolSet(symbols, layoutZoom: layoutZoom(style, e), placesBottomUp: order == "viewport-y",
                                                     placesByTile: !hasSortKey || order == "viewport-y")
        memo?.remember(set)
        return set
    }

    /// Whether the layer's symbols are drawn from the top of the screen down (`symbol-z-order`
    /// `viewport-y`, or `auto` without a sort key when they may overlap), as the reference
    /// engines draw them.
    var drawsByViewportY: Bool {
        let order = layoutValues[L.zOrder.rawValue]?.constant?.asString ?? "auto"
        if order == "viewport-y" { return true }
        guard order == "auto", !isSet(L.sortKey) else { return false }
        return [L.iconAllowOverlap, .textAllowOverlap, .iconIgnorePlacement, .textIgnorePlacement].contains {
            layoutValues[$0.rawValue]?.constant == .bool(true)
        }
    }

    /// The symbols in the reference engines' draw order: tile by tile (north to south, then west
    /// to east, as the map is turned), within a tile by the anchor's height in it (in the tile's
    /// 8192 units, as the map is turned), and of equal heights the later feature first. The
    /// tiles are those the source is cut into at this zoom (GeoJSON: at most zoom 18).
    func viewportYOrder(_ symbols: [SymbolSet.Symbol], sources: [Int32], _ style: Style, _ e: StyleEvaluation) -> [SymbolSet.Symbol] {
        let scale = Double(1 << layoutZoom(style, e))
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

    /// MapLibre's merge of line features before their labels are laid out: features whose
    /// labels read the same and whose lines meet end to end become one line, held by the first
    /// of them (the others get none: nil). Keyed by feature index; features the filter drops
    /// and those without lines are left out (they keep their own geometry).
    private func mergedLines(_ data: GeoJSONData, _ style: Style, _ e: StyleEvaluation, count: Int,
                             index: (Int) -> Int) -> [Int: [[MercatorPoint]]]? {
        var items: [(text: String?, line: [MercatorPoint])] = []
        var owners: [Int] = []
        for k in 0..<count {
            let i = index(k)
            let feature = data.features[i]
            guard feature.geometry.kind == .lines, !feature.geometry.isEmpty else { continue }
            if !passesFilter(feature.evaluation, zoom: e.zoom) { continue }
            let c = EvaluationContext(zoom: e.zoom, feature: feature.evaluation, time: e.now)
            let text = plainText(c)
            let g = feature.geometry
            for part in 0..<g.partCount {
                items.append((text, g.part(part).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) }))
                owners.append(i)
            }
        }
        guard items.count > 1 else { return nil }
        var out: [Int: [[MercatorPoint]]] = [:]
        for m in MergeLines.merge(items) {
            guard let first = m.features.min() else { continue }
            out[owners[first], default: []].append(m.line)
        }
        return out
    }

    /// The zoom of the tiles MapLibre lays this layer's symbols out in at the evaluation's
    /// zoom: the zoom below, at most the source's maximum (GeoJSON: 18).
    func layoutZoom(_ style: Style, _ e: StyleEvaluation) -> Int {
        let maxZoom = style.tiles(definition.source)?.definition.maxZoom ?? 18
        return Int(min(max(finite(e.zoom).rounded(.down), 0), Double(min(maxZoom, 24))))
    }

    /// One feature's symbols (one per anchor) and its sort key.
    private func featureSymbols(of feature: GeoFeature, lines: [[MercatorPoint]]? = nil, _ style: Style, _ e: StyleEvaluation, hasSortKey: Bool,
                                layout: inout LineLayout, lineAnchorsLeft: inout Int) -> SymbolMemo.Entry {
        let c = featureContext(feature.evaluation, style, e)
        let g = feature.geometry
        guard !g.isEmpty else { return .init(key: 0, symbols: []) }   // (an empty MultiPoint, Polygon, ...: nothing to place)
        let text = self.text(style, c, e)
        // (An icon fitted to its text takes the text's box; without text it keeps its own.)
        let icon = self.icon(style, c, e).map { icon in text.map { icon.fitted(to: $0) } ?? icon }
        guard icon != nil || text != nil else { return .init(key: 0, symbols: []) }
        let key: Double = hasSortKey ? finite(number(L.sortKey, c)) : 0
        let anchors = symbolAnchors(g, lines: lines, c, textWidth: text.map { $0.shaped.right - $0.shaped.left } ?? 0,
                                    iconWidth: icon?.length ?? 0, text: text?.string, layout: &layout, limit: &lineAnchorsLeft)
        return .init(key: key, symbols: anchors.map { a in
            SymbolSet.Symbol(point: a.point, icon: icon.map { $0.turned(by: a.angle) }?.icon, text: text, line: a.line, segment: a.segment)
        })
    }
}
