import Foundation
import MapCore
import NightmapApp
import MapData
import Raster
import Testing

/// The giflib decoder against fixtures whose expected pixels were checked with giflib itself
/// (Fixtures/gif/README.md).
@Suite struct GIFDecoderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gif")

    struct Expected: Decodable {
        struct Good: Decodable {
            struct Frame: Decodable { let probes: [[Int]]; let delayCs: Int }
            let file: String; let width: Int; let height: Int; let frameCount: Int; let frames: [Frame]
        }
        struct Bad: Decodable { let file: String; let error: String }
        let good: [Good]
        let bad: [Bad]
    }

    static let expected: Expected = {
        do {
            return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))
        } catch { fatalError("expected.json: \(error)") }
    }()

    static var goodFiles: [String] { expected.good.map(\.file) }
    static var badFiles: [String] { expected.bad.map(\.file) }

    @Test(arguments: goodFiles)
    func decodesEveryFrameExactly(_ file: String) throws {
        let e = Self.expected.good.first { $0.file == file }!
        let gif = try GIFDecoder.read(path: Self.folder.appendingPathComponent(file).path)
        #expect(gif.width == e.width && gif.height == e.height)
        #expect(gif.frames.count == e.frameCount)
        #expect(gif.warning == nil)
        for (i, frame) in e.frames.enumerated() where i < gif.frames.count {
            #expect(abs(gif.delays[i] - Double(frame.delayCs) / 100) < 1e-9)
            for probe in frame.probes {
                let c = gif.frames[i].color(atX: probe[0], y: probe[1])
                let want = RGBA8(UInt8(probe[2]), UInt8(probe[3]), UInt8(probe[4]), UInt8(probe[5]))
                #expect(c == want, "\(file) frame \(i) at \(probe[0]),\(probe[1]): \(c) != \(want)")
            }
        }
    }

    /// What each kind of failure must say (one line, naming the file).
    static func message(for kind: String, file: String) -> String {
        switch (kind, file) {
        case (_, "bad_c_empty.gif"): return "empty file"
        case (_, "bad_g_no_colour_table.gif"): return "no colour table"
        case ("truncated", _): return "truncated"
        case ("not a GIF", _): return "not a GIF file"
        case ("zero size", _): return "zero-sized"
        case ("too large", _): return "too large"
        default: return "corrupt"
        }
    }

    @Test(arguments: badFiles)
    func badFilesFailWithOneLineNamingTheFile(_ file: String) {
        let kind = Self.expected.bad.first { $0.file == file }!.error
        let path = Self.folder.appendingPathComponent(file).path
        let start = Date()
        do {
            let gif = try GIFDecoder.read(path: path)
            Issue.record("\(file) decoded to \(gif.frames.count) frame(s)")
        } catch {
            let s = "\(error)"
            #expect(s.hasPrefix(path + ": "), "\(s)")
            #expect(s.contains(Self.message(for: kind, file: file)), "\(file): \(s)")
            #expect(!s.contains("\n"))
        }
        #expect(Date().timeIntervalSince(start) < 1, "\(file) took too long")
    }

    @Test func missingFileIsReported() {
        #expect(throws: GIFDecoder.Failure.self) { try GIFDecoder.read(path: "/nonexistent/radar9.gif") }
    }

    @Test func everyTruncationOfAGoodFileFailsCleanly() throws {
        // Cut a multi-frame file at every length: never a crash; either an error or fewer frames
        // with a warning.
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("ok_05_animated_disposal.gif"))
        for n in 0..<data.count {
            do {
                let gif = try GIFDecoder.decode(data.prefix(n), name: "cut")
                #expect(gif.frames.count <= 5)
                if gif.frames.count < 5 { #expect(gif.warning != nil, "length \(n): lost frames without a warning") }
            } catch {
                #expect("\(error)".hasPrefix("cut: "))
            }
        }
    }

    @Test func randomByteFlipsNeverCrash() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("ok_08_radar_600x573.gif"))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var d = data
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let i = Int.random(in: 0..<d.count, using: &rng)
                d[i] = UInt8.random(in: 0...255, using: &rng)
            }
            if let gif = try? GIFDecoder.decode(d, name: "fuzz") {
                #expect(gif.width * gif.height <= GIFDecoder.maxPixels)
            }
        }
    }
}

/// Loading radar frame sets: directories, animated files, bad frames, world files.
@Suite struct RadarFramesTests {
    let folder = GIFDecoderTests.folder

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
}
