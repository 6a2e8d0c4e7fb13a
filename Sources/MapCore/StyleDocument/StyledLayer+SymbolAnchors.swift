import Foundation

private typealias L = SymbolLayoutProperty

/// Where a symbol layer's feature's symbols go.
extension StyledLayer {
    /// A symbol's anchor: where, the extra turn of its icon (degrees), and for an anchor along a
    /// line the line and the segment it lies on.
    struct SymbolAnchor {
        let point: MercatorPoint
        let angle: Double
        let line: SymbolLine?
        let segment: Int
    }

    /// What lays a layer's labels out along lines for one evaluation: the tiles' zoom and
    /// overscaling (MapLibre lays symbols out in the source's tiles, at most its maximum zoom,
    /// drawn larger past it), and the same-text repeat filter the layer's anchors go through.
    struct LineLayout {
        let zoom: Int
        let overscaling: Double
        /// For a GeoJSON source: the buffer MapLibre cuts its tiles with (128 px of 512, in
        /// tile units); nil for tiled sources, whose features nightmap joins across tiles.
        let geoJSONBuffer: Double?
        /// The part of the world laid out: the view and half a view around it (the region a
        /// symbol layer's draw is kept for), nil for all.
        let region: MercatorBox?
        var repeats = RepeatFilter()
    }

    func lineLayout(_ style: Style, _ e: StyleEvaluation) -> LineLayout {
        let data = layoutZoom(style, e)
        let camera = Int(min(max(finite(e.zoom).rounded(.down), 0), 30))
        return LineLayout(zoom: data, overscaling: Double(1 << min(max(camera - data, 0), 24)),
                          geoJSONBuffer: style.tiles(definition.source) == nil ? 128 * LineAnchors.tileExtent / 512 : nil,
                          region: e.visible?.grown(by: 0.5))
    }

    /// Where a feature's symbols go: its points for `symbol-placement: point` (the default);
    /// anchors along its lines or polygon rings for `line` and `line-center`, laid out tile by
    /// tile as MapLibre lays them out (`LineAnchors.tiled`), a label's anchors closer than half
    /// the spacing to another of the same text in its tile dropped; icons turned with the line
    /// unless `icon-rotation-alignment` is viewport. `lines` stand for the feature's own lines
    /// (pieces of one street joined). Anchors along lines count against `limit`.
    /// - Parameters:
    ///   - textWidth: the shaped text's width in ems of 24 (0 without text).
    ///   - iconWidth: the icon's width unscaled (0 without icon).
    ///   - text: the label's text (the repeat filter's key), nil without text.
    func symbolAnchors(_ g: FeatureGeometry, lines: [[MercatorPoint]]?, _ c: EvaluationContext, textWidth: Double, iconWidth: Double,
                       text: String?, layout tiles: inout LineLayout, limit: inout Int) -> [SymbolAnchor] {
        let placement = string(L.placement, c)
        if g.kind == .points {
            return (0..<(g.coordinates.count / 2)).map {
                SymbolAnchor(point: MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]), angle: 0, line: nil, segment: 0)
            }
        }
        if placement == "point" {
            // Lines by their first point; polygons by their poles of inaccessibility, one per
            // polygon, found in the layout tiles' units (MapLibre's precision: 16 of them).
            func point(_ i: Int) -> MercatorPoint { MercatorPoint(x: g.coordinates[2 * i], y: g.coordinates[2 * i + 1]) }
            if g.kind == .lines {
                return (0..<g.partCount).compactMap { part in
                    g.part(part).isEmpty ? nil : SymbolAnchor(point: point(g.part(part).lowerBound), angle: 0, line: nil, segment: 0)
                }
            }
            let scale = Double(1 << min(max(tiles.zoom, 0), 30)) * 8192
            var out: [SymbolAnchor] = []
            let starts = g.polygonStarts
            for k in 0..<max(starts.count - 1, 0) {
                let rings = (starts[k]..<starts[k + 1]).map { part in g.part(part).map { (x: g.coordinates[2 * $0] * scale, y: g.coordinates[2 * $0 + 1] * scale) } }
                guard let pole = PoleOfInaccessibility.find(rings, precision: 16), pole.x.isFinite, pole.y.isFinite else { continue }
                out.append(SymbolAnchor(point: MercatorPoint(x: pole.x / scale, y: pole.y / scale), angle: 0, line: nil, segment: 0))
            }
            return out
        }
        let follow = string(L.iconRotationAlignment, c) != "viewport"
        let textMaxSize = layout(L.textSize, EvaluationContext(zoom: 18)).asNumber ?? 16
        let spacing = number(L.spacing, c)
        let repeatDistance = RepeatFilter.repeatDistance(spacing: spacing, overscaling: tiles.overscaling)
        let parts = lines ?? (0..<g.partCount).map { part in g.part(part).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) } }
        var out: [SymbolAnchor] = []
        for line in parts where limit > 0 && line.count >= 2 {
            let anchors = LineAnchors.tiled(line, zoom: tiles.zoom, overscaling: tiles.overscaling,
                                            placementCenter: placement == "line-center", spacing: spacing,
                                            textWidth: textWidth, iconWidth: iconWidth, hasText: text != nil,
                                            textMaxSize: textMaxSize, maxAngle: number(L.textMaxAngle, c), limit: limit,
                                            centerBuffer: tiles.geoJSONBuffer, region: tiles.region)
            guard !anchors.isEmpty else { continue }
            let shared = SymbolLine(coordinates: line.flatMap { [$0.x, $0.y] })
            for a in anchors where limit > 0 {
                if placement == "line", let text, !tiles.repeats.admit(a, text: text, repeatDistance: repeatDistance) { continue }
                limit -= 1
                out.append(SymbolAnchor(point: a.point, angle: follow ? a.angle * 180 / Double.pi : 0, line: shared, segment: a.segment))
            }
        }
        return out
    }
}
