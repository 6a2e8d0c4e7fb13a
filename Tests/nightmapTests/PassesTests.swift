import Foundation
import MapCore
import NightmapApp
import Orbit
import Testing
import TestSupport
@testable import nightmap

/// `nightmap passes`, the observer on the map, the seen part of the track and `o`.
@Suite struct PassesTests {
    static let tle = IssSceneTests.tle
    static let newYork = ["--observer", "40.7128,-74.0060"]
    static let fixed = ["--radar", "demo", "--iss", "tle", "--tle", tle, "--time", "2025-10-01T12:00:00Z"]

    static func unix(_ iso: String) -> Double {
        let parts = iso.dropLast().split(separator: ".")
        let d = ISO8601DateFormatter().date(from: String(parts[0]) + "Z")?.timeIntervalSince1970 ?? .nan
        return d + (parts.count > 1 ? Double("0." + parts[1]) ?? 0 : 0)
    }

    /// The JSON of three days over New York, against skyfield's passes of 10 degrees or more.
    @Test func jsonListsSkyfieldsPasses() throws {
        let out = try Passes.run(try Options.parse(["passes", "--json"] + Self.newYork + Self.fixed))
        let rows = try #require(try JSON.parse(out, name: "passes --json").arrayValue).map(PassesFixture.Pass.init)
        let fixture = try PassesFixture.load()
        let expected = try #require(fixture.observers.first { $0.name == "New York" }).passes.filter { $0.maxElevation >= 10 }
        #expect(rows.count == expected.count && rows.count >= 10)
        for (r, e) in zip(rows, expected) {
            #expect(abs(Self.unix(r.rise) - Self.unix(e.rise)) < 10 && abs(Self.unix(r.set) - Self.unix(e.set)) < 10, "\(r.rise) vs \(e.rise)")
            #expect(abs(Self.unix(r.culminate) - Self.unix(e.culminate)) < 10)
            #expect(abs(r.maxElevation - e.maxElevation) < 0.1 && r.visible == e.visible, "\(r) vs \(e)")
        }
        #expect(zip(rows, rows.dropFirst()).allSatisfy { Self.unix($0.set) < Self.unix($1.rise) })
        // The table says the same in words: one line a pass, with both times and the compass.
        let table = try Passes.run(try Options.parse(["passes", "--days", "1"] + Self.newYork + Self.fixed))
        let lines = table.split(separator: "\n")
        #expect(lines.count == 2 + rows.filter { Self.unix($0.rise) < 1_759_320_000 + 86400 }.count, "\(table)")
        #expect(lines[0].contains("40.7128° N, 74.0060° W") && lines[2].hasPrefix("2025-10-01  15:12:2"), "\(table)")
    }

    @Test func badInputIsOneLine() throws {
        do {
            _ = try Passes.run(try Options.parse(["passes"] + Self.fixed))
            Issue.record("passes without an observer")
        } catch {
            #expect("\(error)".contains("--observer") && !"\(error)".contains("\n"))
        }
        for bad in [["--observer", "91,0"], ["--observer", "x"], ["--days", "0"], ["--days", "31"], ["--min-elevation", "-1"]] {
            #expect(throws: Options.UsageError.self) { try Options.parse(["passes"] + bad) }
        }
        #expect(try ConfigFile.arguments(text: "observer = 60.17, 24.94") == ["--observer=60.17, 24.94"])
        #expect(try Options.parse(["view"] + ConfigFile.arguments(text: "observer = 60.17,24.94")).observer == LngLat(lng: 24.94, lat: 60.17))
    }

    /// During the 16:48 pass over New York: the marker, the seen part of the track (every point
    /// of it above the horizon, its ends on it), and `o`'s countdown.
    @Test func theWindowShowsTheObserverThePassAndTheCountdown() throws {
        let o = try Options.parse(["state", "--scene", "iss", "--radar", "demo", "--iss", "tle", "--tle", Self.tle,
                                   "--time", "2025-10-01T16:40:00Z"] + Self.newYork)
        var m = try MapSetup.model(o)
        #expect(m.observer == LngLat(lng: -74.006, lat: 40.7128))
        #expect(m.style.geojson(MapApp.observerID)?.features.count == 1)
        let tracker = try #require(m.iss)
        let place = try #require(m.observer)
        let finder = try #require(tracker.passFinder(observer: place))
        let seen = m.seenTrack(tracker, from: m.clockOrigin - 45 * 60, to: m.clockOrigin + 90 * 60)
        #expect(!seen.isEmpty)
        let orbit = try #require(tracker.drawnOrbit)
        // Each point of the seen pieces is where the station is above the horizon: find the
        // instant by its nearest sample of the orbit.
        for piece in seen {
            #expect(piece.count >= 2)
            for p in piece {
                let t = stride(from: m.clockOrigin - 45 * 60, through: m.clockOrigin + 90 * 60, by: 1.0)
                    .min { (orbit($0)?.position.distanceKm(to: p) ?? .infinity) < (orbit($1)?.position.distanceKm(to: p) ?? .infinity) } ?? 0
                #expect((finder.elevation(t) ?? -90) > -0.1, "\(p) at \(t)")
            }
        }
        // o: the next pass, counted down.
        #expect(StatusLine.nextPass(m) == nil)
        m.apply(.toggleNextPass, now: m.now)
        m.advance(to: m.now)
        #expect(StatusLine.nextPass(m) == "next pass 16:48 UTC (in 8 min 40 s), up to 45°")
        m.advance(to: m.now + 100)
        #expect(StatusLine.nextPass(m) == "next pass 16:48 UTC (in 7 min 00 s), up to 45°")
        m.advance(to: m.now + 600)
        #expect(StatusLine.nextPass(m)?.hasPrefix("ISS up now (45° at most), sets 16:59 UTC, in 7 min 4") == true, "\(StatusLine.nextPass(m) ?? "")")
        m.advance(to: m.now + 900)
        #expect(StatusLine.nextPass(m)?.hasPrefix("next pass 18:26 UTC") == true, "\(StatusLine.nextPass(m) ?? "")")
        m.apply(.toggleNextPass, now: m.now)
        #expect(StatusLine.nextPass(m) == nil)
        var input = InputController()
        #expect(input.handle(.keyDown(.character("o"), modifiers: [], time: 0)) == [.toggleNextPass])
    }
}
