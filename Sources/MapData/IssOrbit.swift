import Foundation
import MapCore

/// The ISS orbit from a TLE file, propagated with SGP4 (the `Orbit` module).
public struct IssOrbit: Sendable {
    /// Sub-satellite point and altitude at a Unix time.
    public let position: IssTracker.Orbit
    /// The element set's epoch, Unix seconds.
    public let epoch: Double
    public let name: String

    /// Loads the newest element set of the file; nil when the file does not exist and was not asked for.
    public static func load(path: String) throws -> IssOrbit? {
        nil   // wired to SGP4 when the Orbit module lands
    }
}
