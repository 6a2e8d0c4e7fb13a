import Foundation
import MapData
import Testing

/// Inputs the libFuzzer targets (tools/fuzz.sh, Sources/Fuzz) found, each kept in
/// Tests/Fuzz/regressions/<kind>/ (tools/fuzz.sh runs them through the sanitizer build too):
/// every one must now end quickly, without a large allocation, in an error (or for GIF frames
/// past a limit, a warning) naming the input.
@Suite struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/MapDataTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fuzz/regressions")

    static func input(_ kind: String, _ file: String) throws -> Data {
        try Data(contentsOf: regressions.appendingPathComponent(kind).appendingPathComponent(file))
    }

    /// The message of the error `body` throws ("" when it throws none).
    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    // MARK: nightmap.conf

    /// `)` CR LF `z4` LF `z=` CR LF: Swift counts CR LF as one character, so splitting at LF alone
    /// left the first line holding a line break (a two-line error, and CR LF files as one line).
    @Test func configLinesEndAtCRLFToo() throws {
        let text = String(decoding: try Self.input("config", "crlf-lines.conf"), as: UTF8.self)
        let m = Self.message { _ = try ConfigText.entries(text, name: "nightmap.conf") }
        #expect(m == "nightmap.conf:1: ')' is not a 'name = value' line")
        let entries = try ConfigText.entries("light = day\r\nzoom = 4\r\n\rsize=1x1\u{2028}scene = iss", name: "n")
        #expect(entries.map(\.line) == [1, 2, 4, 5] && entries.map(\.value) == ["day", "4", "1x1", "iss"])
    }

    // MARK: Tile cache

    /// A meta file and header lines whose `Expires` is no date (`0T`, `1T`): Foundation's
    /// DateFormatter, which read it, leaked a character set (LeakSanitizer). HTTP dates are now
    /// read by `HTTPDate`; a value that is no date makes the answer stale at once.
    @Test func tileCacheExpiresThatIsNoDate() throws {
        let data = try Self.input("tilecache", "expires-not-a-date.meta")
        let cut = data.firstIndex(of: 0) ?? data.endIndex
        var headers: [String: String] = [:]
        for line in String(decoding: data[(cut + 1)...], as: UTF8.self).split(separator: "\n") {
            if let f = HTTPGet.field(line) { headers[f.name] = f.value }
        }
        #expect(headers["expires"] != nil && HTTPCache.expiry(headers, now: 1000) == 1000)
    }

    // MARK: Radar answers

    /// A PNG signature and an IHDR whose width and height are 0xFFFFFFFF: their product
    /// overflowed while the answer's declared size was checked against the pixel limit.
    @Test func radarAnswerWithAnOverflowingDeclaredSize() throws {
        let data = try Self.input("radaranswer", "overflow-declared-size.png")
        let m = Self.message { _ = try RadarImage.decode(data, name: "http://radar.test/a.png") }
        #expect(m.hasPrefix("http://radar.test/a.png: image is 4294967295x4294967295, more than the"), "\(m)")
        let asked = Self.message { _ = try RadarImage.decode(data, name: "a.png", size: (64, 64)) }
        #expect(asked == "a.png: image is 4294967295x4294967295, asked for 64x64")
    }

    // MARK: PNG

    /// 41 bytes: IHDR, then a tEXt chunk declaring 0x20000019 bytes. libpng allocated the
    /// declared length (512 MB) before finding the data ends.
    @Test func pngChunkLongerThanTheData() throws {
        let data = try Self.input("png", "oom-text-chunk-512mb.png")
        #expect(data.count == 41)
        let m = Self.message { _ = try PNGCodec.decode(data, name: "oom.png") }
        #expect(m == "oom.png: corrupt PNG data (chunk \"tEXt\" at byte 33 declares 536870937 bytes; the data ends after 41 bytes)")
        #expect(throws: PNGCodec.Failure.self) { _ = try PNGCodec.decodeRGBA(data, name: "oom.png") }
    }

    /// A well-formed 8192 x 8192 RGBA header (valid CRC) with 10 bytes of image data: refused
    /// before the 256 MB of pixels are allocated.
    @Test func pngHeaderLargerThanItsData() {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            png.append(contentsOf: withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
            png.append(contentsOf: typed)
            png.append(contentsOf: withUnsafeBytes(of: Self.crc32(typed).bigEndian, Array.init))
        }
        chunk("IHDR", [0, 0, 0x20, 0, 0, 0, 0x20, 0, 8, 6, 0, 0, 0])
        chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 0, 0, 0, 0])
        chunk("IEND", [])
        let m = Self.message { _ = try PNGCodec.decodeRGBA(png, name: "huge.png") }
        #expect(m == "huge.png: corrupt PNG data (10 bytes of image data cannot hold the 8192x8192 image the header declares)")
    }

    /// PNG kinds libpng converts (grey, palette with tRNS, 16-bit, interlaced) still decode.
    @Test(arguments: ["synthetic-grey16.png", "synthetic-palette-trns.png", "synthetic-rgba16.png",
                      "synthetic-rgba8-interlaced.png", "sprite-1x.png"])
    func pngSeedsStillDecode(_ file: String) throws {
        let data = try Data(contentsOf: Self.regressions.deletingLastPathComponent().appendingPathComponent("png/\(file)"))
        let image = try PNGCodec.decodeRGBA(data, name: file)
        #expect(image.width > 0 && image.pixels.count == image.width * image.height * 4)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    // MARK: GIF

    /// 3 kB: a 4096 x 4096 screen and 200 frames of 1x1 pixel (15 bytes each). Every frame is a
    /// 64 MB copy of the canvas: 13 GB. Now the frames stop at 2 (GIFDecoder.maxTotalPixels),
    /// with a warning naming the file.
    @Test func gifFramesBoundedByTotalPixels() throws {
        let gif = try GIFDecoder.decode(try Self.input("gif", "rss-200-frames-4096x4096.gif"), name: "bomb.gif")
        #expect(gif.width == 4096 && gif.height == 4096)
        #expect(gif.frames.count == 2)
        #expect(gif.warning == "bomb.gif: 2 frames of 4096x4096 are as many as a file may decode to (33554432 pixels); the rest are ignored")
        // 89 bytes, three frames disposed to the previous canvas (another copy each): 1.4 s in the fuzz build.
        let slow = try GIFDecoder.decode(try Self.input("gif", "slow-3-frames-4096x4096-dispose-previous.gif"), name: "slow.gif")
        #expect(slow.frames.count == 2 && slow.warning != nil)
    }

    /// A frame may lie partly outside the screen, but not hold more than `maxPixels` pixels.
    @Test func gifFrameAreaIsBounded() {
        var d = Data("GIF89a".utf8)
        d += [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]             // 1x1 screen, 2-colour table
        d += [0x2C, 0, 0, 0, 0, 0x00, 0x20, 0x00, 0x10, 0]                  // an 8192 x 4096 frame at 0, 0
        d += [0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(Self.message { _ = try GIFDecoder.decode(d, name: "wide.gif") } == "wide.gif: frame 0 size 8192x4096 is too large")
    }

    // MARK: SVG

    /// Path data with something after Z that is neither a number nor a command: the parser met
    /// it again and again, appending a close each time (a hang, memory growing).
    @Test func svgJunkAfterClosePath() throws {
        let found = String(decoding: try Self.input("svg", "timeout-junk-after-z.svg"), as: UTF8.self)
        #expect(Self.message { _ = try SVGIcon.parse(found, name: "x", origin: "found.svg") }
            .hasPrefix("found.svg: bad path data near \""))
        let minimal = #"<svg viewBox="0 0 1 1"><path d="M0 0 L1 1 Z%"/></svg>"#
        #expect(Self.message { _ = try SVGIcon.parse(minimal, name: "x", origin: "min.svg") }
            == "min.svg: bad path data near \"%\" (a command must follow Z)")
        // A command after Z is still fine.
        let ok = try SVGIcon.parse(#"<svg viewBox="0 0 1 1"><path d="M0 0 L1 1 Z M0 1 L1 0 z"/></svg>"#, name: "x", origin: "ok.svg")
        #expect(ok.shapes.count == 1)
    }
}
