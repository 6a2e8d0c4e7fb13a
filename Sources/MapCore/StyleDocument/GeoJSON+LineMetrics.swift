import Foundation

/// `lineMetrics` of GeoJSON sources: every line point knows how far along its line it is, for
/// `line-progress` in `line-gradient`.
extension GeoJSONData {
    /// The data with line progress measured when `option` (the source's `lineMetrics`) is true.
    public func withLineMetrics(_ option: JSON?) -> GeoJSONData {
        guard option == .bool(true) else { return self }
        return GeoJSONData(features: features.map { f in
            guard f.geometry.kind == .lines, f.geometry.lineProgress == nil else { return f }
            return GeoFeature(geometry: f.geometry.measured(), evaluation: f.evaluation)
        })
    }
}

extension FeatureGeometry {
    /// The same lines with ``lineProgress``: per part (each line of a MultiLineString on its
    /// own, as MapLibre's tiler splits them), the distance along it in Web Mercator units over
    /// its length (0 throughout for a line of no length).
    public func measured() -> FeatureGeometry {
        var parts: [[MercatorPoint]] = []
        var progress: [Double] = []
        progress.reserveCapacity(coordinates.count / 2)
        for k in 0..<partCount {
            let r = part(k)
            var along: [Double] = []
            along.reserveCapacity(r.count)
            var total = 0.0
            for i in r {
                if i > r.lowerBound {
                    let dx = coordinates[2 * i] - coordinates[2 * i - 2], dy = coordinates[2 * i + 1] - coordinates[2 * i - 1]
                    total += (dx * dx + dy * dy).squareRoot()
                }
                along.append(total)
            }
            progress += along.map { total > 0 ? $0 / total : 0 }
            parts.append(r.map { MercatorPoint(x: coordinates[2 * $0], y: coordinates[2 * $0 + 1]) })
        }
        return FeatureGeometry(kind: kind, parts: parts, polygonStarts: [], outline: outline, lineProgress: progress)
    }
}
