import MapCore
import Testing
@testable import nightmap

@Suite struct OptionsTests {
    @Test func defaults() throws {
        let o = try Options.parse([])
        #expect(o.command == .view && o.size == ViewportSize(width: 1280, height: 800) && o.scene == "radar")
        #expect(o.elapsed == 0 && o.center == nil && o.zoom == nil)
    }

    @Test func bothSpellingsAndNegativeNumbers() throws {
        let a = try Options.parse(["snapshot", "-o", "x.png", "--center=40.5,-74.25", "--zoom", "4.5", "--size=640x480"])
        #expect(a.command == .snapshot && a.output == "x.png")
        #expect(a.center == LngLat(lng: -74.25, lat: 40.5) && a.zoom == 4.5 && a.size == ViewportSize(width: 640, height: 480))
        let b = try Options.parse(["state", "--center", "40.5,-74.25", "--elapsed=2.5", "--time", "2026-11-30T12:00:00Z"])
        #expect(b.center == LngLat(lng: -74.25, lat: 40.5) && b.elapsed == 2.5 && b.time == 1_796_040_000)
        let c = try Options.parse(["bench", "--frames=20"])
        #expect(c.command == .bench && c.frames == 20)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--size", "12x"], "option --size"),
        (["--size=0x10"], "option --size"),
        (["--center", "91,0"], "option --center"),
        (["--center", "40"], "option --center"),
        (["--zoom", "abc"], "option --zoom: 'abc' is not a number"),
        (["--zoom", "nan"], "option --zoom"),
        (["--scene", "moon"], "unknown scene 'moon'"),
        (["--time", "yesterday"], "option --time"),
        (["--elapsed=-1"], "option --elapsed"),
        (["--zoom"], "option --zoom needs a value"),
        (["snapshot"], "snapshot needs -o FILE.png"),
        (["paint"], "unknown command 'paint'"),
    ])
    func badInputNamesTheOption(args: [String], message: String) {
        do {
            _ = try Options.parse(args)
            Issue.record("\(args) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(args): \(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }
}
