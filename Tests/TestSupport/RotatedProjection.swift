import Foundation
import MapCore

/// Where `p` should be on a `size` screen for a camera at `centre`, `zoom`, `bearing`, computed
/// on its own (not with the engine's projection): Web Mercator world pixels relative to the
/// centre, turned counter-clockwise by the bearing (y down).
public func predictedScreenPoint(_ p: LngLat, centre: LngLat, zoom: Double, bearing: Double, size: ViewportSize) -> (x: Int, y: Int) {
    func world(_ q: LngLat) -> (Double, Double) {
        let w = 512 * pow(2, zoom), phi = q.lat * Double.pi / 180
        return ((q.lng + 180) / 360 * w, (1 - log(tan(phi) + 1 / cos(phi)) / Double.pi) / 2 * w)
    }
    let a = world(p), c = world(centre)
    let dx = a.0 - c.0, dy = a.1 - c.1, b = bearing * Double.pi / 180
    let x = dx * cos(b) + dy * sin(b), y = -dx * sin(b) + dy * cos(b)
    return (Int((Double(size.width) / 2 + x).rounded(.down)), Int((Double(size.height) / 2 + y).rounded(.down)))
}
