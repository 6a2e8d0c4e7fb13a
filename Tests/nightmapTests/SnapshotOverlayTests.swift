import Foundation
import MapData
import Raster
import Testing
@testable import nightmap

/// `snapshot --overlay`: everything the window shows, the attribution alone (a picture for a
/// report or a web page, as MapLibre's snapshotter makes it), or the bare map.
@Suite struct SnapshotOverlayTests {
    static let background = RGBA8(0x12, 0x34, 0x56)

    /// The snapshot of a one-colour style named "plain" with `--overlay parts`.
    func snapshot(_ parts: String?) throws -> Pixmap {
        let style = NSTemporaryDirectory() + "nightmap-overlay-\(UUID().uuidString).json"
        try ##"{"version": 8, "name": "plain", "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}}]}"##
            .write(toFile: style, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: style) }
        let out = NSTemporaryDirectory() + "nightmap-overlay-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Headless.snapshot(try Options.parse(["snapshot", "--radar", "demo", "--style", style, "--size", "320x200", "-o", out]
                                                + (parts.map { ["--overlay", $0] } ?? [])))
        return try PNGCodec.read(path: out)
    }

    /// How many pixels of the box differ from the background.
    func marked(_ p: Pixmap, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x where p.color(atX: xx, y: yy) != Self.background { n += 1 } }
        return n
    }

    @Test func partsOfTheOverlay() throws {
        // The scale bar and the status line ("h: help") are bottom left, the attribution bottom right.
        let left = (x: 0..<150, y: 150..<200), right = (x: 250..<320, y: 180..<200)
        let all = try snapshot(nil), attribution = try snapshot("attribution"), none = try snapshot("none")
        #expect(marked(all, x: left.x, y: left.y) > 50 && marked(all, x: right.x, y: right.y) > 20)
        #expect(marked(attribution, x: left.x, y: left.y) == 0 && marked(attribution, x: right.x, y: right.y) > 20)
        #expect(marked(none, x: 0..<320, y: 0..<200) == 0)
        #expect(throws: (any Error).self) { _ = try Options.parse(["snapshot", "-o", "x.png", "--overlay", "some"]) }
    }
}
