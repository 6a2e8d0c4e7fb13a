import Foundation

/// The view's conversions on the globe.
extension ViewTransform {
    /// Screen position of normalised Mercator point `m` on the globe (blended into Mercator
    /// below globeness 1). A point on the far side lands where it would were the globe clear.
    @usableFromInline func globeScreen(_ g: GlobeTransform, _ m: MercatorPoint) -> (x: Double, y: Double) {
        let p = WebMercator.unproject(m)
        if let mercator = globeBlend { return g.project(p, blending: mercator, globeness: globeness) }
        let s = g.project(p)
        return (s.x, s.y)
    }

    /// The normalised Mercator point seen at (x, y) on the globe; past its edge, the point of
    /// the edge nearest along the line from the globe's middle (so a drag that leaves the disc
    /// keeps turning it).
    func globeMercator(_ g: GlobeTransform, x: Double, y: Double) -> MercatorPoint {
        if let p = g.unproject(x: x, y: y) { return WebMercator.project(p) }
        let c = g.project(GlobeTransform.surface(g.center))
        // Halving from the centre (on the globe) towards (x, y) (off it) to the edge.
        var lo = 0.0, hi = 1.0
        for _ in 0..<30 {
            let t = (lo + hi) / 2
            if g.unproject(x: c.x + (x - c.x) * t, y: c.y + (y - c.y) * t) != nil { lo = t } else { hi = t }
        }
        if let p = g.unproject(x: c.x + (x - c.x) * lo, y: c.y + (y - c.y) * lo) { return WebMercator.project(p) }
        return WebMercator.project(g.center)
    }
}
