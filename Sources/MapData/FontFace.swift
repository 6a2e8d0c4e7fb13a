import CFreeType
import Foundation
import MapCore
import Raster

/// A font read with FreeType whose glyph outlines become `Path`s, so text is filled (and its
/// halo stroked) by the project's own rasterizer. Outlines are cached per glyph and size.
public final class FontFace: TextFont, @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public typealias Glyph = TextGlyph

    private var library: FT_Library?
    private var face: FT_Face?
    private let data: [UInt8]
    private let lock = NSLock()
    private var cache: [GlyphKey: Glyph] = [:]
    private struct GlyphKey: Hashable { let index: UInt32; let size: Int }   // size in 1/64 px

    public init(path: String) throws {
        guard let d = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot read font") }
        data = [UInt8](d)
        var library: FT_Library?, face: FT_Face?
        guard FT_Init_FreeType(&library) == 0, let library else { throw Failure(description: "\(path): FreeType did not start") }
        let bytes = data
        let status = bytes.withUnsafeBufferPointer { FT_New_Memory_Face(library, $0.baseAddress, FT_Long($0.count), 0, &face) }
        self.library = library
        self.face = face
        guard status == 0, let face else { throw Failure(description: "\(path): not a font FreeType can read (error \(status))") }
        name = [face.pointee.family_name, face.pointee.style_name].compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
    }

    /// The font's family and style, as `text-font` names it ("DejaVu Sans Book").
    public let name: String

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyph for `scalar` at `size` pixels (the font's em), or nil when the font lacks it.
    public func glyph(_ scalar: Unicode.Scalar, size: Double) -> Glyph? {
        lock.lock(); defer { lock.unlock() }
        guard let face else { return nil }
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        let key = GlyphKey(index: index, size: Int((size * 64).rounded()))
        if let g = cache[key] { return g }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(key.size), 72, 72) == 0,
              FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_BITMAP | FT_LOAD_NO_HINTING)) == 0,
              let slot = face.pointee.glyph else { return nil }
        var sink = OutlineSink()
        var funcs = FT_Outline_Funcs(move_to: ftMoveTo, line_to: ftLineTo, conic_to: ftConicTo, cubic_to: ftCubicTo, shift: 0, delta: 0)
        withUnsafeMutablePointer(to: &sink) { p in
            _ = FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(p))
        }
        sink.path.close()
        let g = Glyph(path: sink.path, advance: Double(slot.pointee.advance.x) / 64)
        cache[key] = g
        return g
    }

    /// Horizontal kerning between two scalars at `size`, in pixels (cached).
    public func kerning(_ a: Unicode.Scalar, _ b: Unicode.Scalar, size: Double) -> Double {
        lock.lock(); defer { lock.unlock() }
        let key = KernKey(a: a.value, b: b.value, size: Int((size * 64).rounded()))
        if let k = kernCache[key] { return k }
        let k = kerningUncached(a, b, size: size)
        kernCache[key] = k
        return k
    }

    private struct KernKey: Hashable { let a: UInt32; let b: UInt32; let size: Int }
    private var kernCache: [KernKey: Double] = [:]

    private struct WidthKey: Hashable { let text: String; let size: Double; let spacing: Double }
    private var widthCache: [WidthKey: Double] = [:]

    /// The width of `text` at `size` with `letterSpacing` between glyphs, computed by `measure`
    /// the first time and remembered (labels are measured every time the camera moves).
    public func cachedWidth(_ text: String, size: Double, letterSpacing: Double, measure: () -> Double) -> Double {
        let key = WidthKey(text: text, size: size, spacing: letterSpacing)
        lock.lock()
        if let w = widthCache[key] { lock.unlock(); return w }
        lock.unlock()
        let w = measure()
        lock.lock()
        if widthCache.count >= 8_192 { widthCache.removeAll(keepingCapacity: true) }
        widthCache[key] = w
        lock.unlock()
        return w
    }

    /// The advance of `text` at `size`, kerned, with `letterSpacing` between glyphs (none after
    /// the last); a character the face lacks counts half the size. Remembered per string.
    public func width(_ text: String, size: Double, letterSpacing: Double) -> Double {
        cachedWidth(text, size: size, letterSpacing: letterSpacing) {
            var x = 0.0
            var previous: Unicode.Scalar?
            for u in text.unicodeScalars {
                if let p = previous { x += kerning(p, u, size: size) }
                x += (glyph(u, size: size)?.advance ?? size * 0.5) + letterSpacing
                previous = u
            }
            return max(0, x - letterSpacing)
        }
    }

    private func kerningUncached(_ a: Unicode.Scalar, _ b: Unicode.Scalar, size: Double) -> Double {
        guard let face, (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0 else { return 0 }
        FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
        var v = FT_Vector()
        FT_Get_Kerning(face, FT_Get_Char_Index(face, FT_ULong(a.value)), FT_Get_Char_Index(face, FT_ULong(b.value)),
                       FT_KERNING_UNFITTED.rawValue, &v)
        return Double(v.x) / 64
    }

    /// Ascender and descender (positive below the baseline) at `size`, in pixels.
    public func metrics(size: Double) -> (ascent: Double, descent: Double) {
        guard let face else { return (size * 0.8, size * 0.2) }
        let em = Double(face.pointee.units_per_EM)
        return (Double(face.pointee.ascender) / em * size, -Double(face.pointee.descender) / em * size)
    }
}

/// Collects FreeType's outline callbacks into a Path (y flipped to point down).
struct OutlineSink {
    var path = Path()
    var started = false
    static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        guard let v else { return Point(0, 0) }
        return Point(Double(v.pointee.x) / 64, -Double(v.pointee.y) / 64)
    }
}

/// FreeType passes back the sink it was given; a callback without one reports an error (non-zero).
private func sink(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineSink>? {
    user?.assumingMemoryBound(to: OutlineSink.self)
}

private let ftMoveTo: FT_Outline_MoveToFunc = { to, user in
    guard let s = sink(user) else { return 1 }
    if s.pointee.started { s.pointee.path.close() }
    s.pointee.path.moveTo(OutlineSink.point(to))
    s.pointee.started = true
    return 0
}
private let ftLineTo: FT_Outline_LineToFunc = { to, user in
    guard let s = sink(user) else { return 1 }
    s.pointee.path.lineTo(OutlineSink.point(to))
    return 0
}
private let ftConicTo: FT_Outline_ConicToFunc = { control, to, user in
    guard let s = sink(user) else { return 1 }
    s.pointee.path.quadTo(OutlineSink.point(control), OutlineSink.point(to), tolerance: 0.05)
    return 0
}
private let ftCubicTo: FT_Outline_CubicToFunc = { c1, c2, to, user in
    guard let s = sink(user) else { return 1 }
    s.pointee.path.cubicTo(OutlineSink.point(c1), OutlineSink.point(c2), OutlineSink.point(to), tolerance: 0.05)
    return 0
}
