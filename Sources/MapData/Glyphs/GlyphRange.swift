import MapCore

/// One glyph PBF as a style's `glyphs` URL serves it: the signed distance fields and metrics of
/// the code points of one range (256 of them, `{range}` = "0-255", "256-511", ...) of one font
/// stack. The fields are 8-bit distances at 24 px with a 3-pixel border on every side (the edge
/// at 192/255); the metrics are pixels at 24 px, `top` measured from an origin above the em box,
/// as the reference engines read them.
public struct GlyphRange: Sendable {
    public typealias Glyph = SDFGlyph

    /// Pixels of border around each glyph's ink in its bitmap.
    public static let border = 3
    /// The largest ink box read (a field larger than any glyph an atlas holds is a bad file).
    public static let maxSide = 255

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The glyphs by code point (a code point the range lacks has none: it is drawn as nothing).
    public let glyphs: [UInt32: Glyph]

    /// Decodes a glyph PBF: top-level field 1 holds font stacks, each with glyphs in field 3
    /// (their name and range fields are not needed); a glyph has id 1, bitmap 2, width 3,
    /// height 4, left 5 and top 6 (zigzag) and advance 7. A glyph without an id, with a bitmap of
    /// the wrong size or an ink box over `maxSide` is an error, as is a truncated file.
    public init(pbf bytes: [UInt8]) throws {
        var glyphs: [UInt32: Glyph] = [:]
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                var top = ProtoReader(buffer, 0, buffer.count, subject: "file")
                while let (field, wire) = try top.key() {
                    guard field == 1, wire == 2 else { try top.skip(wire); continue }
                    let (s, e) = try top.lengthDelimited()
                    var stack = ProtoReader(buffer, s, e, subject: "file")
                    while let (field, wire) = try stack.key() {
                        guard field == 3, wire == 2 else { try stack.skip(wire); continue }
                        let (gs, ge) = try stack.lengthDelimited()
                        let g = try Self.glyph(ProtoReader(buffer, gs, ge, subject: "file"))
                        glyphs[g.codePoint] = g
                    }
                }
            }
        } catch let f as VectorTile.Failure {
            throw Failure(description: "glyph file: \(f.description)")
        }
        self.glyphs = glyphs
    }

    private static func glyph(_ reader: ProtoReader) throws -> Glyph {
        var r = reader
        var id: UInt64?, width: UInt64 = 0, height: UInt64 = 0, left: Int64 = 0, top: Int64 = 0, advance: UInt64 = 0
        var bitmap: [UInt8] = []
        func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
        while let (field, wire) = try r.key() {
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2):
                let (s, e) = try r.lengthDelimited()
                bitmap = Array(UnsafeBufferPointer(rebasing: r.buffer[s..<e]))
            case (3, 0): width = try r.varint()
            case (4, 0): height = try r.varint()
            case (5, 0): left = zigzag(try r.varint())
            case (6, 0): top = zigzag(try r.varint())
            case (7, 0): advance = try r.varint()
            default: try r.skip(wire)
            }
        }
        guard let id, let code = UInt32(exactly: id) else { throw Failure(description: "a glyph without a code point") }
        let limit = UInt64(maxSide)
        guard width <= limit, height <= limit, advance <= 4 * limit, abs(left) <= 4 * Int64(limit), abs(top) <= 4 * Int64(limit) else {
            throw Failure(description: "glyph \(code): metrics out of range (\(width)x\(height), left \(left), top \(top), advance \(advance))")
        }
        let w = Int(width), h = Int(height)
        let expected = (w + 2 * border) * (h + 2 * border)
        let blank = w == 0 || h == 0
        // (A blank comes with no bitmap, or with one of its border alone.)
        guard bitmap.count == expected || (blank && bitmap.isEmpty) else {
            throw Failure(description: "glyph \(code): a bitmap of \(bitmap.count) bytes for \(w)x\(h) (expected \(expected))")
        }
        return Glyph(codePoint: code, width: w, height: h, left: Double(left), top: Double(top), advance: Double(advance), bitmap: blank ? [] : bitmap)
    }
}
