import Foundation
import MapCore
import Testing
import TestSupport
@testable import MapData

/// JPEG and WebP raster tiles through libjpeg-turbo and libwebp, against Pillow's decode of the
/// same files (`Tests/Fixtures/tiles/make_images.py`), and bad input.
@Suite struct ImageTileCodecTests {
    static let folder = TileReaderTests.folder

    @Test func pixelsMatchPillow() throws {
        let fixture = try JSON.parse(contentsOf: Self.folder.appendingPathComponent("images.json"))
        let points = try #require(fixture["points"]?.arrayOf { $0.arrayOf(\.intValue) })
        let images = try #require(fixture["images"]?.objectValue).entries
        #expect(images.count == 6)
        for (name, e) in images {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            let (w, h, rgba) = name.hasSuffix(".webp") ? try WebPCodec.decodeRGBA(data, name: name) : try JPEGCodec.decodeRGBA(data, name: name)
            #expect(e["size"]?.arrayOf(\.intValue) == [w, h])
            let pixels = try #require(e["pixels"]?.arrayOf { $0.arrayOf(\.intValue) })
            for (p, expected) in zip(points, pixels) {
                let i = (p[1] * w + p[0]) * 4
                let got = [Int(rgba[i]), Int(rgba[i + 1]), Int(rgba[i + 2]), Int(rgba[i + 3])]
                // (A clear pixel's colour is whatever the encoder kept: only its alpha counts.)
                let compared = expected[3] == 0 ? [3] : [0, 1, 2, 3]
                #expect(compared.allSatisfy { abs(got[$0] - expected[$0]) <= 3 }, "\(name) at \(p): \(got), Pillow \(expected)")
            }
        }
        // The premultiplied pixmap of an opaque tile.
        let pixmap = try JPEGCodec.decode(Data(contentsOf: Self.folder.appendingPathComponent("tile.jpg")), name: "tile.jpg")
        #expect(pixmap.width == 256 && pixmap.pixels[0] >> 24 == 255)
    }

    @Test func badJPEGsAreOneNamedError() throws {
        let good = try Data(contentsOf: Self.folder.appendingPathComponent("tile.jpg"))
        var huge = good
        // The SOF0 frame's height and width (FF C0, length, precision, then 16-bit height and width).
        if let sof = (0..<(good.count - 9)).first(where: { good[$0] == 0xFF && good[$0 + 1] == 0xC0 }) {
            huge.replaceSubrange((sof + 5)..<(sof + 9), with: [0x7F, 0x00, 0x7F, 0x00])
        }
        let cases: [(String, Data, String)] = [
            ("html", Data("<html>404</html>".utf8), "not a JPEG file"),
            ("empty", Data(), "not a JPEG file"),
            // (libjpeg only warns of these and fills the rest with grey: refused all the same.)
            ("cut", good.prefix(good.count / 2), "corrupt JPEG data (the data ends early)"),
            ("cut late", good.prefix(good.count * 3 / 4), "corrupt JPEG data (the data ends early)"),
            ("no end marker", good.prefix(good.count - 2), "corrupt JPEG data (the data ends early)"),
            ("header only", good.prefix(20), "corrupt JPEG data"),
            ("32512 a side", huge, "JPEG size 32512x32512 is out of range"),
        ]
        for (name, data, expected) in cases {
            do {
                _ = try JPEGCodec.decodeRGBA(data, name: "t/\(name).jpg")
                Issue.record("\(name): decoded")
            } catch {
                #expect("\(error)".hasPrefix("t/\(name).jpg: ") && "\(error)".contains(expected) && !"\(error)".contains("\n"), "\(name): \(error)")
            }
        }
        // Every prefix: decoded or refused, never a crash.
        for n in stride(from: 0, to: good.count, by: 7) { _ = try? JPEGCodec.decodeRGBA(good.prefix(n), name: "p") }
    }

    @Test func badWebPsAreOneNamedError() throws {
        let good = try Data(contentsOf: Self.folder.appendingPathComponent("lossy.webp"))
        var wrongChunk = good
        wrongChunk.replaceSubrange(12..<16, with: Array("XXXX".utf8))
        let cases: [(String, Data, String)] = [
            ("jpeg", try Data(contentsOf: Self.folder.appendingPathComponent("tile.jpg")), "not a WebP file"),
            ("short", good.prefix(11), "not a WebP file"),
            ("cut", good.prefix(good.count / 2), "corrupt WebP data"),
            ("unknown chunk", wrongChunk, "corrupt WebP data"),
        ]
        for (name, data, expected) in cases {
            do {
                _ = try WebPCodec.decodeRGBA(data, name: "t/\(name).webp")
                Issue.record("\(name): decoded")
            } catch {
                #expect("\(error)".hasPrefix("t/\(name).webp: ") && "\(error)".contains(expected) && !"\(error)".contains("\n"), "\(name): \(error)")
            }
        }
        for n in stride(from: 0, to: good.count, by: 3) { _ = try? WebPCodec.decodeRGBA(good.prefix(n), name: "p") }
        // A clear pixel stays clear, premultiplied.
        let alpha = try WebPCodec.decode(Data(contentsOf: Self.folder.appendingPathComponent("alpha.webp")), name: "alpha.webp")
        #expect(alpha[10, 10] == 0 && alpha[200, 10] >> 24 == 255 && alpha[200, 120] >> 24 == 128)
    }
}
