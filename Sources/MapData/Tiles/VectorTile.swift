import Foundation
import MapCore

/// A Mapbox Vector Tile (2.1) decoded: layers of features with their properties and their
/// geometry in tile coordinates (0...extent, y down). Decoding checks everything it reads:
/// wire types, lengths, key and value indices, command counts, extents; a bad tile throws one
/// error naming the layer and feature, and never reads past its bytes.
public struct VectorTile: Sendable {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public enum GeometryType: Int, Sendable { case unknown = 0, point = 1, lineString = 2, polygon = 3 }

    /// A point in tile coordinates. Coordinates may lie outside 0...extent (the tile's buffer).
    public struct Point: Equatable, Sendable {
        public var x: Int32, y: Int32
        public init(x: Int32, y: Int32) { self.x = x; self.y = y }
    }

    public struct Feature: Sendable {
        public var id: UInt64?
        public var type: GeometryType
        public var properties: [String: StyleValue]
        /// Points: one part of all the points. Lines: one part per line. Polygons: rings in
        /// order, each exterior ring (positive area in tile coordinates, clockwise on screen)
        /// followed by its holes; rings are closed (the first point repeated at the end).
        public var geometry: [[Point]]
    }

    public struct Layer: Sendable {
        public var name: String
        public var version: Int
        public var extent: Int
        public var features: [Feature]
    }

    public var layers: [Layer]

    /// The largest extent accepted (the spec's usual is 4096; some tools write 8192 or 16384).
    public static let maxExtent = 1 << 16
    /// At most this many points in one feature, features in one layer (a bound on memory).
    public static let maxPoints = 4_000_000

    /// Decodes an uncompressed tile (inflate a gzipped one first).
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        layers = try bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtoReader(buffer, 0, buffer.count)
            var layers: [Layer] = []
            while let (field, wire) = try reader.key() {
                if field == 3 && wire == 2 {
                    let (start, end) = try reader.lengthDelimited()
                    layers.append(try Self.layer(ProtoReader(buffer, start, end), index: layers.count))
                } else {
                    try reader.skip(wire)
                }
            }
            return layers
        }
    }

    /// The layer named `name`, if the tile has it.
    public func layer(_ name: String) -> Layer? { layers.first { $0.name == name } }

    private static func layer(_ r: ProtoReader, index: Int) throws -> Layer {
        var r = r
        var name: String?, version = 1, extent = 4096
        var keys: [String] = [], values: [StyleValue] = []
        var featureRanges: [(Int, Int)] = []
        while let (field, wire) = try r.key() {
            switch (field, wire) {
            case (15, 0): version = Int(clamping: try r.varint())
            case (1, 2): name = try r.string()
            case (2, 2): featureRanges.append(try r.lengthDelimited())
            case (3, 2): keys.append(try r.string())
            case (4, 2):
                let (s, e) = try r.lengthDelimited()
                values.append(try value(ProtoReader(r.buffer, s, e)))
            case (5, 0): extent = Int(clamping: try r.varint())
            default: try r.skip(wire)
            }
        }
        let label = name.map { "layer '\($0)'" } ?? "layer \(index)"
        guard let name else { throw Failure(description: "\(label) has no name") }
        guard (1...2).contains(version) else { throw Failure(description: "\(label): version \(version) (1 or 2)") }
        guard extent > 0, extent <= maxExtent else { throw Failure(description: "\(label): extent \(extent) is out of range") }
        guard featureRanges.count <= maxPoints else { throw Failure(description: "\(label): \(featureRanges.count) features") }
        var features: [Feature] = []
        features.reserveCapacity(featureRanges.count)
        for (k, range) in featureRanges.enumerated() {
            do {
                features.append(try feature(ProtoReader(r.buffer, range.0, range.1), keys: keys, values: values))
            } catch let f as Failure {
                throw Failure(description: "\(label), feature \(k): \(f.description)")
            }
        }
        return Layer(name: name, version: version, extent: extent, features: features)
    }

    private static func value(_ r: ProtoReader) throws -> StyleValue {
        var r = r
        var out: StyleValue = .null
        while let (field, wire) = try r.key() {
            switch (field, wire) {
            case (1, 2): out = .string(try r.string())
            case (2, 5): out = .number(Double(Float(bitPattern: try r.fixed32())))
            case (3, 1): out = .number(Double(bitPattern: try r.fixed64()))
            case (4, 0): out = .number(Double(Int64(bitPattern: try r.varint())))
            case (5, 0): out = .number(Double(try r.varint()))
            case (6, 0): let v = try r.varint(); out = .number(Double(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)))
            case (7, 0): out = .bool(try r.varint() != 0)
            default: try r.skip(wire)
            }
        }
        return out
    }

    private static func feature(_ r: ProtoReader, keys: [String], values: [StyleValue]) throws -> Feature {
        var r = r
        var id: UInt64?, type = GeometryType.unknown
        var tags: [UInt32] = [], commands: [UInt32] = []
        while let (field, wire) = try r.key() {
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2): tags = try r.packed()
            case (3, 0): type = GeometryType(rawValue: Int(clamping: try r.varint())) ?? .unknown
            case (4, 2): commands = try r.packed()
            default: try r.skip(wire)
            }
        }
        guard tags.count % 2 == 0 else { throw Failure(description: "an odd number of tags (\(tags.count))") }
        var properties: [String: StyleValue] = [:]
        var k = 0
        while k < tags.count {
            let key = Int(tags[k]), value = Int(tags[k + 1])
            guard key < keys.count else { throw Failure(description: "key index \(key) past the layer's \(keys.count) keys") }
            guard value < values.count else { throw Failure(description: "value index \(value) past the layer's \(values.count) values") }
            properties[keys[key]] = values[value]
            k += 2
        }
        return Feature(id: id, type: type, properties: properties, geometry: try geometry(commands, type: type))
    }

    /// The command stream: MoveTo (1), LineTo (2), ClosePath (7), each `(id & 7) | (count << 3)`
    /// with zigzag-coded deltas from a cursor that starts at (0, 0).
    static func geometry(_ c: [UInt32], type: GeometryType) throws -> [[Point]] {
        var parts: [[Point]] = []
        var part: [Point] = []
        var x: Int64 = 0, y: Int64 = 0
        var i = 0, points = 0
        func zigzag(_ v: UInt32) -> Int64 { Int64(v >> 1) ^ -Int64(v & 1) }
        while i < c.count {
            let id = c[i] & 7, count = Int(c[i] >> 3)
            i += 1
            switch id {
            case 1, 2:
                guard count > 0 else { throw Failure(description: "a \(id == 1 ? "MoveTo" : "LineTo") with no points") }
                guard count <= (c.count - i) / 2 else { throw Failure(description: "a command of \(count) points runs past the geometry") }
                points += count
                guard points <= maxPoints else { throw Failure(description: "more than \(maxPoints) points") }
                if id == 1 {
                    if type != .point && count != 1 { throw Failure(description: "a MoveTo of \(count) points in a line or polygon") }
                    if type != .point, !part.isEmpty { parts.append(part); part = [] }
                } else if part.isEmpty {
                    throw Failure(description: "a LineTo before any MoveTo")
                }
                if type == .point && id == 2 { throw Failure(description: "a LineTo in a point feature") }
                for _ in 0..<count {
                    x += zigzag(c[i]); y += zigzag(c[i + 1])
                    i += 2
                    guard let px = Int32(exactly: x), let py = Int32(exactly: y) else { throw Failure(description: "a coordinate out of range") }
                    part.append(Point(x: px, y: py))
                }
            case 7:
                guard count == 1 else { throw Failure(description: "a ClosePath with count \(count)") }
                guard type == .polygon else { throw Failure(description: "a ClosePath outside a polygon") }
                guard let first = part.first, part.count >= 3 else { throw Failure(description: "a ring of fewer than three points") }
                part.append(first)
                parts.append(part)
                part = []
            default:
                throw Failure(description: "unknown command \(id)")
            }
        }
        if !part.isEmpty {
            if type == .polygon { throw Failure(description: "a ring that is never closed") }
            parts.append(part)
        }
        if type == .lineString, parts.contains(where: { $0.count < 2 }) { throw Failure(description: "a line of one point") }
        return parts
    }
}

/// Reads protocol-buffer fields from a byte range, never past its end.
struct ProtoReader {
    let buffer: UnsafeBufferPointer<UInt8>
    private(set) var at: Int
    let end: Int
    /// What the bytes are, for errors ("the tile ends in the middle of a number").
    let subject: String

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, subject: String = "tile") {
        self.buffer = buffer; at = start; self.end = end; self.subject = subject
    }

    private func failure(_ s: String) -> VectorTile.Failure { VectorTile.Failure(description: s) }

    /// The next field number and wire type; nil at the end.
    mutating func key() throws -> (Int, Int)? {
        guard at < end else { return nil }
        let k = try varint()
        let field = Int(truncatingIfNeeded: k >> 3), wire = Int(k & 7)
        guard field > 0 else { throw failure("a field numbered 0") }
        return (field, wire)
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard at < end else { throw failure("the \(subject) ends in the middle of a number") }
            let b = buffer[at]
            at += 1
            guard shift < 64 else { throw failure("a number longer than 64 bits") }
            value |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func fixed32() throws -> UInt32 {
        guard end - at >= 4 else { throw failure("the \(subject) ends in the middle of a number") }
        let v = (0..<4).reduce(UInt32(0)) { $0 | UInt32(buffer[at + $1]) << UInt32(8 * $1) }
        at += 4
        return v
    }

    mutating func fixed64() throws -> UInt64 {
        guard end - at >= 8 else { throw failure("the \(subject) ends in the middle of a number") }
        let v = (0..<8).reduce(UInt64(0)) { $0 | UInt64(buffer[at + $1]) << UInt64(8 * $1) }
        at += 8
        return v
    }

    /// The range of a length-delimited field's bytes.
    mutating func lengthDelimited() throws -> (Int, Int) {
        let n = try varint()
        guard n <= UInt64(end - at) else { throw failure("a field of \(n) bytes runs past its message (\(end - at) left)") }
        let start = at
        at += Int(n)
        return (start, at)
    }

    mutating func string() throws -> String {
        let (s, e) = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[s..<e]), as: UTF8.self)
    }

    /// A packed repeated uint32 field.
    mutating func packed() throws -> [UInt32] {
        let (s, e) = try lengthDelimited()
        var inner = ProtoReader(buffer, s, e, subject: subject)
        var out: [UInt32] = []
        out.reserveCapacity((e - s) / 2)
        while inner.at < inner.end {
            let v = try inner.varint()
            guard let u = UInt32(exactly: v) else { throw failure("a packed value over 32 bits") }
            out.append(u)
        }
        return out
    }

    mutating func skip(_ wire: Int) throws {
        switch wire {
        case 0: _ = try varint()
        case 1: guard end - at >= 8 else { throw failure("the \(subject) ends in a field") }; at += 8
        case 2: _ = try lengthDelimited()
        case 5: guard end - at >= 4 else { throw failure("the \(subject) ends in a field") }; at += 4
        default: throw failure("wire type \(wire) (groups are not used in a \(subject))")
        }
    }
}
