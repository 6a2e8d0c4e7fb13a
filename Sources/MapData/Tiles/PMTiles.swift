import MapCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PMTiles v3 archive, read with `pread`: the 127-byte header and the root directory at open,
/// leaf directories and tiles when asked, never the whole file. Every offset is checked against
/// the file, leaf directories nest at most `maxDepth` deep (a loop of leaves ends there), and
/// directories and tiles inflate to at most 16 MB.
public final class PMTiles: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Compression of tiles or directories: 1 none, 2 gzip, 3 brotli, 4 zstd (0 unknown).
    public enum Compression: UInt8, Sendable { case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4 }
    /// 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF (0 unknown).
    public enum TileType: UInt8, Sendable { case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5 }

    public struct Header: Sendable, Equatable {
        public var rootOffset: UInt64, rootLength: UInt64
        public var metadataOffset: UInt64, metadataLength: UInt64
        public var leafOffset: UInt64, leafLength: UInt64
        public var tileDataOffset: UInt64, tileDataLength: UInt64
        public var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
        public var clustered: Bool
        public var internalCompression: Compression, tileCompression: Compression
        public var tileType: TileType
        public var minZoom: Int, maxZoom: Int
        /// West, south, east, north in degrees.
        public var bounds: (Double, Double, Double, Double)
        public var centerZoom: Int, center: (lon: Double, lat: Double)

        public static func == (a: Header, b: Header) -> Bool {
            a.rootOffset == b.rootOffset && a.rootLength == b.rootLength && a.tileDataOffset == b.tileDataOffset
                && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.tileType == b.tileType
        }

        /// Reads the header from its 127 bytes; a bad magic, version or field throws.
        public static func parse(_ b: Data, fileSize: UInt64? = nil) throws -> Header {
            guard b.count >= 127 else { throw Failure(description: "not a PMTiles file (shorter than its 127-byte header)") }
            let bytes = [UInt8](b.prefix(127))
            guard bytes[0..<7].elementsEqual("PMTiles".utf8) else { throw Failure(description: "not a PMTiles file (no 'PMTiles' magic)") }
            guard bytes[7] == 3 else { throw Failure(description: "PMTiles version \(bytes[7]), not 3") }
            func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) } }
            func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) }) }
            func compression(_ v: UInt8, _ what: String) throws -> Compression {
                guard let c = Compression(rawValue: v) else { throw Failure(description: "unknown \(what) compression \(v)") }
                return c
            }
            let h = Header(rootOffset: u64(8), rootLength: u64(16), metadataOffset: u64(24), metadataLength: u64(32),
                           leafOffset: u64(40), leafLength: u64(48), tileDataOffset: u64(56), tileDataLength: u64(64),
                           addressedTiles: u64(72), tileEntries: u64(80), tileContents: u64(88), clustered: bytes[96] == 1,
                           internalCompression: try compression(bytes[97], "directory"), tileCompression: try compression(bytes[98], "tile"),
                           tileType: TileType(rawValue: bytes[99]) ?? .unknown, minZoom: Int(bytes[100]), maxZoom: Int(bytes[101]),
                           bounds: (Double(i32(102)) / 1e7, Double(i32(106)) / 1e7, Double(i32(110)) / 1e7, Double(i32(114)) / 1e7),
                           centerZoom: Int(bytes[118]), center: (Double(i32(119)) / 1e7, Double(i32(123)) / 1e7))
            guard h.minZoom <= h.maxZoom, h.maxZoom <= 30 else { throw Failure(description: "zooms \(h.minZoom) to \(h.maxZoom) are out of range") }
            guard h.rootLength > 0, h.rootLength <= 16 << 20 else { throw Failure(description: "a root directory of \(h.rootLength) bytes") }
            if let size = fileSize {
                for (name, o, l) in [("root directory", h.rootOffset, h.rootLength), ("metadata", h.metadataOffset, h.metadataLength),
                                     ("leaf directories", h.leafOffset, h.leafLength), ("tile data", h.tileDataOffset, h.tileDataLength)] {
                    let (end, over) = o.addingReportingOverflow(l)
                    guard !over, end <= size else { throw Failure(description: "its \(name) (\(l) bytes at \(o)) lies outside the file (\(size) bytes)") }
                }
            }
            return h
        }
    }

    /// One directory entry: the first tile id, where its bytes are (from the tile data or the
    /// leaf directories), and how many consecutive ids share them (0: a leaf directory).
    public struct Entry: Sendable, Equatable {
        public var tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64
    }

    /// Leaf directories nest no deeper than this (the writers use one level).
    public static let maxDepth = 4

    /// The file's path (or the name a memory archive was given), for errors.
    public let path: String
    public let header: Header
    private let source: any ByteSource
    private var size: UInt64 { source.size }
    private let root: [Entry]
    /// Leaf directories read so far, by offset (a few are enough for a view; bounded).
    private var leaves: [UInt64: [Entry]] = [:]
    private let lock = NSLock()

    /// Opens `path` and reads its header and root directory; errors name the file.
    public convenience init(path: String) throws {
        let file: FileBytes
        do { file = try FileBytes(path: path) } catch let f as Failure { throw Failure(description: "\(path): \(f.description)") }
        try self.init(source: file, name: path)
    }

    /// An archive in memory (a download, a fuzzer's input), named `name` in errors.
    public convenience init(data: Data, name: String) throws {
        try self.init(source: MemoryBytes(data: data), name: name)
    }

    init(source: any ByteSource, name: String) throws {
        path = name
        self.source = source
        do {
            guard source.size >= 127 else { throw Failure(description: "not a PMTiles file (shorter than its 127-byte header)") }
            header = try Header.parse(try source.read(at: 0, count: 127), fileSize: source.size)
            root = try Self.directory(try source.read(at: header.rootOffset, count: header.rootLength),
                                      compression: header.internalCompression)
        } catch let f as Failure {
            throw Failure(description: "\(name): \(f.description)")
        } catch let f as Inflate.Failure {
            throw Failure(description: "\(name): \(f.description)")
        }
    }

    /// The archive's JSON metadata (inflated), as bytes.
    public func metadata() throws -> Data {
        guard header.metadataLength > 0 else { return Data("{}".utf8) }
        return try named { try Self.inflate(try source.read(at: header.metadataOffset, count: header.metadataLength),
                                            header.internalCompression) }
    }

    /// The tile's bytes as stored (still compressed by `header.tileCompression`), or nil when
    /// the archive has none for it.
    public func rawTile(_ tile: TileID) throws -> Data? {
        try named {
            let id = tile.pmtilesID
            var entries = root
            var depth = 0
            while true {
                guard let e = Self.find(id, in: entries) else { return nil }
                if e.runLength > 0 {
                    guard e.length > 0 else { return nil }
                    // (The header's check keeps the tile data within the file.)
                    let (end, over) = e.offset.addingReportingOverflow(e.length)
                    guard !over, end <= header.tileDataLength else {
                        throw Failure(description: "tile \(tile) (\(e.length) bytes at \(e.offset)) lies outside the tile data")
                    }
                    guard e.length <= 64 << 20 else { throw Failure(description: "tile \(tile) claims \(e.length) bytes") }
                    return try source.read(at: header.tileDataOffset + e.offset, count: e.length)
                }
                depth += 1
                guard depth <= Self.maxDepth else { throw Failure(description: "leaf directories nest more than \(Self.maxDepth) deep (a loop?)") }
                entries = try leaf(at: e.offset, length: e.length)
            }
        }
    }

    /// The tile's bytes, inflated when the archive gzips its tiles (at most 16 MB).
    public func tile(_ tile: TileID) throws -> Data? {
        guard let raw = try rawTile(tile) else { return nil }
        return try named { try Self.inflate(raw, header.tileCompression) }
    }

    private func leaf(at offset: UInt64, length: UInt64) throws -> [Entry] {
        lock.lock()
        if let cached = leaves[offset] { lock.unlock(); return cached }
        lock.unlock()
        let (start, over) = header.leafOffset.addingReportingOverflow(offset)
        guard !over, length <= 16 << 20 else { throw Failure(description: "a leaf directory of \(length) bytes at \(offset)") }
        let entries = try Self.directory(try source.read(at: start, count: length), compression: header.internalCompression)
        lock.lock()
        if leaves.count >= 64 { leaves.removeAll() }
        leaves[offset] = entries
        lock.unlock()
        return entries
    }

    /// Runs `body`, naming the file in its error.
    private func named<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let f as Failure { throw Failure(description: "\(path): \(f.description)") }
        catch let f as Inflate.Failure { throw Failure(description: "\(path): \(f.description)") }
    }

    /// The entry that holds `id`: the last entry starting at or before it, if its run covers it
    /// (or it is a leaf directory, which covers everything up to the next entry).
    static func find(_ id: UInt64, in entries: [Entry]) -> Entry? {
        var lo = 0, hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID == id { return entries[mid] }
            if entries[mid].tileID < id { lo = mid + 1 } else { hi = mid - 1 }
        }
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        if e.runLength == 0 || id - e.tileID < e.runLength { return e }
        return nil
    }

    /// A directory: a varint count, then the tile ids (delta-coded), run lengths, lengths and
    /// offsets (0: right after the previous entry; else the offset plus one).
    static func directory(_ stored: Data, compression: Compression) throws -> [Entry] {
        let data = try inflate(stored, compression)
        var reader = Varints(data)
        let count = try reader.next()
        // Each entry takes at least four bytes: a count larger than that is a lie.
        guard count <= UInt64(data.count) / 4 + 1, count <= 10_000_000 else {
            throw Failure(description: "a directory claims \(count) entries in \(data.count) bytes")
        }
        let n = Int(count)
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            let (id, over) = last.addingReportingOverflow(try reader.next())
            guard !over else { throw Failure(description: "a directory's tile ids overflow") }
            entries[i].tileID = id; last = id
        }
        for i in 0..<n { entries[i].runLength = try reader.next() }
        for i in 0..<n { entries[i].length = try reader.next() }
        for i in 0..<n {
            let v = try reader.next()
            if v == 0 && i > 0 {
                entries[i].offset = entries[i - 1].offset &+ entries[i - 1].length
            } else {
                guard v > 0 else { throw Failure(description: "a directory's first entry has no offset") }
                entries[i].offset = v - 1
            }
        }
        return entries
    }

    static func inflate(_ data: Data, _ compression: Compression) throws -> Data {
        switch compression {
        case .none, .unknown: return data
        case .gzip: return try Inflate.decompress(data)
        case .brotli, .zstd: throw Failure(description: "\(compression) compression is not supported (gzip or none)")
        }
    }

}

/// Where an archive's bytes come from: a file read with `pread`, or memory.
protocol ByteSource: Sendable {
    var size: UInt64 { get }
    /// `count` bytes at `offset`, all of them within the source, or an error.
    func read(at offset: UInt64, count: UInt64) throws -> Data
}

extension ByteSource {
    func checkRange(_ offset: UInt64, _ count: UInt64) throws {
        let (end, over) = offset.addingReportingOverflow(count)
        guard !over, end <= size else { throw PMTiles.Failure(description: "\(count) bytes at \(offset) lie outside the file (\(size) bytes)") }
    }
}

/// A regular file, open for reading while the archive lives.
final class FileBytes: ByteSource, @unchecked Sendable {
    private let fd: Int32
    let size: UInt64

    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PMTiles.Failure(description: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PMTiles.Failure(description: "not a regular file")
        }
        self.fd = fd
        size = UInt64(info.st_size)
    }

    deinit { close(fd) }

    func read(at offset: UInt64, count: UInt64) throws -> Data {
        try checkRange(offset, count)
        var data = Data(count: Int(count))
        var done = 0
        try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            while done < Int(count) {
                let n = pread(fd, base + done, Int(count) - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw PMTiles.Failure(description: n == 0 ? "the file ends early" : String(cString: strerror(errno))) }
                done += n
            }
        }
        return data
    }
}

/// Bytes in memory.
struct MemoryBytes: ByteSource {
    let data: Data
    var size: UInt64 { UInt64(data.count) }

    func read(at offset: UInt64, count: UInt64) throws -> Data {
        try checkRange(offset, count)
        let start = data.startIndex + Int(offset)
        return data.subdata(in: start..<(start + Int(count)))
    }
}

/// Unsigned LEB128 varints, one after another.
struct Varints {
    private let bytes: [UInt8]
    private var at = 0
    init(_ data: Data) { bytes = [UInt8](data) }

    mutating func next() throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard at < bytes.count else { throw PMTiles.Failure(description: "a directory ends in the middle of a number") }
            let b = bytes[at]
            at += 1
            guard shift < 64 else { throw PMTiles.Failure(description: "a directory number is longer than 64 bits") }
            value |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
