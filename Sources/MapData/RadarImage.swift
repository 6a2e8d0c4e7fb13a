import CPNG
import Foundation
import MapCore
import Raster

/// One radar image as a service answers it: checked and decoded, or refused in one line.
///
/// A map server's failures rarely look like failures: a WMS service exception comes back as
/// HTTP 200 with an XML body, a proxy's error as an HTML page, a misconfigured layer as an
/// opaque image. Each is told apart here before it can stand in for the weather.
public enum RadarImage {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Pixels a radar image may have (4096 x 4096).
    public static let maxPixels = 1 << 24

    /// Decodes `data` (PNG or GIF; a GIF's first frame) into a premultiplied pixmap. `size`,
    /// when given, is the size the image must have (what was asked for); the image must have
    /// transparent pixels (clear air) unless `needsClearPixels` is false (a tile, which may lie
    /// wholly in rain or cloud). `name` (the URL or file) opens every error.
    public static func decode(_ data: Data, name: String, size: (width: Int, height: Int)? = nil, needsClearPixels: Bool = true) throws -> Pixmap {
        func fail(_ s: String) -> Failure { Failure(description: "\(name): \(s)") }
        guard !data.isEmpty else { throw fail("empty answer") }
        let kind = ImageKind(data)
        switch kind {
        case .xml(let exception):
            if let exception { throw fail("WMS service exception: \(exception)") }
            throw fail("an XML document, not an image")
        case .html: throw fail("an HTML page, not an image")
        case .unknown: throw fail("not a PNG or GIF image (\(data.count) bytes starting \(hexPrefix(data)))")
        case .png, .gif: break
        }
        if let declared = kind.declaredSize(data) {
            if let size, declared.width != size.width || declared.height != size.height {
                throw fail("image is \(declared.width)x\(declared.height), asked for \(size.width)x\(size.height)")
            }
            let pixels = declared.width.multipliedReportingOverflow(by: declared.height)
            guard !pixels.overflow, pixels.partialValue <= maxPixels else {
                throw fail("image is \(declared.width)x\(declared.height), more than the \(maxPixels) pixels a radar frame may have")
            }
        }
        let image: Pixmap
        do {
            if case .png = kind {
                image = try PNGCodec.decode(data, name: name)
            } else {
                let gif = try GIFDecoder.decode(data, name: name)
                guard let first = gif.frames.first else { throw fail("GIF has no frames") }
                image = first
            }
        } catch let e as Failure { throw e } catch {
            throw Failure(description: "\(error)")
        }
        if let size, image.width != size.width || image.height != size.height {
            throw fail("image is \(image.width)x\(image.height), asked for \(size.width)x\(size.height)")
        }
        guard !needsClearPixels || hasClearPixels(image) else {
            throw fail("image has no transparent pixels (an error image, or a service that ignores TRANSPARENT=true)")
        }
        return image
    }

    /// A north-up longitude/latitude grid (a world file's): the top-left corner of pixel (0, 0)
    /// and a pixel's size in degrees, east and south.
    public struct Grid: Equatable, Sendable {
        public var west: Double, north: Double, dx: Double, dy: Double
        public init(west: Double, north: Double, dx: Double, dy: Double) { self.west = west; self.north = north; self.dx = dx; self.dy = dy }
    }

    /// Decodes a PNG laid on `grid` (a whole mosaic, say) into `width` x `height` pixels over
    /// `box`, each the source pixel under its centre (clear outside the image). The PNG is read
    /// one row at a time and only the picked pixels are kept, so a 12200 x 5400 mosaic costs
    /// one row of memory besides the result.
    public static func decode(_ data: Data, name: String, grid: Grid, box: LngLatBounds, width: Int, height: Int) throws -> Pixmap {
        func fail(_ s: String) -> Failure { Failure(description: "\(name): \(s)") }
        guard !data.isEmpty else { throw fail("empty answer") }
        guard case .png = ImageKind(data) else {
            if case .gif = ImageKind(data) { throw fail("a mosaic placed by a world file must be a PNG (this is a GIF)") }
            return try decode(data, name: name)          // (says what it is instead)
        }
        guard width > 0, height > 0, width <= maxPixels / height, grid.dx > 0, grid.dy > 0 else {
            throw fail("cannot sample \(width)x\(height) pixels from this grid")
        }
        do { try PNGCodec.checkChunks(data, name: name) } catch { throw Failure(description: "\(error)") }
        let columns: [Int32] = (0..<width).map { x in
            let lon = box.west + (Double(x) + 0.5) / Double(width) * (box.east - box.west)
            let c = ((lon - grid.west) / grid.dx).rounded(.down)
            return c.isFinite && c >= 0 && c < 1_073_741_824 ? Int32(c) : -1
        }
        let rows: [Int32] = (0..<height).map { y in
            let lat = box.north - (Double(y) + 0.5) / Double(height) * (box.north - box.south)
            let r = ((grid.north - lat) / grid.dy).rounded(.down)
            return r.isFinite && r >= 0 && r < 1_073_741_824 ? Int32(r) : (r < 0 ? -1 : Int32(1 << 30))
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw in
            rgba.withUnsafeMutableBufferPointer { out in
                nm_png_read_sampled(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, columns, Int32(width),
                                    rows, Int32(height), out.baseAddress, &message, message.count)
            }
        }
        guard status == 0 else {
            throw fail("corrupt PNG data (\(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))")
        }
        return Pixmap(straightRGBA: rgba, width: width, height: height)
    }

    /// The size a PNG or GIF header declares, from its first 24 bytes; nil for anything else.
    public static func declaredSize(_ data: Data) -> (width: Int, height: Int)? { ImageKind(data).declaredSize(data) }

    /// True when some pixel is not fully opaque.
    public static func hasClearPixels(_ p: Pixmap) -> Bool {
        for i in 0..<p.count where p.pixels[i] >> 24 != 255 { return true }
        return false
    }

    static func hexPrefix(_ data: Data) -> String {
        data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// What the bytes are, by their first bytes.
    enum ImageKind {
        case png, gif, html
        /// XML, with the text of its `ServiceException` when it is a WMS exception report.
        case xml(String?)
        case unknown

        init(_ data: Data) {
            let bytes = [UInt8](data.prefix(8))
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png; return }
            if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { self = .gif; return }
            // Text: skip a byte order mark and white space.
            let head = String(decoding: data.prefix(4096), as: UTF8.self)
            let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
            guard trimmed.hasPrefix("<") else { self = .unknown; return }
            let lower = trimmed.lowercased()
            if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || lower.contains("<body") { self = .html; return }
            self = .xml(Self.exceptionText(String(decoding: data.prefix(65_536), as: UTF8.self)))
        }

        /// The first `ServiceException` (WMS 1.1.1 and 1.3.0) or `ExceptionText` (OWS) element's
        /// text, white space collapsed, at most 160 characters.
        static func exceptionText(_ xml: String) -> String? {
            for tag in ["ServiceException", "ows:ExceptionText", "ExceptionText"] {
                // The element itself, not one whose name begins the same (ServiceExceptionReport).
                var from = xml.startIndex
                var found: Range<String.Index>?
                while let r = xml.range(of: "<\(tag)", range: from..<xml.endIndex) {
                    if r.upperBound < xml.endIndex, xml[r.upperBound] == ">" || xml[r.upperBound].isWhitespace { found = r; break }
                    from = r.upperBound
                }
                guard let open = found, let start = xml[open.upperBound...].firstIndex(of: ">") else { continue }
                let body = xml[xml.index(after: start)...]
                let end = body.range(of: "</\(tag)")?.lowerBound ?? body.endIndex
                var text = String(body[..<end])
                text = text.replacingOccurrences(of: "<![CDATA[", with: "").replacingOccurrences(of: "]]>", with: "")
                let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if words.isEmpty { return "(no text)" }
                return words.count > 160 ? String(words.prefix(157)) + "..." : words
            }
            return nil
        }

        /// The size the header declares (PNG: IHDR; GIF: the logical screen), if readable.
        func declaredSize(_ data: Data) -> (width: Int, height: Int)? {
            let b = [UInt8](data.prefix(24))
            switch self {
            case .png:
                guard b.count >= 24 else { return nil }
                func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
                return (u32(16), u32(20))
            case .gif:
                guard b.count >= 10 else { return nil }
                return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
            default:
                return nil
            }
        }
    }
}
