/// The error codes of Vallado's SGP4 (`satrec.error`).
public enum SGP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1: mean elements out of range: eccentricity >= 1 or < -0.001, or semi-major axis < 0.95 Earth radii.
    case meanElements(eccentricity: Double, semiMajorAxis: Double)
    /// 2: mean motion less than (or equal to) zero.
    case meanMotion(Double)
    /// 3: perturbed elements: eccentricity < 0 or > 1 (deep space, after lunar-solar periodics).
    case perturbedEccentricity(Double)
    /// 4: semi-latus rectum < 0.
    case semiLatusRectum(Double)
    /// 5: the epoch elements are sub-orbital (perigee below the surface). Reported only by
    /// `SGP4.checkEpoch()`: current versions of the reference code no longer stop for it and let
    /// code 6 catch a decay, which the verification data relies on (28872 starts below ground).
    case subOrbitalEpoch(perigeeRadius: Double)
    /// 6: the satellite has decayed (radius < 1 Earth radius).
    case decayed(radius: Double)

    /// Vallado's error number.
    public var code: Int {
        switch self {
        case .meanElements: 1
        case .meanMotion: 2
        case .perturbedEccentricity: 3
        case .semiLatusRectum: 4
        case .subOrbitalEpoch: 5
        case .decayed: 6
        }
    }

    public var description: String {
        switch self {
        case let .meanElements(e, a):
            "SGP4 error 1: mean elements out of range (eccentricity \(e), semi-major axis \(a) Earth radii)"
        case let .meanMotion(n):
            "SGP4 error 2: mean motion \(n) rad/min is not positive"
        case let .perturbedEccentricity(e):
            "SGP4 error 3: perturbed eccentricity \(e) is outside 0...1"
        case let .semiLatusRectum(p):
            "SGP4 error 4: semi-latus rectum \(p) is negative"
        case let .subOrbitalEpoch(rp):
            "SGP4 error 5: epoch elements are sub-orbital (perigee radius \(rp) Earth radii)"
        case let .decayed(r):
            "SGP4 error 6: satellite has decayed (radius \(r) Earth radii)"
        }
    }
}
