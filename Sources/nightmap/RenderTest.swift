import Foundation
import MapCore
import MapData
import Raster

/// What the harness needs from the renderer: render the style document `style` (the raw
/// style.json bytes, already known to be the test's) at width x height CSS pixels and
/// pixelRatio, resolving local:// URLs against `assets`, and return the frame as premultiplied
/// Pixmap of (width*ratio)x(height*ratio), or throw a one-line error.
typealias StyleRenderer = (_ style: Data, _ styleURL: URL, _ width: Int, _ height: Int, _ pixelRatio: Double, _ assets: URL) throws -> Pixmap

/// A one-line error of the render-test harness or of a renderer.
struct RenderTestError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `metadata.test` of a test's style.json merged over the reference harness's defaults (other
/// keys are ignored).
struct RenderTestMetadata: Equatable {
    var width = 512
    var height = 512
    var pixelRatio = 1.0
    /// The largest fraction of differing pixels that still passes.
    var allowed = 0.00025
    /// pixelmatch's threshold.
    var threshold = 0.1285
    /// How long symbols fade in and out, milliseconds: the map's `fadeDuration` (the harness
    /// makes its map with this, else 0: symbols placed at once).
    var fadeDuration = 0.0
    /// The map's steepest pitch (`maxPitch`; MapLibre's 60 when absent).
    var maxPitch = 60.0
    /// Whether the map draws its labels' collision boxes (`collisionDebug`: MapLibre's
    /// `showCollisionBoxes`).
    var collisionDebug = false

    /// The frame's size in device pixels: floor(width * pixelRatio) x floor(height * pixelRatio).
    var frameWidth: Int { Int((Double(width) * pixelRatio).rounded(.down)) }
    var frameHeight: Int { Int((Double(height) * pixelRatio).rounded(.down)) }

    /// Reads `metadata.test` from style.json bytes.
    static func parse(_ style: Data) throws -> RenderTestMetadata {
        let root: JSON
        do {
            root = try JSON.parse(style, name: "style.json")
        } catch {
            throw RenderTestError("style.json is not valid JSON (\(JSON.parseFailure(error, name: "style.json")))")
        }
        return try parse(root)
    }

    /// Reads `metadata.test` from style.json's parsed document.
    static func parse(_ root: JSON) throws -> RenderTestMetadata {
        guard let document = root.objectValue else { throw RenderTestError("style.json is not a JSON object") }
        var m = RenderTestMetadata()
        guard let metadata = document["metadata"], metadata != .null else { return m }
        guard let metadataObject = metadata.objectValue else { throw RenderTestError("metadata is not an object") }
        guard let test = metadataObject["test"], test != .null else { return m }
        guard let t = test.objectValue else { throw RenderTestError("metadata.test is not an object") }

        func number(_ key: String) throws -> Double? {
            guard let v = t[key] else { return nil }
            guard let n = v.numberValue, n.isFinite else { throw RenderTestError("metadata.test.\(key) is not a number") }
            return n
        }
        func size(_ key: String) throws -> Int? {
            guard let v = try number(key) else { return nil }
            guard v >= 1, v <= 16384, v.rounded() == v else {
                throw RenderTestError("metadata.test.\(key) \(v) is not a whole number of pixels 1...16384")
            }
            return Int(v)
        }
        if let v = try size("width") { m.width = v }
        if let v = try size("height") { m.height = v }
        if let v = try number("pixelRatio") {
            guard v > 0, v <= 16 else { throw RenderTestError("metadata.test.pixelRatio \(v) is not in (0, 16]") }
            m.pixelRatio = v
        }
        if let v = try number("allowed") { m.allowed = v }
        if let v = try number("threshold") { m.threshold = v }
        if let v = try number("fadeDuration") {
            guard v >= 0 else { throw RenderTestError("metadata.test.fadeDuration \(v) is negative") }
            m.fadeDuration = v
        }
        if let v = try number("maxPitch") { m.maxPitch = v }
        if let v = t["collisionDebug"] {
            guard case let .bool(b) = v else { throw RenderTestError("metadata.test.collisionDebug is not true or false") }
            m.collisionDebug = b
        }
        guard m.frameWidth >= 1, m.frameHeight >= 1 else {
            throw RenderTestError("the frame \(m.width)x\(m.height) at pixel ratio \(m.pixelRatio) has no pixels")
        }
        return m
    }
}

/// One test: a folder holding style.json and expected*.png.
struct RenderTestCase: Equatable {
    /// The folder's path relative to the tests folder, such as `circle-color/literal`.
    let id: String
    let directory: URL
    var styleURL: URL { directory.appendingPathComponent("style.json") }
}

/// What became of one test.
struct RenderTestResult: Equatable {
    enum Status: String { case passed, failed, error }
    let id: String
    let status: Status
    /// The smallest fraction of differing pixels over the expected images, when one could be compared.
    let difference: Double?
    /// What went wrong, for errors and for failures without a comparison (sizes differ).
    let message: String?

    /// `passed  ID  0.000000`, `failed  ID  0.012345` or `error  ID  MESSAGE`.
    var line: String {
        let detail = difference.map { String(format: "%.6f", $0) } ?? message ?? ""
        return "\(status.rawValue)  \(id)  \(detail)"
    }
}

/// Runs MapLibre GL JS render tests (style.json + expected*.png folders) the way its reference
/// harness does: metadata defaults, the frame un-premultiplied, pixelmatch 7.1 against every
/// expected image, pass when the smallest fraction of differing pixels is within `allowed`.
struct RenderTestRunner {
    /// Runs every test under each of `directories` (recursively, sorted by id), printing one line
    /// per test, then notes (files that could not be written), then `N passed, N failed`.
    ///
    /// - `assets`: where local:// URLs point; by default the `assets` folder beside the tests
    ///   folder (`DIR/../assets`; for a DIR inside a tests folder, beside that one).
    /// - `output`: if given, `OUTPUT/<test id>/actual.png` is written for every test that
    ///   rendered, and `diff.png` beside it for every failing one.
    /// - Without `output`, a failing test gets `actual.png` and `diff.png` (against the closest
    ///   expected image) beside its style.json instead, unless that folder is not writable (for
    ///   root: has no write permission bit at all). With it, the tests' folders stay untouched
    ///   (the tests may be a checkout's own files).
    func run(directories: [String], assets: String?, output: String?, renderer: StyleRenderer,
             print: (String) -> Void) -> (passed: Int, failed: Int) {
        var passed = 0, failed = 0
        var notes: [String] = []
        var unwritable: [String] = []
        var seen = Set<String>()
        let outputURL = output.map { URL(fileURLWithPath: $0).standardizedFileURL }
        for dir in directories {
            let root = URL(fileURLWithPath: dir).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                print("error  \(dir)  not a directory")
                failed += 1
                continue
            }
            let testsFolder = Self.testsFolder(containing: root)
            let assetsURL = assets.map { URL(fileURLWithPath: $0).standardizedFileURL }
                ?? testsFolder.deletingLastPathComponent().appendingPathComponent("assets")
            let cases = Self.discover(root, testsFolder: testsFolder)
            if cases.isEmpty {
                print("error  \(dir)  no style.json in it or below it")
                failed += 1
                continue
            }
            for test in cases where seen.insert(test.directory.path).inserted {
                let result = runOne(test, assets: assetsURL, output: outputURL, renderer: renderer,
                                    notes: &notes, unwritable: &unwritable)
                print(result.line)
                if result.status == .passed { passed += 1 } else { failed += 1 }
            }
        }
        for note in notes { print("note  \(note)") }
        if let first = unwritable.first {
            print("note  actual.png and diff.png not written beside \(unwritable.count) failing test(s): folder not writable (\(first)\(unwritable.count > 1 ? ", ..." : ""))")
        }
        print("\(passed) passed, \(failed) failed")
        return (passed, failed)
    }

    /// Renders and compares one test. Files it could not write are reported in `notes`, folders
    /// it was not allowed to write into in `unwritable`.
    func runOne(_ test: RenderTestCase, assets: URL, output: URL?, renderer: StyleRenderer,
                notes: inout [String], unwritable: inout [String]) -> RenderTestResult {
        func error(_ message: String) -> RenderTestResult {
            RenderTestResult(id: test.id, status: .error, difference: nil, message: Self.oneLine(message))
        }
        guard let style = FileManager.default.contents(atPath: test.styleURL.path) else {
            return error("cannot read \(test.styleURL.path)")
        }
        let meta: RenderTestMetadata
        do { meta = try RenderTestMetadata.parse(style) } catch let e { return error("\(e)") }

        let pixmap: Pixmap
        do {
            pixmap = try renderer(style, test.styleURL, meta.width, meta.height, meta.pixelRatio, assets)
        } catch let e {
            return error("\(e)")
        }
        let (w, h) = (meta.frameWidth, meta.frameHeight)
        guard pixmap.width == w, pixmap.height == h else {
            return error("the renderer returned \(pixmap.width)x\(pixmap.height), not \(w)x\(h)")
        }
        let actual = RenderTestReadBack.rgba(pixmap)

        let outputFolder = output?.appendingPathComponent(test.id)
        if let outputFolder {
            do {
                try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
                try PNGCodec.writeRGBA(width: w, height: h, pixels: actual, to: outputFolder.appendingPathComponent("actual.png").path)
            } catch let e {
                notes.append("\(test.id)  cannot write \(outputFolder.path)/actual.png: \(Self.oneLine("\(e)"))")
            }
        }

        let expectedNames = Self.expectedImages(in: test.directory)
        guard !expectedNames.isEmpty else { return error("no expected*.png in \(test.directory.path)") }

        // The closest expected image (the first of equals, as the reference harness keeps).
        var best: (fraction: Double, diff: [UInt8])?
        var sizeMessages: [String] = []
        for name in expectedNames {
            let path = test.directory.appendingPathComponent(name).path
            let expected: (width: Int, height: Int, pixels: [UInt8])
            do {
                guard let data = FileManager.default.contents(atPath: path) else { return error("cannot read \(path)") }
                expected = try PNGCodec.decodeRGBA(data, name: name)
            } catch let e {
                return error("\(e)")
            }
            guard expected.width == w, expected.height == h else {
                sizeMessages.append("\(name) is \(expected.width)x\(expected.height), the frame \(w)x\(h)")
                continue
            }
            var diff: [UInt8] = []
            let count: Int
            do {
                count = try Pixelmatch.compare(actual, expected.pixels, width: w, height: h,
                                               options: .init(threshold: meta.threshold), output: &diff)
            } catch let e {
                return error("\(name): \(e)")
            }
            let fraction = Double(count) / Double(w * h)
            if best.map({ fraction < $0.fraction }) ?? true { best = (fraction, diff) }
        }

        let result: RenderTestResult
        if let best {
            result = RenderTestResult(id: test.id, status: best.fraction <= meta.allowed ? .passed : .failed,
                                      difference: best.fraction, message: nil)
        } else {
            result = RenderTestResult(id: test.id, status: .failed, difference: nil, message: sizeMessages.joined(separator: "; "))
        }
        guard result.status == .failed else { return result }

        // A failure leaves the frame and the diff in the output folder, else beside style.json.
        let diff = best?.diff
        if outputFolder != nil {
            // Written below.
        } else if Self.isWritableDirectory(test.directory.path) {
            do {
                try PNGCodec.writeRGBA(width: w, height: h, pixels: actual, to: test.directory.appendingPathComponent("actual.png").path)
                if let diff {
                    try PNGCodec.writeRGBA(width: w, height: h, pixels: diff, to: test.directory.appendingPathComponent("diff.png").path)
                }
            } catch let e {
                notes.append("\(test.id)  \(Self.oneLine("\(e)"))")
            }
        } else {
            unwritable.append(test.directory.path)
        }
        if let outputFolder, let diff {
            do {
                try PNGCodec.writeRGBA(width: w, height: h, pixels: diff, to: outputFolder.appendingPathComponent("diff.png").path)
            } catch let e {
                notes.append("\(test.id)  cannot write \(outputFolder.path)/diff.png: \(Self.oneLine("\(e)"))")
            }
        }
        return result
    }

    // MARK: - Finding tests

    /// The tests folder test ids are relative to: `dir` itself when an `assets` folder sits beside
    /// it (the layout of MapLibre's suite: tests/ and assets/), else the nearest folder above it
    /// with one beside it (so `tests/circle-color` still names its tests `circle-color/...`), else `dir`.
    static func testsFolder(containing dir: URL) -> URL {
        var candidate = dir
        while true {
            let parent = candidate.deletingLastPathComponent()
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: parent.appendingPathComponent("assets").path, isDirectory: &isDirectory),
               isDirectory.boolValue, candidate.lastPathComponent != "assets" {
                return candidate
            }
            if parent.path == candidate.path || candidate.pathComponents.count <= 1 { return dir }
            candidate = parent
        }
    }

    /// Every folder at or below `root` that holds a style.json (hidden folders skipped), sorted by id.
    static func discover(_ root: URL, testsFolder: URL) -> [RenderTestCase] {
        let rootParts = root.pathComponents, baseParts = testsFolder.pathComponents
        let prefix = rootParts.count > baseParts.count && Array(rootParts.prefix(baseParts.count)) == baseParts
            ? Array(rootParts.dropFirst(baseParts.count)) : []
        var relativeFolders: [[String]] = []
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("style.json").path) { relativeFolders.append([]) }
        if let e = FileManager.default.enumerator(atPath: root.path) {
            for case let path as String in e {
                let parts = path.split(separator: "/").map(String.init)
                guard parts.last == "style.json", parts.count > 1, !parts.contains(where: { $0.hasPrefix(".") }) else { continue }
                relativeFolders.append(Array(parts.dropLast()))
            }
        }
        let cases = relativeFolders.map { rel -> RenderTestCase in
            let idParts = prefix + rel
            let directory = rel.reduce(root) { $0.appendingPathComponent($1) }
            return RenderTestCase(id: idParts.isEmpty ? root.lastPathComponent : idParts.joined(separator: "/"), directory: directory)
        }
        return cases.sorted { $0.id < $1.id }
    }

    /// The names of the expected*.png files in `directory`, sorted.
    static func expectedImages(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted()
    }

    /// Whether files can be created in `path`. Root may write anywhere; for root a folder with no
    /// write permission bit counts as read-only, so a suite installed read-only stays untouched.
    static func isWritableDirectory(_ path: String) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        if geteuid() == 0 {
            var st = stat()
            guard stat(path, &st) == 0 else { return false }
            return st.st_mode & 0o222 != 0
        }
        return true
    }

    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
