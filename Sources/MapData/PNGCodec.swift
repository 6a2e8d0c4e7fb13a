import CPNG
import Foundation
import Raster

/// Reading and writing PNG files through libpng's simplified API (no setjmp needed).
public enum PNGCodec {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Encodes `pixmap` as an 8-bit straight-alpha RGBA PNG.
    public static func encode(_ pixmap: Pixmap) throws -> Data {
        var rgba = [UInt8](repeating: 0, count: pixmap.count * 4)
        for i in 0..<pixmap.count {
            let c = PremultipliedColor(packed: pixmap.pixels[i]).unpremultiplied
            rgba[i * 4] = c.r; rgba[i * 4 + 1] = c.g; rgba[i * 4 + 2] = c.b; rgba[i * 4 + 3] = c.a
        }
        return try encodeRGBA(width: pixmap.width, height: pixmap.height, pixels: rgba)
    }

    /// Encodes straight (not premultiplied) RGBA8 pixels, rows packed (`width * height * 4`
    /// bytes), as an 8-bit RGBA PNG, byte for byte.
    public static func encodeRGBA(width: Int, height: Int, pixels rgba: [UInt8]) throws -> Data {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw Failure(description: "PNG encoding failed: \(rgba.count) bytes are not \(width)x\(height) RGBA pixels")
        }
        var image = png_image()
        image.version = nm_png_image_version()
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = nm_png_format_rgba()
        var size: png_alloc_size_t = 0
        let stride = png_int_32(width * 4)
        // First call measures, second writes.
        guard rgba.withUnsafeBytes({ png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, stride, nil) }) != 0,
              size > 0 else {
            throw Failure(description: "PNG encoding failed: \(message(image))")
        }
        var out = Data(count: Int(size))
        let ok = out.withUnsafeMutableBytes { dst in
            rgba.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        png_image_free(&image)
        guard ok != 0 else { throw Failure(description: "PNG encoding failed: \(message(image))") }
        out.count = Int(size)
        return out
    }

    /// Writes straight RGBA8 pixels to `path` as PNG: into a temporary file beside it, then
    /// renamed over `path`, so a reader never sees half a file.
    public static func writeRGBA(width: Int, height: Int, pixels: [UInt8], to path: String) throws {
        try AtomicFile.write(try encodeRGBA(width: width, height: height, pixels: pixels), to: path)
    }

    /// Writes `pixmap` to `path` as PNG.
    public static func write(_ pixmap: Pixmap, to path: String) throws {
        try AtomicFile.write(try encode(pixmap), to: path)
    }

    /// Decodes PNG bytes into a premultiplied pixmap. `name` names the source in errors.
    public static func decode(_ data: Data, name: String) throws -> Pixmap {
        let (w, h, rgba) = try decodeRGBA(data, name: name)
        return Pixmap(straightRGBA: rgba, width: w, height: h)
    }

    /// Decodes PNG bytes into straight (not premultiplied) RGBA8 pixels, rows packed. An 8-bit
    /// RGBA file without colour-space chunks comes back byte for byte; other kinds are converted
    /// by libpng (grey and palette expanded, 16-bit reduced). `name` names the source in errors.
    public static func decodeRGBA(_ data: Data, name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try checkChunks(data, name: name)
        var image = png_image()
        image.version = nm_png_image_version()
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw Failure(description: "\(name): not a PNG file (\(message(image)))") }
        defer { png_image_free(&image) }
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0, w <= 32768, h <= 32768, w * h <= 64 << 20 else {
            throw Failure(description: "\(name): PNG size \(w)x\(h) is out of range")
        }
        image.format = nm_png_format_rgba()
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let ok = data.withUnsafeBytes { _ in
            rgba.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(w * 4), nil) }
        }
        guard ok != 0 else { throw Failure(description: "\(name): corrupt PNG data (\(message(image)))") }
        return (w, h, rgba)
    }

    /// Walks the chunk list before libpng sees the data, because libpng allocates a chunk's
    /// declared length before reading it: a 1 kB file whose tEXt chunk claims 512 MB made it
    /// allocate 512 MB (found by the PNG fuzz target). Every chunk must lie within the data, and
    /// the image data (IDAT) must be large enough to inflate to the size IHDR declares (deflate
    /// expands at most 1032 times), so that a few bytes cannot make the decoder allocate the
    /// pixels of a huge image. Data without the PNG signature is left for libpng to refuse.
    static func checkChunks(_ data: Data, name: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            guard bytes.count >= 8, bytes.prefix(8).elementsEqual(signature) else { return }
            func u32(_ at: Int) -> UInt64 {
                UInt64(bytes[at]) << 24 | UInt64(bytes[at + 1]) << 16 | UInt64(bytes[at + 2]) << 8 | UInt64(bytes[at + 3])
            }
            var offset = 8
            var idatBytes: UInt64 = 0
            var header: (width: UInt64, height: UInt64, depth: UInt64, colourType: UInt8)?
            while bytes.count - offset >= 8 {
                let length = u32(offset)
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)].map { (0x21...0x7E).contains($0) ? $0 : UInt8(ascii: "?") },
                                  as: UTF8.self)
                // Length, type, data, CRC.
                guard length <= 0x7FFF_FFFF, length + 12 <= UInt64(bytes.count - offset) else {
                    throw Failure(description: "\(name): corrupt PNG data (chunk \"\(type)\" at byte \(offset) declares \(length) bytes; the data ends after \(bytes.count) bytes)")
                }
                if type == "IHDR" && length >= 13 {
                    header = (u32(offset + 8), u32(offset + 12), UInt64(bytes[offset + 16]), bytes[offset + 17])
                }
                if type == "IDAT" { idatBytes += length }
                if type == "IEND" { break }
                offset += 12 + Int(length)
            }
            guard let h = header, h.width > 0, h.height > 0, h.width <= 0x7FFF_FFFF, h.height <= 0x7FFF_FFFF else { return }
            let channels: UInt64 = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][h.colourType] ?? 1
            // The pixels' bits alone, in bytes: less than the inflated rows, interlaced or not.
            let (bits, overflow) = (h.width * channels * max(1, min(h.depth, 16))).multipliedReportingOverflow(by: h.height)
            if overflow || (bits + 7) / 8 > (idatBytes + 64) * 1032 {
                throw Failure(description: "\(name): corrupt PNG data (\(idatBytes) bytes of image data cannot hold the \(h.width)x\(h.height) image the header declares)")
            }
        }
    }

    /// Reads a PNG file into a premultiplied pixmap.
    public static func read(path: String) throws -> Pixmap {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot read file")
        }
        return try decode(data, name: path)
    }

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
