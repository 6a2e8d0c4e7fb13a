import Foundation
import Raster
import Testing
@testable import nightmap

/// `metadata.test.fadeDuration`: the map fades its symbols, and each `wait` and `idle` draws a
/// frame through the one placement the last image is drawn with.
@Suite struct RenderTestFadeTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../RenderTests/assets").standardizedFileURL

    /// A black label at the centre of a white 64x64 map, hidden at first; `operations` follow.
    static func render(fade: Double?, _ operations: String) throws -> Pixmap {
        let fadeKey = fade.map { #""fadeDuration": \#($0), "# } ?? ""
        let style = #"""
        {"version": 8, "metadata": {"test": {\#(fadeKey)"width": 64, "height": 64, "operations": \#(operations)}},
         "glyphs": "local://glyphs/{fontstack}/{range}.pbf",
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "t", "type": "symbol", "source": "p",
                     "layout": {"visibility": "none", "text-field": "MMM", "text-size": 24,
                                "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"]},
                     "paint": {"text-color": "black"}}]}
        """#
        let dir = FileManager.default.temporaryDirectory
        return try renderStyleDocument(Data(style.utf8), dir.appendingPathComponent("style.json"), 64, 64, 1, assets)
    }

    /// The darkest red channel in the frame (255: no label drawn; near 0: fully opaque text).
    static func darkest(_ pm: Pixmap) -> Int {
        var out = 255
        for y in 0..<pm.height { for x in 0..<pm.width { out = min(out, Int(pm.color(atX: x, y: y).r)) } }
        return out
    }

    /// The label shown after the first frame is placed at the next placement MapLibre's cadence
    /// allows (100 ms after the first, at t = 100 ms) and fades in from there: 50 ms on it is
    /// half there, 100 ms on fully. Without the fade it shows at once.
    @Test func waitsDrawFramesThroughOnePlacement() throws {
        let show = #"["setLayoutProperty", "t", "visibility", "visible"]"#
        let half = try Self.render(fade: 100, #"[["wait"], \#(show), ["wait"], ["wait", 100], ["wait", 50]]"#)
        let full = try Self.render(fade: 100, #"[["wait"], \#(show), ["wait"], ["wait", 100], ["wait", 100]]"#)
        let before = try Self.render(fade: 100, #"[["wait"], \#(show), ["wait"], ["wait", 50]]"#)
        let instant = try Self.render(fade: nil, #"[["wait"], \#(show), ["wait"]]"#)
        #expect(Self.darkest(instant) < 40)
        #expect(Self.darkest(full) == Self.darkest(instant))
        // 50 ms into the 100 ms fade: half of the way from white.
        #expect(abs(Self.darkest(half) - (255 + Self.darkest(full)) / 2) < 25)
        // Before the second placement is due the label is not shown yet.
        #expect(Self.darkest(before) == 255)
    }

    /// How red the reddest pixel is (red minus green; 0: none).
    static func reddest(_ pm: Pixmap) -> Int {
        var out = 0
        for y in 0..<pm.height { for x in 0..<pm.width { let c = pm.color(atX: x, y: y); out = max(out, Int(c.r) - Int(c.g)) } }
        return out
    }

    /// A still frame renews a placement that is no longer recent, as MapLibre places again on
    /// every frame once its last placement is a fade old: the label placed at 100 ms is placed
    /// again at 200 ms, so a red label added on top then waits for the placement at 300 ms
    /// (without the renewal it would be placed at once, at 200 ms).
    @Test func aStillFrameRenewsThePlacementOnItsCadence() throws {
        let show = #"["setLayoutProperty", "t", "visibility", "visible"]"#
        let red = #"["addLayer", {"id": "red", "type": "symbol", "source": "p", "layout": {"text-field": "MMM", "text-size": 24, "text-allow-overlap": true, "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"]}, "paint": {"text-color": "red"}}]"#
        let start = #"["wait"], \#(show), ["wait"], ["wait", 100], ["wait", 100], \#(red), ["wait"]"#
        let pending = try Self.render(fade: 100, #"[\#(start), ["wait", 50]]"#)
        let placed = try Self.render(fade: 100, #"[\#(start), ["wait", 100], ["wait", 50]]"#)
        #expect(Self.reddest(pending) == 0)
        #expect(Self.reddest(placed) > 60)
    }

    @Test func fadeDurationIsReadFromTheMetadata() throws {
        let style = #"{"version": 8, "metadata": {"test": {"fadeDuration": 100}}, "sources": {}, "layers": []}"#
        #expect(try RenderTestMetadata.parse(Data(style.utf8)).fadeDuration == 100)
        #expect(try RenderTestMetadata.parse(Data(#"{"version": 8}"#.utf8)).fadeDuration == 0)
    }
}
