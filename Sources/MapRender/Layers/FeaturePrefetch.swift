import MapCore
import Raster

/// How far ahead the feature layers hint the pixels of the features to come (`Pixmap.prefetch`):
/// far enough that the memory arrives while the features between are drawn.
let featurePrefetchDistance = 3

extension ScreenMap {
    /// The screen position of the first and last point of `g` (its world copy 0), for hinting
    /// the pixels it will cover; nil for an empty geometry.
    @inline(__always)
    func ends(_ g: FeatureGeometry) -> (Point, Point)? {
        let c = g.coordinates, n = c.count
        guard n >= 2 else { return nil }
        return (point(c[0], c[1]), point(c[n - 2], c[n - 1]))
    }
}

extension Pixmap {
    /// Hints the pixels around the ends of feature `g` as `map` places it, `reach` rows up and
    /// down (see `prefetch(x:y:reach:rows:)`): small features scattered over the frame are drawn
    /// in their data's order, so each would otherwise wait on memory.
    @inline(__always)
    func prefetch<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, reach: Int, rows: Range<Int>) {
        guard let (a, b) = map.ends(g) else { return }
        prefetch(x: a.x, y: a.y, reach: reach, rows: rows)
        if abs(b.x - a.x) + abs(b.y - a.y) > 8 { prefetch(x: b.x, y: b.y, reach: reach, rows: rows) }
    }
}
