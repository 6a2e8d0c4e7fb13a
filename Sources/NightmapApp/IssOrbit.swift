import Foundation
import MapCore
import MapData
import Orbit

/// The ISS orbit from a TLE file, propagated with SGP4 (the `Orbit` module): sub-satellite point
/// on WGS-84 and altitude at any instant.
public struct IssOrbit: Sendable {
    /// Sub-satellite point and altitude at a Unix time.
    public let position: IssTracker.Orbit
    /// The element set's epoch, Unix seconds.
    public let epoch: Double
    public let name: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The newest element set in the file (one line error naming the file when it is bad).
    public static func load(path: String) throws -> IssOrbit {
        let data: Data
        do { data = try DataFile.read(path, limit: 16 << 20) } catch { throw Failure(description: error.description) }
        guard let text = String(data: data, encoding: .utf8) else { throw Failure(description: "\(path): not UTF-8 text") }
        return try parse(text, origin: path)
    }

    /// The newest set in `text`. With `catalogNumber`, only sets of that satellite count; with
    /// `notAfter` (Unix seconds), a set whose epoch is later is refused (a clock or a server wrong).
    public static func parse(_ text: String, origin: String, catalogNumber: Int? = nil, notAfter: Double? = nil) throws -> IssOrbit {
        var sets: [TLE]
        do { sets = try TLE.parseAll(text) } catch { throw Failure(description: "\(origin): \(error)") }
        if let n = catalogNumber, let other = sets.first, !sets.contains(where: { $0.catalogNumber == n }) {
            throw Failure(description: "\(origin): no element set for catalogue number \(n) (it has \(other.catalogNumber))")
        }
        if let n = catalogNumber { sets = sets.filter { $0.catalogNumber == n } }
        guard let tle = sets.max(by: { $0.epochUnixSeconds < $1.epochUnixSeconds }) else {
            throw Failure(description: "\(origin): no two-line element set in the file")
        }
        if let limit = notAfter, tle.epochUnixSeconds > limit {
            let f = ISO8601DateFormatter()
            throw Failure(description: "\(origin): the element set's epoch \(f.string(from: Date(timeIntervalSince1970: tle.epochUnixSeconds))) is more than a day ahead of the clock")
        }
        let sgp4 = SGP4(tle: tle)
        do { _ = try sgp4.propagate(minutesSinceEpoch: 0) } catch {
            throw Failure(description: "\(origin): the element set cannot be propagated (\(error))")
        }
        return IssOrbit(position: { t in
            guard let g = try? sgp4.geodetic(unixSeconds: t) else { return nil }
            return (LngLat(lng: g.longitude, lat: g.latitude), g.heightKm)
        }, epoch: tle.epochUnixSeconds, name: tle.name ?? "satellite \(tle.catalogNumber)")
    }
}
