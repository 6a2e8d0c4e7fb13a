import Foundation
import MapCore
import MapData
import Raster
import Testing
import TestSupport

/// The giflib decoder against fixtures whose expected pixels were checked with giflib itself
/// (Fixtures/gif/README.md).
@Suite struct GIFDecoderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gif")

    struct Expected {
        struct Good {
            struct Frame { let probes: [[Int]]; let delayCs: Int }
            let file: String; let width: Int; let height: Int; let frameCount: Int; let frames: [Frame]
        }
        struct Bad { let file: String; let error: String }
        let good: [Good]
        let bad: [Bad]

        init(_ json: JSON) throws {
            good = try json.member("good", \.arrayValue).map { g in
                Good(file: try g.member("file", \.stringValue), width: try g.member("width", \.intValue),
                     height: try g.member("height", \.intValue), frameCount: try g.member("frameCount", \.intValue),
                     frames: try g.member("frames", \.arrayValue).map { f in
                         Good.Frame(probes: try f.member("probes") { $0.arrayOf { $0.arrayOf(\.intValue) } }, delayCs: try f.member("delayCs", \.intValue))
                     })
            }
            bad = try json.member("bad", \.arrayValue).map { Bad(file: try $0.member("file", \.stringValue), error: try $0.member("error", \.stringValue)) }
        }
    }

    static let expected: Expected = {
        do {
            return try Expected(JSON.parse(contentsOf: folder.appendingPathComponent("expected.json")))
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
