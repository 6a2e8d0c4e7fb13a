import Foundation
import NightmapApp
import MapData
import Raster
import Testing
@testable import nightmap

/// The render-test harness around a fake renderer: metadata, the pass/fail decision, the lines it
/// prints, the files it leaves, the command line.
@Suite struct RenderTestRunnerTests {
    // MARK: - Fixtures

    /// A straight RGBA image of `color` with the pixels `marks` set to `mark`.
    static func rgba(_ w: Int, _ h: Int, _ color: [UInt8], marks: [(Int, Int)] = [], mark: [UInt8] = [0, 0, 0, 255]) -> [UInt8] {
        var p = (0..<(w * h)).flatMap { _ in color }
        for (x, y) in marks { for k in 0..<4 { p[(y * w + x) * 4 + k] = mark[k] } }
        return p
    }

    static func pixmap(_ w: Int, _ h: Int, _ rgba: [UInt8]) -> Pixmap {
        let pm = Pixmap(width: w, height: h)
        for i in 0..<(w * h) {
            pm.pixels[i] = RGBA8(rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]).premultiplied.packed
        }
        return pm
    }

    /// A scratch folder with `tests/` and `assets/` in it, removed at the end.
    final class Scratch {
        let root: URL
        var tests: URL { root.appendingPathComponent("tests") }
        var assets: URL { root.appendingPathComponent("assets") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("render-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("tests"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("assets"), withIntermediateDirectories: true)
        }

        deinit {
            // Read-only folders made by a test are opened again so they can go.
            if let e = FileManager.default.enumerator(atPath: root.path) {
                for case let p as String in e { chmod(root.appendingPathComponent(p).path, 0o755) }
            }
            try? FileManager.default.removeItem(at: root)
        }

        /// A test folder `id` with style.json holding `test` as metadata.test (none if nil) and
        /// the expected images given by name.
        @discardableResult
        func add(_ id: String, test: String? = nil, expected: [String: (Int, Int, [UInt8])]) throws -> URL {
            let dir = tests.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let metadata = test.map { #""metadata": {"test": \#($0)}, "# } ?? ""
            try Data(#"{"version": 8, \#(metadata)"sources": {}, "layers": []}"#.utf8).write(to: dir.appendingPathComponent("style.json"))
            for (name, image) in expected {
                try PNGCodec.writeRGBA(width: image.0, height: image.1, pixels: image.2, to: dir.appendingPathComponent(name).path)
            }
            return dir
        }
    }

    /// What the fake renderer was asked.
    final class Calls: @unchecked Sendable {
        var calls: [(id: String, width: Int, height: Int, ratio: Double, assets: URL)] = []
    }

    /// A renderer that draws per test folder what `frames` says (by the folder's name).
    static func renderer(_ calls: Calls, _ frames: [String: (Int, Int, [UInt8])]) -> StyleRenderer {
        { style, styleURL, width, height, ratio, assets in
            let name = styleURL.deletingLastPathComponent().lastPathComponent
            calls.calls.append((name, width, height, ratio, assets))
            #expect(FileManager.default.contents(atPath: styleURL.path) == style)
            guard let f = frames[name] else { throw RenderTestError("boom: no frame for \(name)\nsecond line") }
            return pixmap(f.0, f.1, f.2)
        }
    }

    static func run(_ dirs: [String], assets: String? = nil, output: String? = nil,
                    _ renderer: StyleRenderer) -> (lines: [String], passed: Int, failed: Int) {
        var lines: [String] = []
        let r = RenderTestRunner().run(directories: dirs, assets: assets, output: output, renderer: renderer) { lines.append($0) }
        return (lines, r.passed, r.failed)
    }

    static let white = [UInt8]([255, 255, 255, 255])

    // MARK: - Metadata

    @Test func metadataDefaultsAndMerging() throws {
        let d = try RenderTestMetadata.parse(Data(#"{"version": 8, "layers": []}"#.utf8))
        #expect(d == RenderTestMetadata(width: 512, height: 512, pixelRatio: 1, allowed: 0.00025, threshold: 0.1285))
        #expect(d.frameWidth == 512 && d.frameHeight == 512)
        let m = try RenderTestMetadata.parse(Data(#"""
            {"metadata": {"test": {"width": 64, "height": 32, "pixelRatio": 2, "allowed": 0.01,
                                   "operations": [["wait"]], "description": "x"}, "other": 1}}
            """#.utf8))
        #expect(m == RenderTestMetadata(width: 64, height: 32, pixelRatio: 2, allowed: 0.01, threshold: 0.1285))
        #expect(m.frameWidth == 128 && m.frameHeight == 64)
        let t = try RenderTestMetadata.parse(Data(#"{"metadata": {"test": {"threshold": 0.5, "pixelRatio": 1.5, "width": 11}}}"#.utf8))
        #expect(t.threshold == 0.5 && t.height == 512 && t.frameWidth == 16 && t.frameHeight == 768)
        #expect(try RenderTestMetadata.parse(Data(#"{"metadata": {"author": "x"}}"#.utf8)) == RenderTestMetadata())
    }

    @Test(arguments: [
        (#"{"metadata": {"test": {"width": "64"}}}"#, "metadata.test.width is not a number"),
        (#"{"metadata": {"test": {"allowed": true}}}"#, "metadata.test.allowed is not a number"),
        (#"{"metadata": {"test": {"height": 0}}}"#, "metadata.test.height"),
        (#"{"metadata": {"test": {"width": 10.5}}}"#, "metadata.test.width"),
        (#"{"metadata": {"test": {"pixelRatio": 0}}}"#, "metadata.test.pixelRatio"),
        (#"{"metadata": {"test": 3}}"#, "metadata.test is not an object"),
        (#"{"version": 8,"#, "not valid JSON"),
        (#"[1]"#, "not a JSON object"),
    ])
    func badMetadataIsAnError(json: String, message: String) {
        do {
            _ = try RenderTestMetadata.parse(Data(json.utf8))
            Issue.record("\(json) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(json): \(error)")
        }
    }

    // MARK: - Running

    @Test func passFailAndErrorLinesThenTheCount() throws {
        let s = try Scratch()
        let square = Self.rgba(8, 8, [0, 0, 0, 0], marks: [(2, 2), (3, 2), (2, 3), (3, 3)], mark: [200, 10, 10, 255])
        try s.add("a/exact", test: #"{"width": 8, "height": 8}"#, expected: ["expected.png": (8, 8, square)])
        // 64x64 with the default allowance 0.00025: one pixel (1/4096 = 0.000244) passes, two fail.
        let plain = Self.rgba(64, 64, Self.white)
        try s.add("b/one-pixel", test: #"{"width": 64, "height": 64}"#, expected: ["expected.png": (64, 64, plain)])
        try s.add("b/two-pixels", test: #"{"width": 64, "height": 64}"#, expected: ["expected.png": (64, 64, plain)])
        try s.add("b/two-pixels-allowed", test: #"{"width": 64, "height": 64, "allowed": 0.001}"#,
                  expected: ["expected.png": (64, 64, plain)])
        // The closest of several expected images counts.
        try s.add("c/multiple", test: #"{"width": 8, "height": 8}"#,
                  expected: ["expected.png": (8, 8, Self.rgba(8, 8, [0, 0, 255, 255])), "expected-other.png": (8, 8, square)])
        try s.add("c/throws", test: #"{"width": 8, "height": 8}"#, expected: ["expected.png": (8, 8, square)])
        try s.add("c/no-expected", test: #"{"width": 8, "height": 8}"#, expected: [:])
        try s.add("c/size", test: #"{"width": 8, "height": 8, "pixelRatio": 2}"#, expected: ["expected.png": (8, 8, square)])
        // A threshold so lax that black matches white: pixelmatch's threshold is the test's.
        try s.add("d/threshold", test: #"{"width": 8, "height": 8, "threshold": 1}"#,
                  expected: ["expected.png": (8, 8, Self.rgba(8, 8, Self.white))])

        let dot = Self.rgba(64, 64, Self.white, marks: [(10, 10)])
        let two = Self.rgba(64, 64, Self.white, marks: [(10, 10), (40, 50)])
        let calls = Calls()
        let r = Self.run([s.tests.path], Self.renderer(calls, [
            "exact": (8, 8, square), "one-pixel": (64, 64, dot), "two-pixels": (64, 64, two), "two-pixels-allowed": (64, 64, two),
            "multiple": (8, 8, square), "no-expected": (8, 8, square), "size": (16, 16, Self.rgba(16, 16, Self.white)),
            "threshold": (8, 8, Self.rgba(8, 8, [0, 0, 0, 255])),
        ]))
        #expect(r.lines == [
            "passed  a/exact  0.000000",
            "passed  b/one-pixel  0.000244",
            "failed  b/two-pixels  0.000488",
            "passed  b/two-pixels-allowed  0.000488",
            "passed  c/multiple  0.000000",
            "error  c/no-expected  no expected*.png in \(s.tests.path)/c/no-expected",
            "failed  c/size  expected.png is 8x8, the frame 16x16",
            "error  c/throws  boom: no frame for throws second line",
            "passed  d/threshold  0.000000",
            "5 passed, 4 failed",
        ])
        #expect(r.passed == 5 && r.failed == 4)
        // The renderer got CSS pixels and the ratio, and the assets folder beside tests/.
        let size = try #require(calls.calls.first { $0.id == "size" })
        #expect(size.width == 8 && size.height == 8 && size.ratio == 2)
        #expect(calls.calls.allSatisfy { $0.assets.standardizedFileURL.path == s.assets.standardizedFileURL.path })
    }

    @Test func aFailureLeavesActualAndDiffBesideTheTest() throws {
        let s = try Scratch()
        let expected = Self.rgba(64, 64, Self.white)
        let dir = try s.add("fill/broken", test: #"{"width": 64, "height": 64}"#, expected: ["expected.png": (64, 64, expected)])
        let passing = try s.add("fill/fine", test: #"{"width": 64, "height": 64}"#, expected: ["expected.png": (64, 64, expected)])
        let frame = Self.rgba(64, 64, Self.white, marks: [(5, 5), (6, 20), (30, 31)], mark: [0, 0, 0, 255])
        let r = Self.run([s.tests.path], Self.renderer(Calls(), ["broken": (64, 64, frame), "fine": (64, 64, expected)]))
        #expect(r.lines == ["failed  fill/broken  0.000732", "passed  fill/fine  0.000000", "1 passed, 1 failed"])

        let actual = try PNGCodec.decodeRGBA(try Data(contentsOf: dir.appendingPathComponent("actual.png")), name: "actual.png")
        #expect(actual.width == 64 && actual.height == 64 && actual.pixels == frame)
        let diff = try PNGCodec.decodeRGBA(try Data(contentsOf: dir.appendingPathComponent("diff.png")), name: "diff.png")
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(diff.pixels[((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 4)]) }
        #expect(px(5, 5) == [255, 0, 0, 255] && px(30, 31) == [255, 0, 0, 255] && px(0, 0) == [255, 255, 255, 255])
        // Nothing is written beside a passing test.
        #expect(!FileManager.default.fileExists(atPath: passing.appendingPathComponent("actual.png").path))
        #expect(!FileManager.default.fileExists(atPath: passing.appendingPathComponent("diff.png").path))
    }

    @Test func aReadOnlyTestFolderIsLeftAloneWithANote() throws {
        let s = try Scratch()
        let dir = try s.add("line/broken", test: #"{"width": 8, "height": 8}"#,
                            expected: ["expected.png": (8, 8, Self.rgba(8, 8, Self.white))])
        #expect(chmod(dir.path, 0o555) == 0)
        let r = Self.run([s.tests.path], Self.renderer(Calls(), ["broken": (8, 8, Self.rgba(8, 8, [0, 0, 0, 255]))]))
        #expect(r.lines.first == "failed  line/broken  1.000000")
        #expect(r.lines.count == 3 && r.lines[1].hasPrefix("note  ") && r.lines[1].contains(dir.path))
        #expect(r.lines.last == "0 passed, 1 failed")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("actual.png").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("diff.png").path))
    }

    @Test func outputFolderGetsEveryActualImage() throws {
        let s = try Scratch()
        let image = Self.rgba(8, 8, [10, 20, 30, 128])
        try s.add("circle-color/literal", test: #"{"width": 8, "height": 8}"#, expected: ["expected.png": (8, 8, image)])
        try s.add("line-dasharray/literal/line-width-constant", test: #"{"width": 4, "height": 4}"#,
                  expected: ["expected.png": (4, 4, Self.rgba(4, 4, Self.white))])
        try s.add("icon/broken", test: #"{"width": 8, "height": 8}"#, expected: ["expected.png": (8, 8, image)])
        let out = s.root.appendingPathComponent("out")
        let r = Self.run([s.tests.path], output: out.path, Self.renderer(Calls(), [
            "literal": (8, 8, image), "line-width-constant": (4, 4, Self.rgba(4, 4, Self.white)), "broken": (8, 8, Self.rgba(8, 8, Self.white)),
        ]))
        #expect(r.lines == ["passed  circle-color/literal  0.000000", "failed  icon/broken  1.000000",
                            "passed  line-dasharray/literal/line-width-constant  0.000000", "2 passed, 1 failed"])
        let files = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files == ["circle-color/literal/actual.png", "icon/broken/actual.png", "icon/broken/diff.png",
                          "line-dasharray/literal/line-width-constant/actual.png"])
        // actual.png holds the frame un-premultiplied as the reference harness reads its own back
        // (premultiplied 5, 10, 15 at alpha 128: divided by 128 / 255 and truncated).
        let a = try PNGCodec.decodeRGBA(try Data(contentsOf: out.appendingPathComponent("circle-color/literal/actual.png")), name: "a")
        #expect(Array(a.pixels.prefix(4)) == [9, 19, 29, 128])
    }

    @Test func collisionDebugIsReadFromTheTestsMetadata() throws {
        #expect(try RenderTestMetadata.parse(Data(#"{"metadata": {"test": {"collisionDebug": true}}}"#.utf8)).collisionDebug)
        #expect(try !RenderTestMetadata.parse(Data(#"{"version": 8}"#.utf8)).collisionDebug)
        #expect(throws: RenderTestError("metadata.test.collisionDebug is not true or false")) {
            try RenderTestMetadata.parse(Data(#"{"metadata": {"test": {"collisionDebug": 1}}}"#.utf8))
        }
    }

    @Test func framesAreReadBackAsTheReferenceHarnessReadsItsOwn() {
        // More colour than opacity (a glow added over nothing) wraps past 255 as the harness's
        // byte array stores it: MapLibre's globe atmosphere images hold such pixels.
        let pm = Pixmap(width: 3, height: 1)
        pm.pixels[0] = 159 << 24 | 172 << 16 | 160 << 8 | 155
        pm.pixels[1] = 255 << 24 | 10 << 16 | 20 << 8 | 30
        pm.pixels[2] = 0
        #expect(RenderTestReadBack.rgba(pm) == [19, 0, 248, 159, 10, 20, 30, 255, 0, 0, 0, 0])
        // Snapshots for people cap the same pixel instead.
        #expect(Array(pm.straightRGBA().prefix(4)) == [255, 255, 249, 159])
    }

    @Test func idsAndAssetsForAFolderInsideTheSuite() throws {
        let s = try Scratch()
        try s.add("circle-radius/literal", expected: ["expected.png": (512, 512, Self.rgba(512, 512, Self.white))])
        try s.add("circle-radius/function", test: #"{"width": 2, "height": 2}"#, expected: ["expected.png": (2, 2, Self.rgba(2, 2, Self.white))])
        try s.add("fill-color/literal", expected: [:])
        let calls = Calls()
        let renderer = Self.renderer(calls, ["literal": (512, 512, Self.rgba(512, 512, Self.white)), "function": (2, 2, Self.rgba(2, 2, Self.white))])
        // A group folder: ids stay relative to tests/, assets default to the suite's.
        let group = Self.run([s.tests.appendingPathComponent("circle-radius").path], renderer)
        #expect(group.lines == ["passed  circle-radius/function  0.000000", "passed  circle-radius/literal  0.000000", "2 passed, 0 failed"])
        let literal = try #require(calls.calls.first { $0.id == "literal" })
        #expect(literal.width == 512 && literal.height == 512 && literal.ratio == 1)
        #expect(calls.calls.allSatisfy { $0.assets.standardizedFileURL.path == s.assets.standardizedFileURL.path })
        // One test's own folder, and --assets.
        calls.calls = []
        let one = Self.run([s.tests.appendingPathComponent("circle-radius/function").path], assets: "/somewhere/assets", renderer)
        #expect(one.lines == ["passed  circle-radius/function  0.000000", "1 passed, 0 failed"])
        #expect(calls.calls.map(\.assets.path) == ["/somewhere/assets"])
        // A folder that is not there, or holds no test, fails.
        let missing = Self.run([s.root.appendingPathComponent("nope").path, s.assets.path], renderer)
        #expect(missing.lines == ["error  \(s.root.appendingPathComponent("nope").path)  not a directory",
                                  "error  \(s.assets.path)  no style.json in it or below it", "0 passed, 2 failed"])
    }

    // MARK: - Command line

    @Test func renderTestCommandLine() throws {
        let o = try Options.parse(["render-test", "tests", "more/tests", "--assets", "a", "--output=out"])
        #expect(o.command == .renderTest && o.renderTestDirectories == ["tests", "more/tests"])
        #expect(o.assets == "a" && o.output == "out")
        do {
            _ = try Options.parse(["render-test"])
            Issue.record("render-test without DIR parsed")
        } catch {
            #expect("\(error)" == "render-test needs at least one tests DIR")
        }
        #expect(throws: Options.UsageError.self) { try Options.parse(["snapshot", "--radar", "demo", "-o", "x.png", "extra"]) }
        #expect(Options.usage.contains("nightmap render-test DIR... [--assets DIR] [--output DIR]"))
    }
}
