// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import MapData

/// A glyph PBF (a style's `glyphs` URL's answer): decoded, and every glyph kept holds a field
/// of its box and border, or none for a blank.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let range = try? GlyphRange(pbf: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    let border = GlyphRange.border
    for g in range.glyphs.values {
        precondition(g.bitmap.isEmpty || g.bitmap.count == (g.width + 2 * border) * (g.height + 2 * border))
        precondition(g.width <= GlyphRange.maxSide && g.height <= GlyphRange.maxSide)
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzGlyphs_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
