import Foundation
import MapCore
import MapData
import NightmapApp
import Raster
import Testing

/// Loading radar frame sets: directories, animated files, bad frames, world files, and whole
/// mosaics cropped to the box as they are read (issue 20).
@Suite struct RadarFramesTests {
    /// MapDataTests' GIF fixtures (Fixtures/gif/README.md there).
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapDataTests/Fixtures/gif")

    func tempDir(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, source) in files {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(source), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    @Test func aDirectoryIsSortedByNameAndBadFramesAreReportedOnce() throws {
        let dir = try tempDir(["radar0.gif": "ok_01_single_global.gif", "radar1.gif": "bad_a_truncated.gif",
                               "radar2.gif": "ok_02_transparent_index.gif", "radar3.gif": "bad_e_too_large.gif",
                               "notes.txt": "README.md"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try RadarFrames.load(path: dir.path)
        #expect(frames.names == ["radar0.gif", "radar1.gif", "radar2.gif", "radar3.gif"])
        #expect(frames.images.map { $0 != nil } == [true, false, true, false])
        #expect(frames.problems.count == 2)
        #expect(frames.problems[0].contains("radar1.gif: truncated"))
        #expect(frames.problems[1].contains("radar3.gif: image size 60000x60000 is too large"))
        // The source shows the last good frame in place of a bad one.
        let source = frames.source(corners: .weatherExample, placement: .lonlat)
        #expect(source.image(at: 1) === frames.images[0])
        #expect(source.image(at: 3) === frames.images[2])
        #expect(source.image(at: 4) === frames.images[0])
    }

    @Test func everyFrameOfAnAnimatedGIFIsARadarFrame() throws {
        let frames = try RadarFrames.load(path: folder.appendingPathComponent("ok_05_animated_disposal.gif").path)
        #expect(frames.images.count == 5 && frames.images.allSatisfy { $0 != nil })
        #expect(frames.names[3] == "ok_05_animated_disposal.gif#3")
    }

    @Test func aSingleBadFileIsAnError() {
        #expect(throws: RadarFrames.Failure.self) { try RadarFrames.load(path: folder.appendingPathComponent("bad_b_png_named_gif.gif").path) }
        #expect(throws: RadarFrames.Failure.self) { try RadarFrames.load(path: "/nonexistent") }
    }

    @Test func worldFilesPlaceTheImage() throws {
        // 0.01 degree pixels, top-left pixel centre at (-80.005, 46.435).
        let b = try WorldFile.parse("0.01\n0\n0\n-0.01\n-80.005\n46.435\n", width: 600, height: 573, origin: "x.gfw")
        #expect(abs(b.west - -80.01) < 1e-9 && abs(b.north - 46.44) < 1e-9)
        #expect(abs(b.east - -74.01) < 1e-9 && abs(b.south - 40.71) < 1e-9)
        #expect(throws: WorldFile.Failure.self) { try WorldFile.parse("1 2 3", width: 1, height: 1, origin: "x.wld") }
        #expect(throws: WorldFile.Failure.self) { try WorldFile.parse("0.01 0.001 0 -0.01 0 0", width: 1, height: 1, origin: "x.wld") }
        // Six words that are not six finite numbers.
        for text in ["0.01 0 0 -0.01 -80 nan", "0.01 0 0 -0.01 -80 inf", "0.01 0 0 -0.01 -80 x", "0.01 0 0 -0.01 -80 46 7"] {
            let e = #expect(throws: WorldFile.Failure.self) { try WorldFile.parse(text, width: 1, height: 1, origin: "x.wld") }
            #expect(e?.description == "x.wld: a world file needs six numbers", "\(text)")
        }
        let dir = try tempDir(["frame.gif": "ok_01_single_global.gif"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try "0.5\n0\n0\n-0.5\n-79.75\n45.75\n".write(to: dir.appendingPathComponent("frame.gfw"), atomically: true, encoding: .utf8)
        let frames = try RadarFrames.load(path: dir.appendingPathComponent("frame.gif").path)
        #expect(frames.worldFileBounds == LngLatBounds(west: -80, south: 40, east: -72, north: 46))
    }

    /// `--radar mosaic.png` with a world file and `--radar-bounds`: the frame is the box only,
    /// at the box's size at the maximum zoom.
    @Test func aMosaicFileIsReadForTheBox() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-mosaic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A magenta square at 76 W, 42 N of a 0.025° mosaic whose top-left pixel is at 126 W, 50 N.
        let mosaic = Pixmap(width: 2440, height: 1080)
        let (x, y) = (Int((-76.0 + 126) / 0.025), Int((50 - 42.0) / 0.025))
        for yy in (y - 3)...(y + 3) { for xx in (x - 3)...(x + 3) { mosaic[xx, yy] = RGBA8(255, 0, 255).premultiplied.packed } }
        try PNGCodec.encode(mosaic).write(to: dir.appendingPathComponent("n0q_202512011530.png"))
        try Data("0.025\n0.0\n0.0\n-0.025\n-125.9875\n49.9875\n".utf8).write(to: dir.appendingPathComponent("n0q_202512011530.wld"))
        let box = LngLatBounds(west: -80, south: 38, east: -72, north: 46)
        let frames = try RadarFrames.load(path: dir.appendingPathComponent("n0q_202512011530.png").path, box: box, maxZoom: 5.99)
        let image = try #require(frames.images.first ?? nil)
        let want = RadarFeed.Source.requestSize(box: box, maxZoom: 5.99)
        #expect(image.width == want.width && image.height == want.height)
        #expect(frames.worldFileBounds == box)
        #expect(image.color(atX: Int(4.0 / 8 * Double(want.width)), y: Int(4.0 / 8 * Double(want.height))) == RGBA8(255, 0, 255))
        // Without a box the whole mosaic is the box, sampled no finer than the maximum zoom needs.
        let whole = try RadarFrames.load(path: dir.appendingPathComponent("n0q_202512011530.png").path, maxZoom: 3)
        let w = try #require(whole.images.first ?? nil)
        #expect(w.width < 2440 && abs((whole.worldFileBounds?.west ?? 0) - -126) < 1e-9)
    }
}
