import Foundation

/// MapLibre's wanted zoom for a tile by its distance from the camera (`covering_tiles.ts`,
/// `createCalculateTileZoomFunction` with its defaults: 9.314 zoom levels on screen at most,
/// tile count ratio 3): the view's zoom for the source's tiles at the centre, coarser as the tile
/// lies farther than the centre and as it is seen more obliquely. Distances are in normalised
/// Web Mercator units; the pitched flat map (`GroundCover`) and the globe (`GlobeCover`) share it.
struct DistanceZoom {
    /// The camera's height over the ground and its distance from the view's centre.
    let cameraHeight: Double, centreDistance: Double
    /// The vertical field of view, degrees.
    let fieldOfView: Double

    func wanted(_ z0: Double, distance: Double) -> Double {
        let maxLevels = 9.314, countRatio = 3.0
        let horizon = 89.25, rad = Double.pi / 180
        let k = 2 * ((maxLevels - 1) / log2(cos((horizon - fieldOfView) * rad) / cos(horizon * rad)) - 1)
        func integral(_ p: Double, _ a: Double, _ b: Double) -> Double {
            let steps = 10, dx = (b - a) / Double(steps)
            var sum = 0.0
            for i in 0..<steps { sum += dx * pow(cos(a + (Double(i) + 0.5) / Double(steps) * (b - a)), p) }
            return sum
        }
        let centrePitch = acos(min(max(cameraHeight / centreDistance, -1), 1))
        let half = fieldOfView / 2 * rad
        let count0 = 2 * integral(k - 1, 0, half)
        let highest = min(horizon * rad, centrePitch + half)
        let lowest = min(highest, centrePitch - half)
        let count = integral(k - 1, lowest, highest)
        let tilePitch = atan(distance / cameraHeight)
        let distance3D = (distance * distance + cameraHeight * cameraHeight).squareRoot()
        var z = z0 + log2(centreDistance / distance3D / max(0.5, cos(half)))
        z += k * log2(cos(tilePitch)) / 2
        z -= log2(max(1, count / count0 / countRatio)) / 2
        return z
    }
}
