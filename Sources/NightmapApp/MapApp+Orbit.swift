import Foundation
import MapCore
import Orbit

/// The ISS's orbit as the path it takes through space, drawn over the globe (`SpacePath`): the
/// same 45 minutes behind and 90 ahead as the ground track, every 30 s, at the station's height;
/// dimmer where the Earth's shadow hides it from the Sun; the station itself its head, a dot
/// over its place on the track with a line down to it. (Web Mercator has no height: there the
/// ground track alone shows the orbit.)
extension MapApp {
    /// The orbit's colour in the sunlight and in the Earth's shadow (not lit by the light
    /// preset: like the station's icon, it shines).
    static let orbitColor = Color(r: 0.80, g: 0.89, b: 1.0, a: 0.9)
    static let orbitShadowColor = Color(r: 0.50, g: 0.58, b: 0.72, a: 0.5)

    /// The orbit from `start` to `end` (Unix seconds), each point lit or in the shadow at its
    /// own instant.
    static func orbitPath(_ tracker: IssTracker, from start: Double, to end: Double) -> [SpacePath.Point] {
        tracker.orbitPoints(from: start, to: end).map { p in
            let sun = Sun(unixSeconds: p.time).subsolarPoint
            let altitude = p.altitudeKm * 1000
            let lit = !SpacePath.inShadow(p.position, altitude: altitude, subsolar: LngLat(lng: sun.longitude, lat: sun.latitude))
            return SpacePath.Point(position: p.position, altitude: altitude, lit: lit)
        }
    }

    /// The orbit path with the station at `fix` as its head, for this frame.
    mutating func showOrbit(station fix: IssFix?, utc: Double) {
        guard !orbitPoints.isEmpty || fix != nil else {
            if !model.spacePaths.isEmpty { model.spacePaths.removeAll() }
            return
        }
        let head = fix.map { f -> SpacePath.Point in
            let sun = Sun(unixSeconds: utc).subsolarPoint
            let altitude = f.altitudeKm * 1000
            return SpacePath.Point(position: f.position, altitude: altitude,
                                   lit: !SpacePath.inShadow(f.position, altitude: altitude, subsolar: LngLat(lng: sun.longitude, lat: sun.latitude)))
        }
        let path = SpacePath(points: orbitPoints, color: Self.orbitColor, shadowColor: Self.orbitShadowColor,
                             width: 1.5 * model.pixelRatio, head: head)
        if model.spacePaths != [path] { model.spacePaths = [path] }
    }
}
