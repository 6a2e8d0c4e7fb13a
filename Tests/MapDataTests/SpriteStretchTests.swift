import Foundation
import MapCore
import MapData
import Raster
import Testing

/// A sprite sheet's stretch description (stretchX, stretchY, content, textFitWidth,
/// textFitHeight): read into the icon; bad values left out with a note, the icon kept.
@Suite struct SpriteStretchTests {
    /// The sheet `json` over a 40 x 40 image, with the notes the loader made.
    func load(_ json: String) throws -> (SpriteSheet, [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-stretch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(json.utf8).write(to: dir.appendingPathComponent("sprite.json"))
        try PNGCodec.encode(Pixmap(width: 40, height: 40)).write(to: dir.appendingPathComponent("sprite.png"))
        var notes: [String] = []
        let sheet = try SpriteLoader.load(base: "sprite", pixelRatio: 1, resolver: ResourceResolver(styleDirectory: dir, assets: nil),
                                          report: { notes.append($0) })
        return (sheet, notes)
    }

    @Test func readsTheStretchDescription() throws {
        let (sheet, notes) = try load("""
            {"pill": {"x": 0, "y": 0, "width": 40, "height": 20, "stretchX": [[5, 10], [30, 35]], "stretchY": [[4, 16]],
                      "content": [5, 4, 35, 16], "textFitWidth": "stretchOnly", "textFitHeight": "proportional"}}
            """)
        let icon = try #require(sheet.icons["pill"])
        #expect(notes.isEmpty)
        #expect(icon.stretchX == [5...10, 30...35])
        #expect(icon.stretchY == [4...16])
        #expect(icon.content == SpriteIcon.Content(x1: 5, y1: 4, x2: 35, y2: 16))
        #expect(icon.textFitWidth == .stretchOnly && icon.textFitHeight == .proportional)
    }

    @Test func badValuesAreLeftOutWithANoteEach() throws {
        let (sheet, notes) = try load("""
            {"bad": {"x": 0, "y": 0, "width": 20, "height": 20, "stretchX": [[10, 5]], "stretchY": [[0, 30]],
                     "content": [5, 5, 5, 10], "textFitWidth": "sideways", "textFitHeight": 3},
             "overlapping": {"x": 0, "y": 0, "width": 20, "height": 20, "stretchX": [[0, 10], [5, 15]], "stretchY": []}}
            """)
        let bad = try #require(sheet.icons["bad"]), overlapping = try #require(sheet.icons["overlapping"])
        #expect(bad.stretchX == nil && bad.stretchY == nil && bad.content == nil)
        #expect(bad.textFitWidth == .stretchOrShrink && bad.textFitHeight == .stretchOrShrink)
        #expect(overlapping.stretchX == nil && overlapping.stretchY == nil)
        #expect(notes.count == 7)
        #expect(notes.allSatisfy { !$0.contains("\n") && $0.hasSuffix("left out") })
    }
}
