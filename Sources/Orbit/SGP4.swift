/// Position (km) and velocity (km/s) in the True Equator, Mean Equinox (TEME) frame of SGP4.
public struct TEMEState: Sendable, Hashable {
    public var position: Vector3
    public var velocity: Vector3
    public init(position: Vector3, velocity: Vector3) {
        self.position = position
        self.velocity = velocity
    }
}

/// The SGP4/SDP4 propagator of Vallado, Crawford, Hujsak and Kelso, "Revisiting Spacetrack
/// Report #3" (AIAA 2006-6753), operation mode 'i' (improved: GMST by IAU-82, no AFSPC
/// intrinsic-function quirks), with WGS-72 constants by default.
///
/// The value is immutable and `Sendable`: initialisation (`sgp4init`, see `SGP4+Init.swift`)
/// computes every coefficient once, and `propagate` (`SGP4+Propagate.swift`) is a pure function of
/// the time. Orbits with a period of 225 minutes or more use the deep-space terms
/// (`SGP4+DeepSpace.swift`: `dscom`, `dpper`, `dsinit`, `dspace`).
///
/// The resonance integrator of `dspace` always starts from the epoch here, where the reference
/// code keeps the last integration step in `satrec` between calls; both take the same 720-minute
/// steps from the epoch, so the results are the same. The price is that a resonant (12 h or 24 h)
/// orbit costs one step per 12 hours from the epoch: about 1 µs a day out, 6 µs a month, 50 µs a
/// year (release build); other orbits take about 0.5-1 µs whatever the time.
public struct SGP4: Sendable {
    /// The mean elements the propagator was built from.
    public let elements: MeanElements
    /// Constants used (WGS-72 unless told otherwise).
    public let gravity: GravityModel

    // MARK: From initl

    /// `no_unkozai`: Brouwer (un-Kozai'd) mean motion, rad/min.
    var noUnkozai = 0.0
    /// `gsto`: Greenwich sidereal time at epoch, radians.
    var gsto = 0.0
    /// `rp`: radius of perigee at epoch, Earth radii.
    var rp = 0.0

    // MARK: Near-earth coefficients (sgp4init)

    /// `isimp`: simplified drag (perigee below 220 km, or deep space).
    var isimp = false
    var aycof = 0.0, con41 = 0.0, cc1 = 0.0, cc4 = 0.0, cc5 = 0.0
    var d2 = 0.0, d3 = 0.0, d4 = 0.0, delmo = 0.0, eta = 0.0
    var argpdot = 0.0, omgcof = 0.0, sinmao = 0.0
    var t2cof = 0.0, t3cof = 0.0, t4cof = 0.0, t5cof = 0.0
    var x1mth2 = 0.0, x7thm1 = 0.0, mdot = 0.0, nodedot = 0.0
    var xlcof = 0.0, xmcof = 0.0, nodecf = 0.0

    /// `method == 'd'`: the deep-space (SDP4) terms, or nil near the Earth.
    var deepSpace: DeepSpace?

    /// Builds the propagator for a TLE (WGS-72 unless told otherwise).
    public init(tle: TLE, gravity: GravityModel = .wgs72) {
        self.init(elements: tle.meanElements, gravity: gravity)
    }

    /// Orbital period from the un-Kozai'd mean motion, minutes.
    public var periodMinutes: Double { 2 * Double.pi / noUnkozai }

    /// True when the deep-space (SDP4) terms are used (period of 225 minutes or more).
    public var isDeepSpace: Bool { deepSpace != nil }

    /// The errors Vallado's 2006 `sgp4init` reported: code 5 when the perigee at epoch is below the
    /// surface, else whatever propagating to the epoch reports. Initialising never fails here, as
    /// in current versions of the reference code; call this to be told.
    public func checkEpoch() throws(SGP4Error) {
        if rp < 1.0 { throw .subOrbitalEpoch(perigeeRadius: rp) }
        _ = try propagate(minutesSinceEpoch: 0)
    }

    /// Minutes from the epoch to a UTC Julian date.
    public func minutesSinceEpoch(_ date: JulianDate) -> Double {
        date.days(since: elements.epoch) * 1440.0
    }

    /// TEME state at a UTC Julian date.
    public func propagate(to date: JulianDate) throws(SGP4Error) -> TEMEState {
        try propagate(minutesSinceEpoch: minutesSinceEpoch(date))
    }

    /// TEME state at a Unix time (seconds since 1970-01-01 0h UTC).
    public func propagate(unixSeconds: Double) throws(SGP4Error) -> TEMEState {
        try propagate(to: JulianDate(unixSeconds: unixSeconds))
    }
}
