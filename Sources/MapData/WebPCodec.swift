import CWebP
import Foundation
import Raster

/// WebP raster tiles (lossy, lossless, with alpha) through Debian's libwebp: the size is read
/// from the header and bounded before any pixel is allocated; the pixels are decoded into
/// memory of ours.
public enum WebPCodec {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Whether `data` starts as a WebP file does ("RIFF", size, "WEBP").
    public static func isWebP(_ data: Data) -> Bool {
        guard data.count >= 12 else { return false }
        let b = [UInt8](data.prefix(12))
        return b[0..<4].elementsEqual("RIFF".utf8) && b[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Straight RGBA8 pixels, rows packed. `name` names the source in errors.
    /// The most pixels a WebP may have: half of a JPEG's. A lossless WebP of 29 bytes can claim
    /// 16384 x 4096 pixels, and the image is allocated before a byte of it is decoded (256 MB).
    public static let maxPixels = JPEGCodec.maxPixels / 2

    public static func decodeRGBA(_ data: Data, name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard isWebP(data) else { throw Failure(description: "\(name): not a WebP file") }
        var w: Int32 = 0, h: Int32 = 0
        let known = data.withUnsafeBytes { b in WebPGetInfo(b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count, &w, &h) }
        guard known != 0 else { throw Failure(description: "\(name): corrupt WebP data (no valid header)") }
        let width = Int(w), height = Int(h)
        guard width > 0, height > 0, width <= JPEGCodec.maxSide, height <= JPEGCodec.maxSide, width * height <= Self.maxPixels else {
            throw Failure(description: "\(name): WebP size \(width)x\(height) is out of range")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let out = data.withUnsafeBytes { b in
            rgba.withUnsafeMutableBytes { o in
                WebPDecodeRGBAInto(b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count,
                                   o.baseAddress?.assumingMemoryBound(to: UInt8.self), o.count, Int32(width * 4))
            }
        }
        guard out != nil else { throw Failure(description: "\(name): corrupt WebP data (the image cannot be decoded)") }
        return (width, height, rgba)
    }

    /// A premultiplied pixmap.
    public static func decode(_ data: Data, name: String) throws -> Pixmap {
        let (w, h, rgba) = try decodeRGBA(data, name: name)
        return Pixmap(straightRGBA: rgba, width: w, height: h)
    }
}
