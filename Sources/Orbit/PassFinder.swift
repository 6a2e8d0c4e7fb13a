/// One pass of a satellite over an observer: from rising above the geometric horizon to setting
/// below it.
public struct Pass: Sendable, Equatable {
    /// Unix seconds (UTC).
    public var rise: Double, culmination: Double, set: Double
    /// Degrees: the elevation at the culmination, the azimuths at rise and set.
    public var maxElevation: Double, riseAzimuth: Double, setAzimuth: Double
    /// Seen by eye: at some moment of it the satellite is sunlit while the observer's Sun is at
    /// or below -6 degrees (civil twilight's end), the satellite above the minimum elevation.
    public var visible: Bool
}

/// Finds passes from a satellite's Earth-fixed position as a function of time: the elevation is
/// scanned every `step` seconds; each crossing of the horizon is bisected to a millisecond and
/// the culmination found by golden-section search (the elevation has one maximum in a pass).
/// A pass whose whole time above the horizon falls between two samples (a graze of a degree or
/// less at a 20 s step for a low orbit) is not seen.
public struct PassFinder: Sendable {
    public typealias Position = @Sendable (Double) -> Vector3?
    public let position: Position
    public let observer: Observer
    public let step: Double

    public init(observer: Observer, step: Double = 20, position: @escaping Position) {
        self.observer = observer; self.step = step; self.position = position
    }

    /// The elevation at `t`, degrees (nil where the position is unknown).
    public func elevation(_ t: Double) -> Double? { position(t).map { observer.look(at: $0).elevation } }

    /// The passes that set after `start` and rise before `end`, in time order, whose maximum
    /// elevation reaches `minElevation`. One under way at `start` is given whole.
    public func passes(from start: Double, to end: Double, minElevation: Double = 0) -> [Pass] {
        var out: [Pass] = []
        // Back from the start to the horizon, if the satellite is up then.
        var t = start
        if let e = elevation(t), e >= 0 {
            var back = 0
            while back < 180, let e = elevation(t - step), e >= 0 { t -= step; back += 1 }
            t -= step
        }
        var previous = elevation(t)
        var rise: Double?
        while t < end || rise != nil {
            let next = t + step
            guard let e = elevation(next) else { previous = nil; rise = nil; t = next; continue }
            if let p = previous {
                if p < 0 && e >= 0 { rise = crossing(t, next, rising: true) }
                if p >= 0 && e < 0, let r = rise {
                    let s = crossing(t, next, rising: false)
                    if s > start, let pass = pass(rise: r, set: s, minElevation: minElevation) { out.append(pass) }
                    rise = nil
                    if next >= end { break }
                }
            }
            previous = e
            t = next
            if t > end + 2 * 3600 { break }        // (a pass never lasts two hours)
        }
        return out
    }

    /// The instant the elevation crosses 0 between `a` and `b`, to a millisecond.
    public func crossing(_ a: Double, _ b: Double, rising: Bool) -> Double {
        var (lo, hi) = (a, b)
        while hi - lo > 1e-3 {
            let m = (lo + hi) / 2
            guard let e = elevation(m) else { break }
            if (e >= 0) == rising { hi = m } else { lo = m }
        }
        return (lo + hi) / 2
    }

    private func pass(rise: Double, set: Double, minElevation: Double) -> Pass? {
        // Golden-section search for the highest elevation.
        let g = (5.0.squareRoot() - 1) / 2
        var (a, b) = (rise, set)
        var c = b - g * (b - a), d = a + g * (b - a)
        var ec = elevation(c) ?? -90, ed = elevation(d) ?? -90
        while b - a > 1e-2 {
            if ec > ed { b = d; d = c; ed = ec; c = b - g * (b - a); ec = elevation(c) ?? -90 }
            else { a = c; c = d; ec = ed; d = a + g * (b - a); ed = elevation(d) ?? -90 }
        }
        let top = (a + b) / 2
        guard let culmination = position(top), let up = position(rise), let down = position(set) else { return nil }
        let maxElevation = observer.look(at: culmination).elevation
        guard maxElevation >= minElevation else { return nil }
        // Visible: sampled every 10 s, and at the culmination.
        var visible = false
        var t = rise
        while t <= set && !visible {
            visible = seenByEye(t, minElevation: minElevation)
            t += 10
        }
        if !visible { visible = seenByEye(top, minElevation: minElevation) }
        return Pass(rise: rise, culmination: top, set: set, maxElevation: maxElevation,
                    riseAzimuth: observer.look(at: up).azimuth, setAzimuth: observer.look(at: down).azimuth, visible: visible)
    }

    /// The satellite sunlit, above `minElevation`, with the observer's Sun at or below -6 degrees.
    public func seenByEye(_ t: Double, minElevation: Double = 0) -> Bool {
        guard let p = position(t), observer.look(at: p).elevation >= minElevation else { return false }
        let sun = Sun(unixSeconds: t)
        return sun.elevation(latitude: observer.place.latitude, longitude: observer.place.longitude) <= -6 && sun.illuminates(p)
    }
}
