import Foundation
import MapCore
import NightmapApp
import MapData
import Raster
import Testing
import TestSupport
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

    @Test func theIssSceneStartsOnTheGlobeThenFollowsAtZoom3() throws {
        let start = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--time", Self.time, "--iss", "tle", "--tle", Self.tle]))
        #expect(start.camera.state.zoom == 2 && start.followsIss)
        #expect(start.camera.view.globe != nil && start.camera.view.globeness == 1)
        // `--projection mercator` keeps the flat map.
        let flat = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--time", Self.time, "--iss", "tle",
                                                         "--tle", Self.tle, "--projection", "mercator"]))
        #expect(flat.camera.view.globe == nil)
        let later = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--time", Self.time, "--iss", "tle", "--tle", Self.tle, "--elapsed", "12"]))
        let iss = try #require(later.issNow).fix.position
        #expect(later.camera.state.zoom == 3 && later.camera.view.globe != nil)
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
        let json = try JSON.parse(try Headless.state(try Options.parse(
            ["state", "--radar", "demo", "--scene", "iss", "--time", "2025-10-11T11:59:38Z", "--iss", "tle", "--tle", Self.tle])), name: "state")
        let iss = try #require(json["iss"])
        #expect(iss["source"] == .string("tle"))
        #expect(iss["tleEpoch"] == .string("2025-10-01T11:59:38Z"))
        #expect(abs((iss["tleAgeDays"]?.numberValue ?? 0) - 10) < 0.001)
        #expect((iss["altitudeKm"]?.numberValue ?? 0) > 380 && (iss["altitudeKm"]?.numberValue ?? 0) < 450)
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

    /// A stale set is replaced by the one the refresh downloads (from a local stand-in for
    /// CelesTrak): the orbit, `state`'s epoch, age and origin all follow it.
    @Test func aDownloadedSetReplacesTheStaleOne() throws {
        let bundled = try String(contentsOfFile: Self.tle, encoding: .utf8).split(separator: "\n").map(String.init)
        func checksummed(_ l: String) -> String {
            String(l.prefix(68)) + String(l.prefix(68).reduce(0) { $0 + ($1 == "-" ? 1 : Int(String($1)) ?? 0) } % 10)
        }
        let l1 = bundled[bundled.count - 2], l2 = bundled[bundled.count - 1]
        let fresh = "ISS (ZARYA)\n" + checksummed(String(l1.prefix(18)) + "26335.00000000" + String(l1.dropFirst(32))) + "\n" + l2 + "\n"
        let server = try LocalHTTPServer(.json(fresh))
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tle-\(UUID().uuidString)/iss.tle")
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let o = try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--iss", "tle", "--time", "2026-12-01T06:00:00Z",
                                   "--tle-url", "http://127.0.0.1:\(server.port)/gp.php?CATNR=25544&FORMAT=TLE"])
        var m = try MapSetup.model(o)
        let refresh = try #require(MapSetup.elementsRefresh(m, o, cache: cache))
        let instant = m.clockOrigin + m.now
        let outcome = refresh.run(now: instant, instant: instant, newestEpoch: 1_759_319_978)
        var reports: [String] = []
        MapSetup.apply(outcome, to: &m) { reports.append($0) }
        #expect(reports.isEmpty && server.requests == 1, "\(reports)")
        #expect(m.iss?.orbitOrigin == .download && m.issOrbitEpoch == 1_796_083_200)
        m.advance(to: m.now)
        let json = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        let iss = try #require(json["iss"])
        #expect(iss["tleOrigin"] == .string("download") && iss["tleRefresh"] == .string("downloaded"))
        #expect(iss["tleEpoch"] == .string("2026-12-01T00:00:00Z") && abs((iss["tleAgeDays"]?.numberValue ?? 0) - 0.25) < 1e-6)
        // The position is the new set's, six hours on.
        let expected = try #require(try IssOrbit.parse(fresh, origin: "fresh").position(instant))
        let shown = try #require(m.issNow).fix.position
        #expect(abs(shown.lat - expected.position.lat) < 1e-9 && abs(shown.lng - expected.position.lng) < 1e-9)
        // A refusal is said once, and kept for `state`.
        server.behaviour = .status(403, "GP data has not updated")
        MapSetup.apply(ElementsRefresh(url: refresh.url, cache: cache.appendingPathExtension("other")).run(now: instant + 8000, instant: instant, newestEpoch: 0),
                       to: &m) { reports.append($0) }
        #expect(reports.count == 1 && reports[0].contains("HTTP 403") && (m.elementsRefresh ?? "").contains("HTTP 403"), "\(reports)")
    }

    @Test func noRefreshWithAFileOrNone() throws {
        let file = try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--tle", Self.tle])
        #expect(MapSetup.elementsRefresh(try MapSetup.model(file), file) == nil)
        let none = try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--tle-url", "none"])
        #expect(MapSetup.elementsRefresh(try MapSetup.model(none), none) == nil)
        let standard = try Options.parse(["state", "--radar", "demo", "--iss", "tle"])
        #expect(MapSetup.elementsRefresh(try MapSetup.model(standard), standard)?.url.absoluteString
            == "https://celestrak.org/NORAD/elements/gp.php?CATNR=25544&FORMAT=TLE")
        #expect(throws: (any Error).self) { try Options.parse(["state", "--tle-url", "ftp://x/y"]) }
    }

    /// A feed (a local stand-in) serving positions propagated from the 2025-10-01 set, one second
    /// apart from 12:00:00, while the orbit comes from `tle`: what `state` reports.
    static func stateWithFeed(tle: String) throws -> JSON {
        let fresh = try IssOrbit.load(path: Self.tle)
        let start = 1_759_320_000.0        // 2025-10-01 12:00:00 UTC
        let asked = Requests()
        let server = try LocalHTTPServer(.route { _ in
            let t = start + Double(asked.next())
            guard let p = fresh.position(t) else { return .status(500, "no") }
            return .json(#"{"latitude": \#(p.position.lat), "longitude": \#(p.position.lng), "altitude": \#(p.altitudeKm), "timestamp": \#(Int(t))}"#)
        })
        defer { server.stop() }
        let o = try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--iss", "live", "--iss-url", server.url.absoluteString,
                                   "--tle", tle, "--time", "2025-10-01T12:00:00Z"])
        return try JSON.parse(try Headless.state(o), name: "state")
    }

    /// Elements 80 days stale put the station thousands of km away; the track is fitted through
    /// the fixes, and the status says so.
    @Test func staleElementsAreFittedToTheFeed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let stale = dir.appendingPathComponent("july.tle").path
        try """
        ISS (ZARYA)
        1 25544U 98067A   25194.43411487  .00010152  00000-0  18227-3 0  9995
        2 25544  51.6340 176.9702 0002675   6.8375 353.2650 15.50520436519237
        """.write(toFile: stale, atomically: true, encoding: .utf8)
        let json = try Self.stateWithFeed(tle: stale)
        let iss = try #require(json["iss"])
        #expect(iss["source"] == .string("live"))
        #expect((iss["orbitOffsetKm"]?.numberValue ?? 0) > 100, "\(iss)")
        #expect(iss["elementsStale"] == .bool(true))
        let offset = try #require(iss["trackOffsetKm"]?.numberValue, "no track: \(iss)")
        #expect(offset < 20, "\(iss)")
        let status = try #require(json["overlay"]?["statusText"]?.stringValue)
        #expect(status.contains("elements stale"), "\(status)")
    }

    /// The issue's case: a feed that puts the station where the stale orbit cannot be, and does
    /// not move (no way to fit): the station is drawn where the feed says, and no track at all.
    @Test func aFeedTheOrbitCannotFitDrawsNoTrack() throws {
        let asked = Requests()
        let server = try LocalHTTPServer(.route { _ in
            .json(#"{"latitude": 12.5, "longitude": -45.25, "altitude": 420, "timestamp": \#(1_759_320_000 + asked.next())}"#)
        })
        defer { server.stop() }
        let o = try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--iss", "live", "--iss-url", server.url.absoluteString,
                                   "--tle", Self.tle, "--time", "2025-10-01T12:00:00Z"])
        let json = try JSON.parse(try Headless.state(o), name: "state")
        let iss = try #require(json["iss"])
        #expect(iss["lat"] == .number(12.5) && iss["lon"] == .number(-45.25))
        #expect(iss["trackOffsetKm"] == .null && iss["elementsStale"] == .bool(true), "\(iss)")
        #expect((json["overlay"]?["statusText"]?.stringValue ?? "").contains("ISS live, elements stale: no track"))
    }

    /// With the set the feed comes from, the track passes through the station.
    @Test func freshElementsAgreeWithTheFeed() throws {
        let json = try Self.stateWithFeed(tle: Self.tle)
        let iss = try #require(json["iss"])
        #expect((iss["orbitOffsetKm"]?.numberValue ?? 99) < 1, "\(iss)")
        #expect(iss["elementsStale"] == .bool(false))
        #expect((iss["trackOffsetKm"]?.numberValue ?? 99) < 5, "\(iss)")
        let status = try #require(json["overlay"]?["statusText"]?.stringValue)
        #expect(!status.contains("stale"), "\(status)")
    }
}

/// A count of requests shared by the stand-in's threads.
final class Requests: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    /// The count before this request.
    func next() -> Int { lock.lock(); defer { n += 1; lock.unlock() }; return n }
}
