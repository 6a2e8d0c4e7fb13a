import Foundation
import MapCore
import NightmapApp
import MapData
import Raster
import Testing
@testable import nightmap

/// The pulse seen in pixels of `nightmap snapshot --scene route --elapsed T`.
@Suite struct PulseSnapshotTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/route10.geojson").path

    /// Renders through the snapshot command into a PNG and reads it back.
    func snapshot(elapsed: Double) throws -> (Pixmap, MapApp) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pulse-\(elapsed)-\(UUID().uuidString).png").path
        // The radar is moved out of the way: only the route changes between instants (and the
        // instant is pinned to a morning, so no terminator crosses the route between two).
        let o = try Options.parse(["snapshot", "--radar", "demo", "-o", out, "--scene", "route", "--route", Self.fixture,
                                   "--radar-bounds=-100,30,-99,31", "--size", "640x400", "--elapsed=\(elapsed)",
                                   "--time", "2025-10-01T15:00:00Z"])
        try Headless.snapshot(o)
        defer { try? FileManager.default.removeItem(atPath: out) }
        return (try PNGCodec.read(path: out), try MapSetup.model(o))
    }

    /// The middle vertex of each step, on screen.
    func probes(_ model: MapApp) throws -> [(Int, Int)] {
        let steps = try RouteFile.read(path: Self.fixture)
        return steps.map { step in
            let p = model.camera.view.screen(step[0][1])
            return (Int(p.x), Int(p.y))
        }
    }

    @Test(arguments: [0.0, 0.075, 0.2, 0.375, 0.6, 1.35, 1.55])
    func stepOpacityInPixels(elapsed t: Double) throws {
        let (quiet, _) = try snapshot(elapsed: 1.3)           // every step at opacity 0
        let (pm, model) = try snapshot(elapsed: t)
        #expect(model.pulse?.stepCount == 10)
        for (i, (x, y)) in try probes(model).enumerated() {
            let alpha = RoutePulseTests_expected(step: i, at: t)
            let bg = Int(quiet.color(atX: x, y: y).r)
            let want = Double(bg) + (255 - Double(bg)) * alpha
            let got = Int(pm.color(atX: x, y: y).r)
            #expect(abs(Double(got) - want) <= 2.5, "step \(i) at \(t): pixel \(got), expected \(want) (opacity \(alpha))")
        }
    }

    @Test func stateReportsThePulse() throws {
        let o = try Options.parse(["state", "--radar", "demo", "--scene", "route", "--route", Self.fixture, "--iss", "tle", "--tle-url", "none", "--alerts-url", "none"])
        let json = try JSON.parse(Data(try Headless.state(o).utf8), name: "state").objectValue
        let pulse = json?["pulse"]?.objectValue
        #expect(pulse?["running"] == .bool(true))
        #expect(pulse?["steps"] == .number(10))
        #expect(abs((pulse?["period"]?.numberValue ?? 0) - 1.35) < 1e-9)
        #expect(json?["scene"] == .string("route"))
    }

    @Test func badRouteFilesGetOneLineErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, String)] = [
            ("{not json", "not valid JSON"),
            ("[1, 2]", "top level is not a GeoJSON object"),
            (#"{"type": "Point", "coordinates": [0, 0]}"#, "GeoJSON type \"Point\" has no lines"),
            (#"{"type": "LineString", "coordinates": [[0, 0]]}"#, "has 1 position(s), a line needs 2"),
            (#"{"type": "LineString", "coordinates": [[0, 0], [200, 0]]}"#, "outside longitude"),
            (#"{"type": "LineString", "coordinates": [[0, 0], ["a", 0]]}"#, "is not a [longitude, latitude] position"),
            (#"{"type": "FeatureCollection", "features": []}"#, "no LineString or MultiLineString features"),
            (#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString"}}]}"#, "coordinates is not an array"),
        ]
        for (i, (text, message)) in cases.enumerated() {
            let path = dir.appendingPathComponent("r\(i).geojson").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try RouteFile.read(path: path)
                Issue.record("case \(i) was accepted")
            } catch {
                let s = "\(error)"
                #expect(s.hasPrefix(path + ": ") && s.contains(message) && !s.contains("\n"), "case \(i): \(s)")
            }
        }
        #expect(throws: (any Error).self) { try RouteFile.read(path: dir.appendingPathComponent("missing.geojson").path) }
    }

    @Test func multiLineStringPartsAreSteps() throws {
        let steps = try RouteFile.decode(Data(#"{"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[1, 1], [2, 0]], [[2, 0], [3, 1]]]}"#.utf8), origin: "x")
        #expect(steps.count == 3)
    }
}

/// The snippet's schedule for a 10-step route (period 1.35 s), written out independently.
func RoutePulseTests_expected(step i: Int, at t: Double) -> Double {
    func ease(_ x: Double) -> Double {
        func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double { let u = 1 - s; return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 { let m = (lo + hi) / 2; if bez(m, 0.25, 0.25) < x { lo = m } else { hi = m } }
        return bez((lo + hi) / 2, 0.1, 1)
    }
    let local = t.truncatingRemainder(dividingBy: 1.35) - Double(i) * 0.075
    if local < 0 { return 0 }
    if local < 0.3 { return 0.95 * ease(local / 0.3) }
    if local < 0.6 { return 0.95 * (1 - ease((local - 0.3) / 0.3)) }
    return 0
}
