import Foundation
import MapCore

/// Where the ISS position comes from (`--iss`).
public enum IssMode: String, Sendable, CaseIterable {
    /// The live feed while it answers; the orbit from the TLE when it does not.
    case auto
    /// Only the live feed.
    case live
    /// Only the orbit propagated from the TLE.
    case tle
}

/// Where the orbit's element set came from.
public enum ElementsOrigin: String, Sendable {
    /// The set that ships with nightmap.
    case bundled
    /// The one a previous run downloaded.
    case cache
    /// Downloaded by this run.
    case download
    /// The file given with `--tle`.
    case file
}

/// One position of the ISS at one instant.
public struct IssFix: Equatable, Sendable {
    public enum Source: String, Sendable { case live, tle }
    /// Unix seconds (UTC).
    public var time: Double
    public var position: LngLat
    public var altitudeKm: Double
    public var source: Source

    public init(time: Double, position: LngLat, altitudeKm: Double, source: Source) {
        self.time = time; self.position = position; self.altitudeKm = altitudeKm; self.source = source
    }

    /// Checks a decoded fix: finite numbers, latitude within [-90, 90], longitude within
    /// [-180, 180] or [0, 360] (normalised to [-180, 180)); nil when out of range.
    public static func validated(time: Double, latitude: Double, longitude: Double, altitudeKm: Double,
                                 source: Source) -> IssFix? {
        guard time.isFinite, latitude.isFinite, longitude.isFinite, altitudeKm.isFinite,
              (-90...90).contains(latitude), (-180...360).contains(longitude), altitudeKm > 0, altitudeKm < 2000 else { return nil }
        return IssFix(time: time, position: LngLat(lng: longitude, lat: latitude).wrapped, altitudeKm: altitudeKm, source: source)
    }
}

/// Where the ISS is between fixes: propagated from the orbit when one is known, otherwise
/// moved on from the last two live fixes, so the icon glides instead of jumping once a second.
public struct IssTracker: Sendable {
    /// Sub-satellite point and altitude at a Unix time, from the orbit (nil when unavailable).
    public typealias Orbit = @Sendable (Double) -> (position: LngLat, altitudeKm: Double)?

    public let mode: IssMode
    public private(set) var orbit: Orbit?
    /// The epoch of the orbit's element set (Unix seconds), when there is one.
    public private(set) var orbitEpoch: Double?
    /// Where the element set came from.
    public private(set) var orbitOrigin: ElementsOrigin?
    public private(set) var lastLive: IssFix?
    public private(set) var previousLive: IssFix?
    /// The live fixes of the last minute (at most 8, newest last), which the orbit is fitted to.
    public private(set) var recentLive: [IssFix] = []
    /// How far the orbit of the elements puts the station from the newest fix, in km.
    public private(set) var orbitOffsetKm: Double?
    /// The shift that puts the orbit through the fixes, once two fixes show the way it moves;
    /// `fitGeneration` counts its changes, and those of `elementsStale` (the track is redrawn on each).
    public private(set) var fit: OrbitFit?
    public private(set) var fitGeneration = 0
    private var fitted: Orbit?
    /// The elements put the station this far from a fix, or more: they are stale.
    public static let staleKm = 20.0
    /// When the live feed last failed (Unix seconds), and why.
    public private(set) var lastFailure: (time: Double, reason: String)?

    public init(mode: IssMode, orbit: Orbit?, orbitEpoch: Double? = nil, orbitOrigin: ElementsOrigin? = nil) {
        self.mode = mode; self.orbit = orbit; self.orbitEpoch = orbitEpoch; self.orbitOrigin = orbitOrigin
    }

    /// A newer element set (downloaded while running).
    public mutating func use(_ orbit: IssOrbit, origin: ElementsOrigin) {
        self.orbit = orbit.position; orbitEpoch = orbit.epoch; orbitOrigin = origin
        fit = nil; fitted = nil; fitGeneration += 1
        refit()
    }

    /// The elements disagree with the live fixes by more than `staleKm`.
    public var elementsStale: Bool { (orbitOffsetKm ?? 0) > Self.staleKm }

    /// The orbit the track is drawn from and the icon moves along: the elements' orbit, shifted
    /// onto the live fixes once fitted.
    public var drawnOrbit: Orbit? {
        if let fitted { return fitted }          // (not `??`: its autoclosure allocated every frame)
        return orbit
    }

    /// Measures the orbit against the newest fix and fits it to the recent ones. A fit that still
    /// passes within a kilometre of the newest fix is kept (the track stays still); one that no
    /// longer fits is dropped.
    private mutating func refit() {
        guard let orbit, let last = recentLive.last else { return }
        let wasStale = elementsStale
        orbitOffsetKm = orbit(last.time).map { $0.position.distanceKm(to: last.position) }
        if elementsStale != wasStale { fitGeneration += 1 }     // the track drawn or not: redrawn
        if let fitted, let p = fitted(last.time), p.position.distanceKm(to: last.position) < 1 { return }
        let next = OrbitFit.fit(orbit, to: recentLive, near: fit?.dt ?? 0, tolerance: Self.staleKm)
        if next == nil && fit == nil { return }
        // No new fit (one fix after a pause in the feed, say): the old one stays while it is
        // within `staleKm` of the fix.
        if next == nil, let fitted, let p = fitted(last.time), p.position.distanceKm(to: last.position) < Self.staleKm { return }
        fit = next
        fitted = next.map { $0.apply(orbit) }
        fitGeneration += 1
    }

    /// A fix from the live feed. One not newer than the last is not shown, but it is a good
    /// answer: the feed works again.
    public mutating func receive(_ fix: IssFix) {
        lastFailure = nil
        if let last = lastLive, fix.time <= last.time { return }     // stale or repeated
        previousLive = lastLive
        lastLive = fix
        recentLive.append(fix)
        recentLive.removeAll { $0.time < fix.time - 60 }
        if recentLive.count > 8 { recentLive.removeFirst(recentLive.count - 8) }
        refit()
    }

    /// A failed request of the live feed: the last position stays; `auto` falls back to the orbit.
    public mutating func failed(at time: Double, reason: String) {
        lastFailure = (time, reason)
    }

    /// Whether the live feed is the source now.
    public func usesLive(at time: Double) -> Bool {
        switch mode {
        case .tle: return false
        case .live: return true
        case .auto:
            guard let fix = lastLive else { return orbit == nil }
            if let f = lastFailure, f.time >= fix.time { return orbit == nil }
            return time - fix.time < 3 || orbit == nil
        }
    }

    /// The position shown at `time`, its heading (degrees clockwise from north), its source and
    /// the age of the data it comes from (seconds).
    public func position(at time: Double) -> (fix: IssFix, bearing: Double, ageSeconds: Double)? {
        if !usesLive(at: time), let orbit = drawnOrbit, let now = orbit(time) {
            let ahead = orbit(time + 10)
            let bearing = ahead.map { Self.bearing(from: now.position, to: $0.position) } ?? 0
            return (IssFix(time: time, position: now.position, altitudeKm: now.altitudeKm, source: .tle), bearing, 0)
        }
        guard let last = lastLive else { return nil }
        // Carried on for up to 5 s past the newest fix: along the fitted orbit (the track's path)...
        let t = min(max(time, last.time - 60), last.time + 5)
        // (The altitude is the feed's: stale elements have the wrong one.)
        if let fitted, let now = fitted(t) {
            let bearing = fitted(t + 10).map { Self.bearing(from: now.position, to: $0.position) } ?? 0
            return (IssFix(time: time, position: now.position, altitudeKm: last.altitudeKm, source: .live), bearing, max(0, time - last.time))
        }
        // ... or, before there is one, along the last two fixes.
        guard let prev = previousLive, last.time > prev.time else { return (last, 0, max(0, time - last.time)) }
        let k = min(max(time - last.time, 0), 5) / (last.time - prev.time)
        var dl = last.position.lng - prev.position.lng
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let p = LngLat(lng: last.position.lng + dl * k,
                       lat: min(max(last.position.lat + (last.position.lat - prev.position.lat) * k, -90), 90)).wrapped
        let fix = IssFix(time: time, position: p, altitudeKm: last.altitudeKm, source: .live)
        return (fix, Self.bearing(from: prev.position, to: last.position), max(0, time - last.time))
    }

    /// Initial great-circle bearing in degrees clockwise from north.
    public static func bearing(from a: LngLat, to b: LngLat) -> Double {
        let f1 = a.lat * Double.pi / 180, f2 = b.lat * Double.pi / 180
        let dl = (b.lng - a.lng) * Double.pi / 180
        let y = sin(dl) * cos(f2), x = cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl)
        let d = atan2(y, x) * 180 / Double.pi
        return d < 0 ? d + 360 : d
    }

    /// The orbit from `start` to `end` (Unix seconds) sampled every `step` seconds: where the
    /// station is over the ground and how high, uncut (the globe has no antimeridian). None
    /// when the ground track is none.
    public func orbitPoints(from start: Double, to end: Double, step: Double = 30)
        -> [(time: Double, position: LngLat, altitudeKm: Double)] {
        guard let orbit = drawnOrbit, end > start, step > 0, fitted != nil || !elementsStale else { return [] }
        var out: [(time: Double, position: LngLat, altitudeKm: Double)] = []
        var t = start
        while t <= end + 1e-9 {
            if let p = orbit(t) { out.append((t, p.position, p.altitudeKm)) }
            t += step
        }
        return out
    }

    /// The ground track from `start` to `end` (Unix seconds) sampled every `step` seconds,
    /// cut where it crosses the antimeridian (each piece ends and starts exactly on +/-180).
    /// None while the elements are stale and not yet fitted: a track through the wrong place
    /// is not drawn.
    public func groundTrack(from start: Double, to end: Double, step: Double = 30) -> [[LngLat]] {
        guard let orbit = drawnOrbit, end > start, step > 0, fitted != nil || !elementsStale else { return [] }
        var points: [LngLat] = []
        var t = start
        while t <= end + 1e-9 {
            if let p = orbit(t)?.position { points.append(p) }
            t += step
        }
        return LngLat.cutAtAntimeridian(points)
    }
}
