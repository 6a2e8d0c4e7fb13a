import Foundation

private typealias L = SymbolLayoutProperty

/// Where a symbol layer's feature's symbols go.
extension StyledLayer {
    /// Where a feature's symbols go, with the extra rotation (degrees) of each: its points for
    /// `symbol-placement: point` (the default); anchors along its lines or polygon rings for
    /// `line` and `line-center`, turned with the line unless `icon-rotation-alignment` is viewport.
    /// Anchors along lines count against `limit`; none are made once it is used up.
    func symbolAnchors(_ g: FeatureGeometry, _ c: EvaluationContext, _ e: StyleEvaluation,
                       labelLength: Double, limit: inout Int) -> [(MercatorPoint, Double)] {
        let placement = string(L.placement, c)
        if g.kind == .points || placement == "point" {
            guard g.kind == .points else { return [] }
            return (0..<(g.coordinates.count / 2)).map { (MercatorPoint(x: g.coordinates[2 * $0], y: g.coordinates[2 * $0 + 1]), 0) }
        }
        let world = e.worldSize / e.pixelRatio          // CSS pixels: spacing and lengths are in them
        let follow = string(L.iconRotationAlignment, c) != "viewport"
        let textMaxSize = layout(L.textSize, EvaluationContext(zoom: 18)).asNumber ?? 16
        let spacing = number(L.spacing, c)
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
