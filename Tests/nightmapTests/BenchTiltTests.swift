import Foundation
import NightmapApp
import Testing
@testable import nightmap

/// `make bench` measures the tilted street frame beside the flat one (issue 42): `streets-3d`
/// is `streets` at pitch 60 with the buildings raised, and the table ends with their ratio.
@Suite struct BenchTiltTests {
    @Test func theTiltedStreetFrameIsMeasuredBesideTheFlatOne() throws {
        let tilted = try #require(Headless.scenarios.first { $0.name == "streets-3d" })
        #expect(tilted.pitch == 60 && tilted.buildings == .threeD && tilted.scene == "streets" && tilted.threads == 1)
        let flat = try #require(Headless.scenarios.first { $0.name == "streets" })
        #expect(flat.pitch == nil && flat.buildings == nil)
        let o = try Options.parse(["bench", "--frames", "2", "--size", "320x200", "--scenario", "streets,streets-3d", "--iss", "tle",
                                   "--tle-url", "none", "--alerts-url", "none", "--time", "2026-12-01T12:00:00Z"])
        let table = try Headless.bench(o, startedAt: 0)
        #expect(table.contains("\nstreets (1) ") && table.contains("\nstreets-3d (1) "))
        #expect(table.contains("tilt: streets-3d takes "), "\(table)")
    }
}
