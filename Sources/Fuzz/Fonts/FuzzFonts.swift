// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import MapData

/// A font file (what `LocalGlyphs` opens from fontconfig's list): read by FreeType from the
/// bytes, then a few glyphs (Latin, Cyrillic, CJK, a space, the missing-glyph box's code
/// point) rendered to signed distance fields as labels get them; each one made holds a field
/// of its box and border, or none for a blank.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let face = try? SDFFontFace(bytes: Array(UnsafeBufferPointer(start: data, count: size)), subject: "input") else { return 0 }
    for codePoint: UInt32 in [0x41, 0x67, 0x20, 0x416, 0x4E2D, 0] {
        guard case .success(let g)? = face.glyph(codePoint) else { continue }
        precondition(g.bitmap.isEmpty == (g.width == 0 || g.height == 0))
        precondition(g.bitmap.isEmpty || g.bitmap.count == (g.width + 6) * (g.height + 6))
        precondition(g.width <= GlyphRange.maxSide && g.height <= GlyphRange.maxSide)
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzFonts_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
