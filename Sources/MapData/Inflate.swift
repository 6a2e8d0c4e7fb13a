import CZlib
import Foundation

/// Decompressing gzip and zlib data (tiles, PMTiles directories) through Debian's zlib, with a
/// limit on the output so that a small hostile input (a "gzip bomb") cannot fill memory.
public enum Inflate {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// (A result of the inflating loop: more than the limit came out.)
    private static let overLimit: Int32 = -1000

    /// The most a tile or a directory may inflate to.
    public static let defaultLimit = 16 << 20

    /// Whether `data` starts as gzip does (1f 8b).
    public static func isGzip(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1f && data[data.startIndex + 1] == 0x8b
    }

    /// The data of a gzip or zlib stream (detected from its header), at most `limit` bytes.
    /// Throws for a corrupt or truncated stream, or one that inflates to more than `limit`.
    public static func decompress(_ data: Data, limit: Int = defaultLimit) throws -> Data {
        var stream = z_stream()
        // 15 + 32: a zlib or a gzip header, detected.
        guard nm_inflate_init(&stream, 15 + 32) == Z_OK else { throw Failure(description: "cannot start zlib") }
        defer { inflateEnd(&stream) }
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let result: Int32 = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            guard let base = input.baseAddress else { return Z_BUF_ERROR }
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if out.count + produced > limit { return overLimit }
                out.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return Z_STREAM_END }
                if status != Z_OK { return status }
                if stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
        }
        switch result {
        case Z_STREAM_END: return out
        case overLimit: throw Failure(description: "inflates to more than \(limit >> 20) MB")
        case Z_BUF_ERROR: throw Failure(description: "compressed data ends early")
        case Z_DATA_ERROR: throw Failure(description: "corrupt compressed data (\(stream.msg.map { String(cString: $0) } ?? "zlib"))")
        default: throw Failure(description: "cannot inflate (zlib error \(result))")
        }
    }
}
