import CGif
import Foundation
import Raster

/// A decoded GIF: every frame composited onto the logical screen, as premultiplied pixmaps.
public struct GIFImage {
    public let width: Int
    public let height: Int
    public let frames: [Pixmap]
    /// Frame delays in seconds (0 when the file gives none).
    public let delays: [Double]
    /// Set when the file went bad after some good frames (they are kept).
    public let warning: String?
}

/// Decodes GIF files with giflib's low-level API, so every size is checked before anything is
/// allocated: palette and transparency, interlacing, local colour tables, multi-frame files with
/// disposal (2 clears the frame's rectangle to transparent, as browsers do; 3 restores the
/// canvas as it was before the frame).
public enum GIFDecoder {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The largest canvas accepted, in pixels (and per side).
    public static let maxPixels = 16_777_216
    public static let maxSide = 16_384
    /// The most frames one file may hold.
    public static let maxFrames = 1000
    /// The most pixels a file's frames may hold together (128 MB decoded). Every frame is a
    /// copy of the whole canvas while a 1x1 frame takes 15 bytes of file: without this bound an
    /// 89-byte file decoded to three 4096 x 4096 frames (1.4 s under the fuzz build) and a 3 kB
    /// one asked for 200 of them (13 GB). Frames past it are left out with a warning, as past
    /// `maxFrames`.
    public static let maxTotalPixels = 1 << 25
    /// The largest file read.
    public static let maxBytes = 64 << 20

    public static func read(path: String) throws -> GIFImage {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int else { throw Failure(description: "\(path): cannot read file") }
        guard size <= maxBytes else { throw Failure(description: "\(path): file is \(size) bytes, more than the \(maxBytes) a frame may have") }
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot read file") }
        return try decode(data, name: path)
    }

    /// Decodes GIF bytes; `name` names the source in errors.
    public static func decode(_ data: Data, name: String) throws -> GIFImage {
        guard !data.isEmpty else { throw Failure(description: "\(name): empty file") }
        guard data.count >= 6, data.prefix(3).elementsEqual("GIF".utf8) else { throw Failure(description: "\(name): not a GIF file") }
        let reader = MemoryReader(data)
        let box = Unmanaged.passRetained(reader)
        defer { box.release() }
        var error: Int32 = 0
        guard let gif = DGifOpen(box.toOpaque(), gifRead, &error) else {
            throw Failure(description: "\(name): \(describe(error, truncatedAt: reader))")
        }
        defer { var e: Int32 = 0; DGifCloseFile(gif, &e) }
        let w = Int(gif.pointee.SWidth), h = Int(gif.pointee.SHeight)
        guard w > 0, h > 0 else { throw Failure(description: "\(name): zero-sized image (\(w)x\(h))") }
        guard w <= maxSide, h <= maxSide, w * h <= maxPixels else {
            throw Failure(description: "\(name): image size \(w)x\(h) is too large (at most \(maxSide) per side and \(maxPixels) pixels)")
        }
        var canvas = [UInt32](repeating: 0, count: w * h)
        var frames: [Pixmap] = [], delays: [Double] = []
        var gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        var row = [GifPixelType]()
        var warning: String?

        func fail(_ what: String) throws -> Never {
            throw Failure(description: "\(name): \(what)")
        }

        decoding: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                let message = describe(gif.pointee.Error, truncatedAt: reader)
                if frames.isEmpty { try fail(message) }
                warning = "\(name): \(message) after \(frames.count) frame(s)"
                break
            }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
                    let message = describe(gif.pointee.Error, truncatedAt: reader)
                    if frames.isEmpty { try fail(message) }
                    warning = "\(name): \(message) after \(frames.count) frame(s)"
                    break decoding
                }
                var first = true
                while let b = block {
                    if first && code == GRAPHICS_EXT_FUNC_CODE && b[0] >= 4 {
                        DGifExtensionToGCB(Int(b[0]), b + 1, &gcb)
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                        let message = describe(gif.pointee.Error, truncatedAt: reader)
                        if frames.isEmpty { try fail(message) }
                        warning = "\(name): \(message) after \(frames.count) frame(s)"
                        break decoding
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard frames.count < maxFrames else {
                    warning = "\(name): more than \(maxFrames) frames; the rest are ignored"
                    break decoding
                }
                guard (frames.count + 1) * w * h <= maxTotalPixels else {
                    warning = "\(name): \(frames.count) frames of \(w)x\(h) are as many as a file may decode to (\(maxTotalPixels) pixels); the rest are ignored"
                    break decoding
                }
                guard DGifGetImageDesc(gif) == GIF_OK else {
                    let message = describe(gif.pointee.Error, truncatedAt: reader)
                    if frames.isEmpty { try fail(message) }
                    warning = "\(name): \(message) after \(frames.count) frame(s)"
                    break decoding
                }
                let d = gif.pointee.Image
                let fw = Int(d.Width), fh = Int(d.Height), left = Int(d.Left), top = Int(d.Top)
                guard fw > 0, fh > 0 else { try fail("frame \(frames.count) has zero size") }
                guard fw <= maxSide, fh <= maxSide, fw * fh <= maxPixels else { try fail("frame \(frames.count) size \(fw)x\(fh) is too large") }
                guard let map = d.ColorMap ?? gif.pointee.SColorMap else { try fail("frame \(frames.count) has no colour table") }
                let palette = colours(map)
                let transparent = Int(gcb.TransparentColor)
                let disposal = gcb.DisposalMode
                let saved = disposal == DISPOSE_PREVIOUS ? canvas : nil
                if row.count < fw { row = [GifPixelType](repeating: 0, count: fw) }
                // Interlaced rows arrive in four passes.
                let passes: [(start: Int, step: Int)] = d.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
                var ok = true
                rows: for pass in passes {
                    var y = pass.start
                    while y < fh {
                        if row.withUnsafeMutableBufferPointer({ DGifGetLine(gif, $0.baseAddress, Int32(fw)) }) != GIF_OK {
                            ok = false
                            break rows
                        }
                        let cy = top + y
                        if cy >= 0 && cy < h {
                            let x0 = max(0, left), x1 = min(w, left + fw)
                            if x0 < x1 {
                                // Through buffer pointers: a 16 M pixel frame took seconds with
                                // checked subscripts in the fuzz (ASan) build. `row` holds at
                                // least fw indices, `palette` 256 colours.
                                canvas.withUnsafeMutableBufferPointer { c in
                                    row.withUnsafeBufferPointer { r in
                                        palette.withUnsafeBufferPointer { pal in
                                            guard let c = c.baseAddress, let r = r.baseAddress else { return }
                                            let out = c + cy * w, src = r - left
                                            for cx in x0..<x1 {
                                                let index = Int(src[cx])
                                                if index != transparent { out[cx] = pal[index] }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        y += pass.step
                    }
                }
                if !ok {
                    let message = describe(gif.pointee.Error, truncatedAt: reader)
                    if frames.isEmpty { try fail(message) }
                    warning = "\(name): \(message) in frame \(frames.count); \(frames.count) good frame(s) kept"
                    break decoding
                }
                let frame = Pixmap(width: w, height: h)
                canvas.withUnsafeBufferPointer { c in c.baseAddress.map { frame.pixels.update(from: $0, count: w * h) } }
                frames.append(frame)
                delays.append(Double(gcb.DelayTime) / 100)
                switch disposal {
                case DISPOSE_BACKGROUND:
                    let x0 = max(0, left), x1 = min(w, left + fw), y0 = max(0, top), y1 = min(h, top + fh)
                    if x0 < x1 && y0 < y1 {
                        canvas.withUnsafeMutableBufferPointer { c in
                            guard let c = c.baseAddress else { return }
                            for y in y0..<y1 { (c + y * w + x0).update(repeating: 0, count: x1 - x0) }
                        }
                    }
                case DISPOSE_PREVIOUS:
                    if let saved { canvas = saved }
                default:
                    break
                }
                gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            case TERMINATE_RECORD_TYPE:
                break decoding
            default:
                try fail("corrupt data (unknown record)")
            }
        }
        guard !frames.isEmpty else { throw Failure(description: "\(name): no image in the file") }
        return GIFImage(width: w, height: h, frames: frames, delays: delays, warning: warning)
    }

    /// A colour map as 256 premultiplied pixels; indices past its end are transparent.
    static func colours(_ map: UnsafeMutablePointer<ColorMapObject>) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: 256)
        let n = min(256, Int(map.pointee.ColorCount))
        guard let c = map.pointee.Colors else { return out }
        for i in 0..<n {
            out[i] = RGBA8(c[i].Red, c[i].Green, c[i].Blue, 255).premultiplied.packed
        }
        return out
    }

    static func describe(_ error: Int32, truncatedAt reader: MemoryReader) -> String {
        // giflib reports a short read for truncated files and for some corrupt ones alike: only
        // a read past the end of the data means truncated.
        if reader.hitEnd || error == D_GIF_ERR_EOF_TOO_SOON {
            return "truncated (the data ends after \(reader.data.count) bytes)"
        }
        if error == D_GIF_ERR_READ_FAILED { return "corrupt data (unreadable image data)" }
        switch error {
        case D_GIF_ERR_NOT_GIF_FILE: return "not a GIF file"
        case D_GIF_ERR_NO_SCRN_DSCR: return "corrupt data (no screen descriptor)"
        case D_GIF_ERR_NO_IMAG_DSCR: return "corrupt data (no image descriptor)"
        case D_GIF_ERR_NO_COLOR_MAP: return "a frame has no colour table"
        case D_GIF_ERR_WRONG_RECORD: return "corrupt data (wrong record type)"
        case D_GIF_ERR_DATA_TOO_BIG: return "corrupt data (image data larger than the frame)"
        case D_GIF_ERR_NOT_ENOUGH_MEM: return "not enough memory"
        case D_GIF_ERR_IMAGE_DEFECT: return "corrupt image data"
        default:
            if let s = GifErrorString(error) { return "corrupt data (\(String(cString: s)))" }
            return "corrupt data (giflib error \(error))"
        }
    }

    /// Bytes handed to giflib through its read callback.
    final class MemoryReader {
        let data: [UInt8]
        var offset = 0
        var hitEnd = false
        init(_ d: Data) { data = [UInt8](d) }
    }
}

/// giflib's read callback: copies from the `MemoryReader` in `UserData`.
private let gifRead: InputFunc = { gif, buffer, length in
    guard let gif, let buffer, length >= 0, let user = gif.pointee.UserData else { return 0 }
    let reader = Unmanaged<GIFDecoder.MemoryReader>.fromOpaque(user).takeUnretainedValue()
    let n = min(Int(length), reader.data.count - reader.offset)
    if n < Int(length) { reader.hitEnd = true }
    if n > 0 {
        reader.data.withUnsafeBufferPointer { src in
            guard let src = src.baseAddress else { return }
            buffer.update(from: src + reader.offset, count: n)
        }
        reader.offset += n
    }
    return Int32(n)
}
