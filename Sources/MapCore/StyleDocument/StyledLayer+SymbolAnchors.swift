import Foundation

private typealias L = SymbolLayoutProperty

/// Where a symbol layer's feature's symbols go.
extension StyledLayer {
    /// Where a feature's symbols go, with the extra rotation (degrees) of each: its points for
    /// `symbol-placement: point` (the default); anchors along its lines or polygon rings for
    /// `line` and `line-center`, turned with the line unless `icon-rotation-alignment` is viewport.
    /// Anchors along lines count against `limit`; none are made once it is used up.
    func symbolAnchors(_ g: FeatureGeometry, _ c: EvaluationContext, _ e: StyleEvaluation,
                       labelLength: Double, hasText: Bool, limit: inout Int) -> [(MercatorPoint, Double)] {
        let placement = string(L.placement, c)
        if g.kind == .points || placement == "point" {
            guard g.kind == .points else { return [] }
            return (0..<(g.coordinates.count / 2)).map { (MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]), 0) }
        }
        let follow = string(L.iconRotationAlignment, c) != "viewport"
        let textMaxSize = layout(L.textSize, EvaluationContext(zoom: 18)).asNumber ?? 16
        // Laid out in the tiles of the camera's whole zoom, as MapLibre does; a GeoJSON source's
        // data stops at zoom 18 and is overscaled past it. (The integrator takes the source's zoom.)
        let tileZoom = max(0, min(Int(e.zoom.isFinite ? e.zoom.rounded(.down) : 0), 30))
        let dataZoom = min(tileZoom, 18)
        var out: [(MercatorPoint, Double)] = []
        for part in 0..<g.partCount where limit > 0 {
            let line = g.part(part).map { MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]) }
            let anchors = LineAnchors.tiled(line, zoom: dataZoom, overscaling: Double(1 << (tileZoom - dataZoom)),
                                            placementCenter: placement == "line-center", spacing: number(L.spacing, c),
                                            textWidth: hasText ? labelLength : 0, iconWidth: hasText ? 0 : labelLength,
                                            hasText: hasText, textMaxSize: textMaxSize,
                                            maxAngle: number(L.textMaxAngle, c), limit: limit)
            for a in anchors.prefix(limit) {
                limit -= 1
                out.append((a.point, follow ? a.angle * 180 / Double.pi : 0))
            }
        }
        return out
    }
}
