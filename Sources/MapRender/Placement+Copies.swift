import MapCore
import Raster

extension Placement {
    /// Calls `body` with the mapping of normalised Mercator to screen for each world copy the
    /// geometry shows in (grown by `margin` pixels), shifted by the layer's translation; on the
    /// globe, the one copy.
    ///
    /// A margin counts for at most 4 world widths (sizes are bounded, but a miter limit still
    /// multiplies a stroke's margin; the reference engines draw only the copies whose tiles
    /// show), and only copies within 2 worlds of that reach are drawn: geometry within
    /// longitudes -540...540 is drawn in every copy it shows in, geometry far outside the world
    /// (longitudes of 1e300) in none or a few, never in millions.
    func forEachCopy<M: ScreenMap>(_ g: FeatureGeometry, margin: Double, _ t: (x: Double, y: Double), _ body: (M) -> Void) {
        var m = (margin + abs(t.x) + abs(t.y)) / world
        if !(m <= 4) { m = 4 }                  // (NaN too)
        guard g.maxY + m >= visible.minY, g.minY - m <= visible.maxY else { return }
        // (The globe has one copy: every point of it is in the sphere's one world.)
        if isGlobe { body(M(self, copy: 0, translate: t)); return }
        let first = max((visible.minX - m - g.maxX).rounded(.up), (visible.minX - m).rounded(.down) - 2)
        let last = min((visible.maxX + m - g.minX).rounded(.down), (visible.maxX + m).rounded(.up) + 2)
        guard first <= last, first > -1e9, last < 1e9 else { return }
        for copy in Int(first)...Int(last) {
            body(M(self, copy: Double(copy), translate: t))
        }
    }
}
