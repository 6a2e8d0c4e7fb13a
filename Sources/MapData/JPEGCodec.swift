import CJPEG
import Foundation
import Raster

/// JPEG raster tiles through Debian's libjpeg-turbo: the header is read first, so a size out of
/// range is refused before any pixel is allocated; libjpeg's errors come back as one line.
public enum JPEGCodec {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Whether `data` starts as a JPEG does (FF D8 FF).
    public static func isJPEG(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0xFF && data[data.startIndex + 1] == 0xD8 && data[data.startIndex + 2] == 0xFF
    }

    /// The largest side and pixel count accepted (a tile is 256 or 512 pixels a side).
    public static let maxSide = 16384, maxPixels = 64 << 20

    /// Straight RGBA8 pixels, rows packed (alpha 255). `name` names the source in errors.
    public static func decodeRGBA(_ data: Data, name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard isJPEG(data) else { throw Failure(description: "\(name): not a JPEG file") }
        var message = [CChar](repeating: 0, count: 256)
        var w: Int32 = 0, h: Int32 = 0
        let sized = data.withUnsafeBytes { b in
            nm_jpeg_size(b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count, &w, &h, &message, message.count)
        }
        guard sized == 0 else { throw Failure(description: "\(name): corrupt JPEG data (\(text(message)))") }
        let width = Int(w), height = Int(h)
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw Failure(description: "\(name): JPEG size \(width)x\(height) is out of range")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let done = data.withUnsafeBytes { b in
            rgba.withUnsafeMutableBytes { out in
                nm_jpeg_decode(b.baseAddress?.assumingMemoryBound(to: UInt8.self), b.count, w, h,
                               out.baseAddress?.assumingMemoryBound(to: UInt8.self), &message, message.count)
            }
        }
        guard done == 0 else { throw Failure(description: "\(name): corrupt JPEG data (\(text(message)))") }
        return (width, height, rgba)
    }

    /// A premultiplied (here opaque) pixmap.
    public static func decode(_ data: Data, name: String) throws -> Pixmap {
        let (w, h, rgba) = try decodeRGBA(data, name: name)
        return Pixmap(straightRGBA: rgba, width: w, height: h)
    }

    private static func text(_ c: [CChar]) -> String {
        String(decoding: c.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
