import Foundation
import MapCore

/// ISS passes as skyfield finds them (`Tests/Fixtures/passes/passes.json`, see make_passes.py):
/// the reference of both the pass finder's tests and `nightmap passes`.
public struct PassesFixture: Sendable {
    /// One pass, as the fixture lists it and as `nightmap passes --json` prints it.
    public struct Pass: Sendable {
        public let rise: String, culminate: String, set: String
        public let maxElevation: Double, riseAzimuth: Double, setAzimuth: Double
        public let visible: Bool

        public init(_ json: JSON) throws {
            rise = try json.member("rise", \.stringValue)
            culminate = try json.member("culminate", \.stringValue)
            set = try json.member("set", \.stringValue)
            maxElevation = try json.member("maxElevation", \.numberValue)
            riseAzimuth = try json.member("riseAzimuth", \.numberValue)
            setAzimuth = try json.member("setAzimuth", \.numberValue)
            visible = try json.member("visible", \.boolValue)
        }
    }

    public struct Place: Sendable {
        public let name: String, lat: Double, lon: Double
        public let passes: [Pass]
    }

    /// The two lines of the element set the passes are computed from.
    public let tle: [String]
    /// The first instant searched (ISO 8601), and for how many days.
    public let start: String, days: Double
    public let observers: [Place]

    /// The fixture file, found from this file's path.
    public static func load() throws -> PassesFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/passes/passes.json")
        let json = try JSON.parse(contentsOf: url.standardizedFileURL)
        return PassesFixture(
            tle: try json.member("tle") { $0.arrayOf(\.stringValue) },
            start: try json.member("start", \.stringValue), days: try json.member("days", \.numberValue),
            observers: try json.member("observers", \.arrayValue).map { p in
                Place(name: try p.member("name", \.stringValue), lat: try p.member("lat", \.numberValue),
                      lon: try p.member("lon", \.numberValue), passes: try p.member("passes", \.arrayValue).map(Pass.init))
            })
    }
}
