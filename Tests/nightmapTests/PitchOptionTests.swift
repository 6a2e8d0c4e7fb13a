import Foundation
import MapCore
import MapData
import NightmapApp
import Testing
@testable import nightmap

/// `--pitch` and `--max-pitch` on the command line and in nightmap.conf, in the saved state and
/// in `nightmap state`.
@Suite struct PitchOptionTests {
    static let fixed = ["--iss", "tle", "--time", "2025-10-01T12:00:00Z", "--radar", "demo"]

    @Test func theOptionsAreCheckedAndTaken() throws {
        let o = try Options.parse(["snapshot", "-o", "a.png", "--pitch", "45", "--max-pitch=85"])
        #expect(o.pitch == 45 && o.maxPitch == 85)
        #expect(try Options.parse(["state", "--pitch=0"]).pitch == 0)
        let plain = try Options.parse(["view"])
        #expect(plain.pitch == nil && plain.maxPitch == 60)
        for (args, message) in [(["--pitch", "86"], "option --pitch: 86.0 is outside 0...85"),
                                (["--pitch", "-1"], "option --pitch: -1.0 is outside 0...85"),
                                (["--pitch", "steep"], "option --pitch: 'steep' is not a number"),
                                (["--pitch", "inf"], "option --pitch: 'inf' is not a number"),
                                (["--max-pitch", "90"], "option --max-pitch: 90.0 is outside 0...85"),
                                (["--max-pitch"], "option --max-pitch needs a value")] {
            #expect { _ = try Options.parse(["state"] + args) } throws: { "\($0)" == message }
        }
        #expect(Options.usage.contains("--pitch DEG") && Options.usage.contains("--max-pitch DEG"))
    }

    /// Above `--max-pitch` the camera takes the maximum (MapLibre clamps likewise) and one warning says so.
    @Test func aPitchAboveTheMaximumIsLoweredWithAWarning() throws {
        let o = try Options.parse(["state", "--pitch", "70"] + Self.fixed)
        #expect(o.pitchWarning == "--pitch 70 is above --max-pitch 60: the camera tilts to 60 (raise --max-pitch, up to 85)")
        #expect(try MapSetup.model(o).camera.state.pitch == 60)
        let raised = try Options.parse(["state", "--pitch", "70", "--max-pitch", "85"] + Self.fixed)
        #expect(raised.pitchWarning == nil)
        #expect(try MapSetup.model(raised).camera.state.pitch == 70)
        #expect(try Options.parse(["state", "--pitch", "60"]).pitchWarning == nil)
    }

    @Test func configurationLinesTakeThePitch() throws {
        let args = try ConfigFile.arguments(text: "pitch = 30\nmax-pitch = 80\n")
        #expect(args == ["--pitch=30", "--max-pitch=80"])
        let configured = try Options.parse(["view"] + args)
        #expect(configured.pitch == 30 && configured.maxPitch == 80)
        #expect(try Options.parse(["--pitch", "10"], base: configured).pitch == 10)
        #expect { _ = try ConfigFile.arguments(text: "light = day\npitch = 95\n") } throws: {
            "\($0)" == "nightmap.conf:2: option --pitch: 95.0 is outside 0...85"
        }
        #expect { _ = try ConfigFile.arguments(text: "pitch = flat\n") } throws: {
            "\($0)" == "nightmap.conf:1: option --pitch: 'flat' is not a number"
        }
    }

    /// `nightmap state` reports the camera's pitch and the bounds' maximum; every scene keeps
    /// `--max-pitch`, and `--pitch` tilts the one shown.
    @Test func stateReportsThePitch() throws {
        let json = try JSON.parse(try Headless.state(try Options.parse(["state", "--pitch", "45", "--bearing", "20"] + Self.fixed)), name: "state")
        #expect(json["camera"]?["pitch"] == .number(45) && json["camera"]?["bearing"] == .number(20))
        #expect(json["bounds"]?["maxPitch"] == .number(60))
        let flat = try JSON.parse(try Headless.state(try Options.parse(["state"] + Self.fixed)), name: "state")
        #expect(flat["camera"]?["pitch"] == .number(0))
        // Tilted north up, the compass shows (a click on it levels the map).
        #expect(flat["overlay"]?["compass"] == nil)
        let tilted = try JSON.parse(try Headless.state(try Options.parse(["state", "--pitch", "10"] + Self.fixed)), name: "state")
        #expect(tilted["overlay"]?["compass"]?.numbersValue == [1238, 12, 30, 30])
        var model = try MapSetup.model(try Options.parse(["state", "--pitch", "75", "--max-pitch", "80"] + Self.fixed))
        #expect(model.camera.state.pitch == 75)
        #expect(model.scenes.allSatisfy { $0.bounds.maxPitch == 80 })
        model.apply(.switchScene("iss"), now: 0)
        model.apply(.tiltEased(degrees: 80), now: 2)
        model.advance(to: 3)
        #expect(model.camera.state.pitch == 80)
        // The pixel ratio keeps the bounds' maximum too.
        model.setPixelRatio(2)
        #expect(model.camera.bounds.maxPitch == 80 && model.camera.state.pitch == 80)
    }

    /// Following the ISS keeps the pitch (the follow eases move the centre and zoom only).
    @Test func followingTheIssKeepsThePitch() throws {
        var model = try MapSetup.model(try Options.parse(["state", "--scene", "iss", "--pitch", "30"] + Self.fixed))
        #expect(model.followsIss && model.camera.state.pitch == 30)
        model.advance(to: 3.5)
        #expect(model.camera.state.pitch == 30 && model.camera.state.zoom > 2)
    }

    @Test func theSavedStateRemembersThePitch() throws {
        var model = try MapSetup.model(try Options.parse(["state"] + Self.fixed))
        model.apply(.tiltEased(degrees: 20), now: 0)
        model.advance(to: 1)
        let state = SavedState(model: model, window: .init(width: 900, height: 600, fullscreen: false))
        #expect(state.camera.pitch == 20)
        let back = try SavedState.decode(try JSONEncoder().encode(state), name: "state.json")
        #expect(back == state)
        var o = try Options.parse(["state"] + Self.fixed)
        back.restore(into: &o, given: o.given)
        #expect(o.pitch == 20 && o.pitchWarning == nil)
        #expect(try MapSetup.model(o).camera.state.pitch == 20)
        var given = try Options.parse(["view", "--pitch", "5"])
        back.restore(into: &given, given: given.given)
        #expect(given.pitch == 5)
        // Flat, nothing is written; a file from before tilting has no pitch and loads flat; one
        // out of range is refused.
        let flat = SavedState(model: try MapSetup.model(try Options.parse(["state"] + Self.fixed)), window: .init(width: 9, height: 6, fullscreen: false))
        #expect(flat.camera.pitch == nil)
        let old = #"{"version":1,"camera":{"lat":40,"lon":-75,"zoom":5,"bearing":10},"scene":"radar","light":"night","units":"metric","overlays":{"help":false},"window":{"width":800,"height":600,"fullscreen":false}}"#
        let oldState = try SavedState.decode(Data(old.utf8), name: "s")
        #expect(oldState.camera.pitch == nil && oldState.camera.bearing == 10)
        var fromOld = try Options.parse(["view"])
        oldState.restore(into: &fromOld, given: fromOld.given)
        #expect(fromOld.pitch == nil)
        let bad = old.replacingOccurrences(of: #""bearing":10"#, with: #""bearing":10,"pitch":90"#)
        #expect { _ = try SavedState.decode(Data(bad.utf8), name: "s") } throws: { "\($0)" == "s: camera pitch 90.0 is out of range" }
        let wrong = old.replacingOccurrences(of: #""bearing":10"#, with: #""pitch":"steep""#)
        #expect { _ = try SavedState.decode(Data(wrong.utf8), name: "s") } throws: { "\($0)".contains("'camera.pitch' has the wrong type") }
    }
}
