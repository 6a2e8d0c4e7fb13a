/// SGP4 mean elements (Kozai mean motion) in the units `sgp4init` takes them.
public struct MeanElements: Sendable, Hashable {
    /// Epoch (UTC Julian date).
    public var epoch: JulianDate
    /// `bstar`: drag term, 1/Earth radii.
    public var bstar: Double
    /// `ndot`, `nddot`: the TLE's ndot/2 and nddot/6 in rad/min² and rad/min³ (not used by SGP4).
    public var ndot: Double
    public var nddot: Double
    /// `ecco`
    public var eccentricity: Double
    /// `argpo`, radians.
    public var argumentOfPerigee: Double
    /// `inclo`, radians.
    public var inclination: Double
    /// `mo`, radians.
    public var meanAnomaly: Double
    /// `no_kozai`: Kozai mean motion, radians per minute.
    public var meanMotion: Double
    /// `nodeo`: right ascension of the ascending node, radians.
    public var raan: Double

    public init(epoch: JulianDate, bstar: Double, ndot: Double = 0, nddot: Double = 0,
                eccentricity: Double, argumentOfPerigee: Double, inclination: Double,
                meanAnomaly: Double, meanMotion: Double, raan: Double) {
        self.epoch = epoch
        self.bstar = bstar
        self.ndot = ndot
        self.nddot = nddot
        self.eccentricity = eccentricity
        self.argumentOfPerigee = argumentOfPerigee
        self.inclination = inclination
        self.meanAnomaly = meanAnomaly
        self.meanMotion = meanMotion
        self.raan = raan
    }

    /// Vallado's `epoch`: days since 1949 December 31 0h UT, i.e. JD - 2433281.5.
    var daysSince1950: Double { (epoch.day + epoch.fraction) - SGP4Math.jd1950 }
}
