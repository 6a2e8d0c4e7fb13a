import Foundation
import MapCore
import NightmapApp
import MapData
import Raster
import Testing
@testable import nightmap

/// The ISS scene from the command line's point of view: the rocket where SGP4 puts it, follow
/// mode, the state's report, bad TLE files.
@Suite struct IssSceneTests {
    static let time = "2025-10-01T12:00:00Z"
    /// The bundled element set, named explicitly so that a cached newer one cannot change results.
    static let tle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/tle/iss.tle").standardizedFileURL.path

    @Test func snapshotDrawsTheRocketWhereThePropagatedPositionIs() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("iss-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let o = try Options.parse(["snapshot", "--radar", "demo", "-o", out, "--scene", "iss", "--time", Self.time, "--iss", "tle", "--tle", Self.tle, "--size", "800x500"])
        try Headless.snapshot(o)
        let pm = try PNGCodec.read(path: out)
        let model = try MapSetup.model(o)
        // Independently of the model: the bundled TLE propagated to the instant.
        let resources = try ResourceLocator.resourcesDirectory()
        let orbit = try IssOrbit.load(path: resources.appendingPathComponent("tle/iss.tle").path)
        let unix = try #require(Options.parseISO8601(Self.time))
        let p = try #require(orbit.position(unix)).position
        let s = model.camera.view.screen(p)
        // The icon's centre is on the rocket's white body.
        let c = pm.color(atX: Int(s.x.rounded()), y: Int(s.y.rounded()))
        #expect(Int(c.r) + Int(c.g) + Int(c.b) > 600, "at \(s): \(c)")
        // And nothing like it a rocket's length away on the far side of the globe.
        let far = pm.color(atX: (Int(s.x) + 400) % 800, y: 250)
        #expect(Int(far.r) + Int(far.g) + Int(far.b) < 600)
    }

    @Test func theIssSceneStartsOverTheWorldThenFollowsAtZoom3() throws {
        let start = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--time", Self.time, "--iss", "tle", "--tle", Self.tle]))
        #expect(start.camera.state.zoom == 1 && start.followsIss)
        let later = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--time", Self.time, "--iss", "tle", "--tle", Self.tle, "--elapsed", "12"]))
        let iss = try #require(later.issNow).fix.position
        #expect(later.camera.state.zoom == 3)
        #expect(abs(later.camera.state.center.lat - iss.lat) < 0.2 && abs(later.camera.state.center.lng - iss.lng) < 0.2)
    }

    @Test func fTogglesFollowAndDraggingEndsIt() throws {
        var m = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--time", Self.time, "--iss", "tle", "--tle", Self.tle]))
        #expect(!m.followsIss)
        m.apply(.toggleFollow, now: 0)
        #expect(m.followsIss)
        m.advance(to: 0.5)
        #expect(m.camera.isAnimating)
        m.apply(.pan(dx: 10, dy: 0), now: 0.6)
        #expect(!m.followsIss)
    }

    @Test func stateReportsTheSourceAndTheTLEAge() throws {
        let json = try JSONSerialization.jsonObject(with: Data(try Headless.state(try Options.parse(
            ["state", "--scene", "iss", "--time", "2025-10-11T11:59:38Z", "--iss", "tle", "--tle", Self.tle])).utf8)) as? [String: Any]
        let iss = try #require(json?["iss"] as? [String: Any])
        #expect(iss["source"] as? String == "tle")
        #expect(iss["tleEpoch"] as? String == "2025-10-01T11:59:38Z")
        #expect(abs((iss["tleAgeDays"] as? Double ?? 0) - 10) < 0.001)
        #expect((iss["altitudeKm"] as? Double ?? 0) > 380 && (iss["altitudeKm"] as? Double ?? 0) < 450)
    }

    @Test func aBadTLEFileIsAOneLineError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).tle").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        ISS (ZARYA)
        1 25544U 98067A   25274.49975208  .00018288  00000-0  33242-3 0  9997
        2 25544  51.6325 140.1428 0001055 183.8834 176.2147 15.49589290531650
        """.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--tle", path, "--iss", "tle"]))
            Issue.record("bad checksum accepted")
        } catch {
            let s = "\(error)"
            #expect(s.hasPrefix(path) && s.contains("checksum") && !s.contains("\n"), "\(s)")
        }
    }
}
