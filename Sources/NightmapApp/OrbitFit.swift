import Foundation
import MapCore

/// An orbit moved onto the live fixes: propagated `dt` seconds ahead and turned `dLng` degrees
/// east about the Earth's axis, which is shifting its time and its node. Stale elements put the
/// station hundreds of kilometres along its path from where it is (drag changes the period), and
/// their node drifts; both are undone this way, and the shifted orbit keeps the shape of the
/// path (inclination, altitude), so the track drawn from it passes through the fixes.
public struct OrbitFit: Equatable, Sendable {
    public var dt: Double
    public var dLng: Double

    /// The orbit, shifted.
    public func apply(_ orbit: @escaping IssTracker.Orbit) -> IssTracker.Orbit {
        let (dt, dLng) = (dt, dLng)
        return { t in
            guard let p = orbit(t + dt) else { return nil }
            return (LngLat(lng: p.position.lng + dLng, lat: p.position.lat).wrapped, p.altitudeKm)
        }
    }

    /// The shift that puts `orbit` through the newest fix, moving the way the fixes move (north
    /// or south; with a single fix, the way the orbit moves, when it is within `tolerance`). The time shift is searched over one revolution around `near` (the last fit's,
    /// which keeps successive fits on the same pass), and the one nearest it is taken. Nil
    /// without fixes that show the direction, or when no shift fits all the fixes within
    /// `tolerance` km (the orbit is not this station's).
    public static func fit(_ orbit: @escaping IssTracker.Orbit, to fixes: [IssFix], near: Double = 0, tolerance: Double = 20) -> OrbitFit? {
        guard let last = fixes.last, let here = orbit(last.time) else { return nil }
        // Which way the station moves: from the fixes, or, with one fix the orbit agrees with,
        // from the orbit.
        let northward: Double
        if let first = fixes.first(where: { last.time - $0.time >= 0.5 }) {
            northward = last.position.lat - first.position.lat
        } else if here.position.distanceKm(to: last.position) <= tolerance, let ahead = orbit(last.time + 1) {
            northward = ahead.position.lat - here.position.lat
        } else {
            return nil
        }
        guard abs(northward) > 1e-4 else { return nil }        // too close to the turn: wait for more
        let radius = 6378.137 + here.altitudeKm
        let period = 2 * Double.pi * (radius * radius * radius / 398_600.4418).squareRoot()
        // g(dt): the shifted orbit's latitude at the newest fix's time, less the fix's.
        func g(_ dt: Double) -> Double? { orbit(last.time + dt).map { $0.position.lat - last.position.lat } }
        let step = 20.0
        var best: (dt: Double, cost: Double)?
        var previous: (dt: Double, g: Double)?
        var dt = near - period / 2
        while dt <= near + period / 2 + 1e-9 {
            guard let v = g(dt) else { previous = nil; dt += step; continue }
            if let p = previous, (p.g < 0) != (v < 0), (v - p.g) * northward > 0 {
                // The latitude crosses the fix's, moving the fixes' way: bisect to a millisecond.
                var (a, b, ga) = (p.dt, dt, p.g)
                while b - a > 1e-3 {
                    let m = (a + b) / 2
                    guard let gm = g(m) else { break }
                    if (gm < 0) == (ga < 0) { (a, ga) = (m, gm) } else { b = m }
                }
                let root = (a + b) / 2
                if best.map({ abs(root - near) < abs($0.dt - near) }) ?? true { best = (root, abs(root - near)) }
            }
            previous = (dt, v)
            dt += step
        }
        // A fix beyond the orbit's highest latitude (a slightly different inclination): the
        // nearest approach, at the turn.
        if best == nil {
            var turn: (dt: Double, gap: Double)?
            var t = near - period / 2
            while t <= near + period / 2 {
                if let v = g(t), turn.map({ abs(v) < $0.gap }) ?? true { turn = (t, abs(v)) }
                t += step
            }
            guard let turn, turn.gap < 0.5 else { return nil }
            best = (turn.dt, 0)
        }
        guard let chosen = best, let p = orbit(last.time + chosen.dt) else { return nil }
        var dLng = last.position.lng - p.position.lng
        dLng -= 360 * ((dLng + 180) / 360).rounded(.down)
        let shift = OrbitFit(dt: chosen.dt, dLng: dLng)
        let shifted = shift.apply(orbit)
        for f in fixes {
            guard let q = shifted(f.time), q.position.distanceKm(to: f.position) <= tolerance else { return nil }
        }
        return shift
    }
}
