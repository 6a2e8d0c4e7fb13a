import Foundation
import MapCore
import Orbit

/// The observer (`--observer`): a marker in the `observer` source, the part of the ISS's ground
/// track during which the station is above the observer's horizon in `iss-track-seen` (drawn
/// brighter), and the next pass, which `o` shows in the status line with a countdown.
extension MapApp {
    public static let observerID = "observer", trackSeenID = "iss-track-seen"
    /// How far ahead the next pass is looked for.
    public static let passHorizon = 2.0 * 86400
    /// A pass is listed when its highest elevation reaches this (degrees; `passes --min-elevation`).
    public static let passMinElevation = 10.0

    /// Puts the observer on the map (nil takes it off).
    public mutating func setObserver(_ place: LngLat?) {
        observer = place
        if model.style.geojson(Self.observerID) != nil {
            try? model.updateGeoJSONSource(Self.observerID, place.map { GeoJSONData.point($0) } ?? GeoJSONData(features: []))
        }
        trackComputedAt = -.infinity
        passCache = nil
    }

    /// The next pass shown by `o`, with the instant it was worked out for.
    public var nextPass: Pass? { passCache?.pass }

    /// Works the next pass out again when the one known has set, or the orbit changed.
    mutating func advanceNextPass() {
        guard showsNextPass, let observer, let tracker = iss else { return }
        let utc = clockOrigin + model.now
        if let c = passCache, c.generation == tracker.fitGeneration, c.epoch == tracker.orbitEpoch,
           utc >= c.from, utc < (c.pass?.set ?? c.from + Self.passHorizon / 2) { return }
        let pass = tracker.passFinder(observer: observer)?
            .passes(from: utc, to: utc + Self.passHorizon, minElevation: Self.passMinElevation).first
        passCache = PassCache(generation: tracker.fitGeneration, epoch: tracker.orbitEpoch, from: utc, pass: pass)
    }

    /// The track's pieces during which the station is above the observer's horizon, from
    /// `start` to `end` (Unix seconds), their ends at the crossings.
    public func seenTrack(_ tracker: IssTracker, from start: Double, to end: Double, step: Double = 30) -> [[LngLat]] {
        guard let observer, let finder = tracker.passFinder(observer: observer), let orbit = tracker.drawnOrbit,
              !tracker.groundTrack(from: start, to: start + step).isEmpty else { return [] }
        var pieces: [[LngLat]] = []
        var piece: [LngLat] = []
        var t = start
        var up = (finder.elevation(t) ?? -1) >= 0
        if up, let p = orbit(t) { piece.append(p.position) }
        while t < end {
            let next = min(t + step, end)
            let nowUp = (finder.elevation(next) ?? -1) >= 0
            if nowUp != up, let p = orbit(finder.crossing(t, next, rising: nowUp)) {
                piece.append(p.position)
                if up { pieces.append(piece); piece = [] }
            }
            if nowUp, let p = orbit(next) { piece.append(p.position) }
            up = nowUp
            t = next
        }
        if piece.count > 1 { pieces.append(piece) }
        return pieces.flatMap { LngLat.cutAtAntimeridian($0) }
    }
}

/// The next pass as last worked out: for which fit and element set, from when.
struct PassCache: Sendable {
    var generation: Int
    var epoch: Double?
    var from: Double
    var pass: Pass?
}

extension IssTracker {
    /// Passes over `observer` of the orbit drawn (the elements', fitted to the live feed when it is).
    public func passFinder(observer: LngLat) -> PassFinder? {
        guard let orbit = drawnOrbit else { return nil }
        return PassFinder(observer: Observer(latitude: observer.lat, longitude: observer.lng)) { t in
            orbit(t).map { Geodetic(latitude: $0.position.lat, longitude: $0.position.lng, heightKm: $0.altitudeKm).ecef }
        }
    }
}
