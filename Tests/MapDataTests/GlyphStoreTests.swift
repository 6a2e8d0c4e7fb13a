import Foundation
import MapCore
import Testing
import TestSupport
@testable import MapData

/// A style's glyph ranges as labels ask for them: URLs as MapLibre makes them, files and HTTP,
/// missing glyphs (nothing) against missing ranges (the fallback), one report line per URL.
/// Every wait is on an event (`waitUntilIdle`, the server's requests), none on the clock.
@Suite struct GlyphStoreTests {
    static let stack = "Open Sans Semibold,Arial Unicode MS Bold"

    /// Local fonts as the store sees them: every code point has a glyph (advance 7), and every
    /// call is counted.
    final class FakeFonts: GlyphSource, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [UInt32] = []
        private var glyphCalls = 0
        let ready: Bool, fakeGeneration: Int
        init(ready: Bool = true, generation: Int = 0) { self.ready = ready; fakeGeneration = generation }
        func request(_ codePoints: [UInt32], stack: String) -> Bool {
            lock.lock(); asked += codePoints; lock.unlock()
            return ready
        }
        func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
            lock.lock(); glyphCalls += 1; lock.unlock()
            return SDFGlyph(codePoint: codePoint, width: 1, height: 1, left: 0, top: 0, advance: 7, bitmap: [UInt8](repeating: 0, count: 49))
        }
        var generation: Int { fakeGeneration }
        var requested: [UInt32] { lock.lock(); defer { lock.unlock() }; return asked }
        var glyphsAsked: Int { lock.lock(); defer { lock.unlock() }; return glyphCalls }
    }

    /// The lines a store reports.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// A fresh folder holding `glyphs/<stack>/0-255.pbf` (the fixture), removed by the caller.
    static func glyphFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-glyphs-\(UUID().uuidString)")
        let folder = dir.appendingPathComponent("glyphs").appendingPathComponent(stack)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: GlyphRangeTests.file, to: folder.appendingPathComponent("0-255.pbf"))
        return dir
    }

    @Test func urlsAreMapLibres() {
        let t = GlyphURLTemplate("https://example.com/{fontstack}/{range}.pbf?again={range}&{fontstack}")
        // The first occurrence of each token only; spaces escaped, commas kept.
        #expect(t.url(stack: "Open Sans Regular,Arial Unicode MS Regular", range: 0, encoded: true)
                == "https://example.com/Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf?again={range}&{fontstack}")
        // A path names the folder as the stack is written.
        #expect(GlyphURLTemplate("local://glyphs/{fontstack}/{range}.pbf").url(stack: "A B,C", range: 1, encoded: false)
                == "local://glyphs/A B,C/256-511.pbf")
        // Characters of the URL's structure, and UTF-8, escaped inside a name; a name holding a
        // token is not substituted again.
        #expect(GlyphURLTemplate("http://h/{fontstack}/{range}").url(stack: "Ä/b?#%{range}", range: 0, encoded: true)
                == "http://h/%C3%84%2Fb%3F%23%25%7Brange%7D/0-255")
        func range(_ cp: UInt32) -> String { GlyphURLTemplate.rangeName(GlyphURLTemplate.rangeIndex(cp)) }
        #expect(range(0x41) == "0-255")
        #expect(range(0x4E00) == "19968-20223")
        #expect(range(0x2A6A5) == "173568-173823")
    }

    @Test func aFileRangeLoadsOffTheCallersThread() throws {
        let dir = try Self.glyphFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fonts = FakeFonts()
        let lines = Lines()
        let resolver = ResourceResolver(styleDirectory: dir, assets: dir)
        for template in ["glyphs/{fontstack}/{range}.pbf", "local://glyphs/{fontstack}/{range}.pbf",
                         dir.appendingPathComponent("glyphs").path + "/{fontstack}/{range}.pbf",
                         "file://" + dir.appendingPathComponent("glyphs").path + "/{fontstack}/{range}.pbf"] {
            let store = GlyphStore(template: template, resolver: resolver, fallback: fonts, report: lines.add)
            #expect(store.generation == 0)
            #expect(!store.request([65, 66], stack: Self.stack), "\(template): at hand before it was read")
            #expect(store.waitUntilIdle(timeout: 10))
            #expect(store.request([65, 66], stack: Self.stack), "\(template)")
            #expect(store.generation == 1)
            let a = try #require(store.glyph(65, stack: Self.stack), "\(template)")
            #expect(a.width == 16 && a.height == 18 && a.top == -8 && a.advance == 15)
            // Loaded ranges are not read again.
            #expect(store.request([67], stack: Self.stack) && store.generation == 1)
            // A code point the loaded range lacks is nothing: no fallback.
            #expect(store.glyph(1, stack: Self.stack) == nil)
        }
        #expect(lines.all == [])
        #expect(fonts.requested.isEmpty && fonts.glyphsAsked == 0)
    }

    @Test func aMissingRangeComesFromTheFallbackAfterOneLine() throws {
        let dir = try Self.glyphFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fonts = FakeFonts(generation: 10)
        let lines = Lines()
        let store = GlyphStore(template: "glyphs/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: dir, assets: nil),
                               fallback: fonts, report: lines.add)
        #expect(store.generation == 10)
        #expect(!store.request([0x4E00, 0x4E01, 65], stack: Self.stack))
        #expect(store.waitUntilIdle(timeout: 10))
        #expect(store.generation == 12)
        #expect(store.request([0x4E00, 0x4E01, 65], stack: Self.stack))
        #expect(fonts.requested == [0x4E00, 0x4E01])
        #expect(store.glyph(0x4E00, stack: Self.stack)?.advance == 7)
        #expect(store.glyph(65, stack: Self.stack)?.advance == 15)
        _ = store.request([0x4E02], stack: Self.stack)
        let all = lines.all
        #expect(all.count == 1, "\(all)")
        #expect(all.first?.hasPrefix("glyphs/\(Self.stack)/19968-20223.pbf: no such file") == true, "\(all)")
        // While the fallback is not ready, neither is the store.
        let waiting = GlyphStore(template: "glyphs/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: dir, assets: nil),
                                 fallback: FakeFonts(ready: false))
        _ = waiting.request([0x4E00], stack: Self.stack)
        #expect(waiting.waitUntilIdle(timeout: 10))
        #expect(!waiting.request([0x4E00], stack: Self.stack))
        // Without a fallback, a failed range is at hand and has no glyphs.
        let alone = GlyphStore(template: "glyphs/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: dir, assets: nil))
        _ = alone.request([0x4E00], stack: Self.stack)
        #expect(alone.waitUntilIdle(timeout: 10))
        #expect(alone.request([0x4E00], stack: Self.stack) && alone.glyph(0x4E00, stack: Self.stack) == nil)
    }

    @Test func rangesPastTheLimitComeFromTheFallback() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-glyphs-\(UUID().uuidString)")
        let lines = Lines()
        let fonts = FakeFonts()
        let store = GlyphStore(template: "\(dir.path)/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: nil, assets: nil),
                               fallback: fonts, report: lines.add)
        let codePoints = (0...UInt32(GlyphStore.maxRanges)).map { $0 * 256 }
        #expect(!store.request(codePoints, stack: "S"))
        #expect(store.waitUntilIdle(timeout: 60))
        #expect(store.request(codePoints, stack: "S"))
        let all = lines.all
        #expect(all.count == GlyphStore.maxRanges + 1)
        #expect(all.filter { $0.contains("more than 1024 glyph ranges") }.count == 1)
        #expect(store.glyph(UInt32(GlyphStore.maxRanges) * 256, stack: "S")?.advance == 7)
    }

    @Test func concurrentAskersQueueEachRangeOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-glyphs-\(UUID().uuidString)")
        let lines = Lines()
        let store = GlyphStore(template: "\(dir.path)/{fontstack}/{range}.pbf", resolver: ResourceResolver(styleDirectory: nil, assets: nil),
                               fallback: FakeFonts(), report: lines.add)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let cp = UInt32(i % 4) * 256 + UInt32(i)
            _ = store.request([cp], stack: "S")
            _ = store.glyph(cp, stack: "S")
        }
        #expect(store.waitUntilIdle(timeout: 10))
        #expect(store.generation == 4)
        #expect(lines.all.count == 4)
    }

    /// A glyph server on 127.0.0.1: /ok serves the fixture for the stack, /404 has nothing,
    /// /html answers a proxy's error page with 200, /hang never answers, /cut serves the
    /// fixture's first 1,000 bytes.
    static func server() throws -> LocalHTTPServer {
        let pbf = try Data(contentsOf: GlyphRangeTests.file)
        return try LocalHTTPServer(.route { target in
            if target.hasPrefix("/ok/") { return .image(pbf, type: "application/x-protobuf") }
            if target.hasPrefix("/html/") { return LocalHTTPServer.Behaviour.htmlErrorPage }
            if target.hasPrefix("/hang/") { return .silent }
            if target.hasPrefix("/cut/") { return .image(pbf.prefix(1000), type: "application/x-protobuf") }
            return .status(404, "<html>Not Found</html>")
        })
    }

    @Test func httpRangesEachOutcome() throws {
        let server = try Self.server()
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-glyph-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let resolver = ResourceResolver(styleDirectory: nil, assets: nil)
        func store(_ path: String, _ lines: Lines, _ fonts: FakeFonts, cache: URL = dir) -> GlyphStore {
            GlyphStore(template: "http://127.0.0.1:\(server.port)/\(path)/{fontstack}/{range}.pbf", resolver: resolver, fallback: fonts,
                       cache: HTTPCache(directory: cache, timeout: 2), report: lines.add)
        }
        let encoded = "Open%20Sans%20Semibold,Arial%20Unicode%20MS%20Bold"
        var outcomes: [String: (lines: [String], fallback: [UInt32])] = [:]
        for path in ["ok", "404", "html", "hang", "cut"] {
            let lines = Lines(), fonts = FakeFonts()
            let s = store(path, lines, fonts)
            let before = server.requests
            #expect(!s.request([65], stack: Self.stack))
            #expect(server.waitForRequests(before + 1, timeout: 10))
            if path == "hang" { #expect(!s.request([65], stack: Self.stack), "at hand while the server is silent") }
            #expect(s.waitUntilIdle(timeout: 10))
            #expect(s.request([65], stack: Self.stack))
            #expect(server.targets.last == "/\(path)/\(encoded)/0-255.pbf")
            #expect(s.glyph(65, stack: Self.stack)?.advance == (path == "ok" ? 15 : 7))
            outcomes[path] = (lines.all, fonts.requested)
        }
        let url = { (path: String) in "http://127.0.0.1:\(server.port)/\(path)/\(encoded)/0-255.pbf" }
        #expect(outcomes["ok"]?.lines == [] && outcomes["ok"]?.fallback == [])
        #expect(outcomes["404"]?.lines == ["\(url("404")): no such glyph range (the server has none)"])
        #expect(outcomes["html"]?.lines == ["\(url("html")): not a glyph PBF (an HTML page)"])
        #expect(outcomes["hang"]?.lines == ["\(url("hang")): no answer within 2 s"])
        let cut = outcomes["cut"]?.lines ?? []
        #expect(cut.count == 1 && cut.allSatisfy { $0.hasPrefix("\(url("cut")): glyph file: ") }, "\(cut)")
        for path in ["404", "html", "hang", "cut"] { #expect(outcomes[path]?.fallback == [65]) }

        // The range is in the cache; offline, another store reads it from there.
        let cached = try #require(HTTPCache(directory: dir).read(url("ok")))
        #expect(cached.body == (try Data(contentsOf: GlyphRangeTests.file)))
        server.behaviour = .refuse
        let lines = Lines(), fonts = FakeFonts()
        let offline = store("ok", lines, fonts)
        _ = offline.request([65], stack: Self.stack)
        #expect(offline.waitUntilIdle(timeout: 10))
        #expect(offline.glyph(65, stack: Self.stack)?.advance == 15)
        #expect(lines.all == [] && fonts.requested == [])
    }

    @Test func httpWithoutACacheIsNotRead() throws {
        let lines = Lines()
        let store = GlyphStore(template: "https://example.invalid/{fontstack}/{range}.pbf",
                               resolver: ResourceResolver(styleDirectory: nil, assets: nil), report: lines.add)
        _ = store.request([65], stack: "A B")
        #expect(store.waitUntilIdle(timeout: 10))
        #expect(lines.all == ["https://example.invalid/A%20B/0-255.pbf: glyph ranges over HTTP are not read here"])
        // The render tests' localhost:2900 with an assets folder is a file (the stack as written).
        let dir = try Self.glyphFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let local = GlyphStore(template: "http://localhost:2900/glyphs/{fontstack}/{range}.pbf",
                               resolver: ResourceResolver(styleDirectory: nil, assets: dir), report: lines.add)
        _ = local.request([65], stack: Self.stack)
        #expect(local.waitUntilIdle(timeout: 10))
        #expect(local.glyph(65, stack: Self.stack)?.advance == 15)
        #expect(lines.all.count == 1)
    }

    @Test func theDocumentsGlyphsTemplate() throws {
        func document(_ glyphs: String) throws -> StyleDocument {
            try StyleDocument(json: JSON.parse(Data(#"{"version": 8, "glyphs": \#(glyphs), "sources": {}, "layers": []}"#.utf8), name: "t"))
        }
        let good = try document(#""local://glyphs/{fontstack}/{range}.pbf""#)
        #expect(good.glyphs == "local://glyphs/{fontstack}/{range}.pbf" && good.warnings == [])
        // Not a string: the document is read all the same, without glyphs.
        let number = try document("12")
        #expect(number.glyphs == nil && number.warnings == ["glyphs: expected string, found number"])
        let tokenless = try document(#""glyphs/{fontstack}.pbf""#)
        #expect(tokenless.glyphs == "glyphs/{fontstack}.pbf")
        #expect(tokenless.warnings == [#"glyphs: "{range}" token required, found "glyphs/{fontstack}.pbf""#])
    }
}
