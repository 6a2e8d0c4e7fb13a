import Foundation
import MapCore

/// Reads `.nmgeo` files: levels of detail of chunked geometry in normalised Web Mercator
/// (format in tools/data/README.md). Every count is checked against the bytes present.
public enum GeometryFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    static let magic: [UInt8] = Array("NMGEO1".utf8) + [0, 0]

    public static func read(path: String) throws -> GeometrySet {
        let data: Data
        do { data = try DataFile.read(path, limit: 256 << 20) } catch { throw Failure(description: error.description) }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try decode(data, name: name, origin: path)
    }

    /// Decodes file contents; `origin` names the file in errors.
    public static func decode(_ data: Data, name: String, origin: String) throws -> GeometrySet {
        try data.withUnsafeBytes { raw -> GeometrySet in
            var r = Reader(raw: raw, origin: origin)
            guard raw.count >= 16, Array(raw.prefix(8)) == magic else {
                throw Failure(description: "\(origin): not a nightmap geometry file (bad magic)")
            }
            r.offset = 8
            guard let kind = GeometrySet.Kind(rawValue: try r.u32()) else {
                throw Failure(description: "\(origin): unknown geometry kind")
            }
            let levelCount = Int(try r.u32())
            guard levelCount >= 1 && levelCount <= 32 else { throw Failure(description: "\(origin): bad level count \(levelCount)") }
            var levels: [GeometrySet.Level] = []
            var chunks: [GeometrySet.Chunk] = []
            var offsets: [Int] = [], lengths: [Int] = []
            var points: [Float] = []
            points.reserveCapacity(raw.count / 4)
            for _ in 0..<levelCount {
                let minZ = Double(try r.f32()), maxZ = Double(try r.f32())
                guard minZ.isFinite, maxZ.isFinite, minZ < maxZ else { throw Failure(description: "\(origin): bad zoom range") }
                let chunkCount = Int(try r.u32())
                guard chunkCount <= raw.count / 24 else { throw Failure(description: "\(origin): bad chunk count") }
                let firstChunk = chunks.count
                for _ in 0..<chunkCount {
                    let minX = try r.f32(), minY = try r.f32(), maxX = try r.f32(), maxY = try r.f32()
                    let partCount = Int(try r.u32()), pointCount = Int(try r.u32())
                    guard partCount <= r.remaining / 4, pointCount <= r.remaining / 8 else {
                        throw Failure(description: "\(origin): truncated (chunk \(chunks.count) claims more data than the file has)")
                    }
                    let firstPart = offsets.count
                    var sum = 0
                    let base = points.count / 2
                    for _ in 0..<partCount {
                        let n = Int(try r.u32())
                        offsets.append(base + sum); lengths.append(n)
                        sum += n
                    }
                    guard sum == pointCount else { throw Failure(description: "\(origin): part lengths do not add up to the point count") }
                    try r.floats(pointCount * 2, into: &points)
                    chunks.append(.init(minX: minX, minY: minY, maxX: maxX, maxY: maxY, parts: firstPart..<offsets.count))
                }
                levels.append(.init(minZoom: minZ, maxZoom: maxZ, chunks: firstChunk..<chunks.count))
            }
            guard points.allSatisfy({ $0.isFinite }) else { throw Failure(description: "\(origin): non-finite coordinate") }
            return GeometrySet(name: name, kind: kind, levels: levels, chunks: chunks,
                               partOffsets: offsets, partLengths: lengths, points: points)
        }
    }

    struct Reader {
        let raw: UnsafeRawBufferPointer
        let origin: String
        var offset = 0
        var remaining: Int { raw.count - offset }

        mutating func u32() throws -> UInt32 {
            guard remaining >= 4 else { throw Failure(description: "\(origin): truncated at byte \(offset)") }
            let v = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            offset += 4
            return UInt32(littleEndian: v)
        }
        mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
        mutating func floats(_ n: Int, into out: inout [Float]) throws {
            guard remaining >= n * 4 else { throw Failure(description: "\(origin): truncated at byte \(offset)") }
            guard n > 0 else { return }
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: n))
            out.withUnsafeMutableBytes { dst in
                guard let to = dst.baseAddress, let from = raw.baseAddress else { return }
                to.advanced(by: start * 4).copyMemory(from: from.advanced(by: offset), byteCount: n * 4)
            }
            offset += n * 4
        }
    }
}
