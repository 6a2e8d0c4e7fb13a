// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData

/// What the tile cache reads back from disk and from an answer's headers: the input up to its
/// first NUL is a `.meta` file (read for the URL on its first line), the
/// rest `Name: value` header lines, whose `Cache-Control` and `Expires` give the expiry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let cut = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let meta = bytes[..<cut]
    let url = String(decoding: meta.prefix { $0 != 10 }, as: UTF8.self)
    if let m = HTTPCache.meta(Data(meta), url: url), m.expires.isNaN { fatalError("NaN expiry") }
    var headers: [String: String] = [:]
    let rest = cut < bytes.endIndex ? bytes[(cut + 1)...] : Data()
    for line in String(decoding: rest, as: UTF8.self).split(separator: "\n") {
        if let f = HTTPGet.field(line) { headers[f.name] = f.value }
    }
    let now = 1.8e9
    if let e = HTTPCache.expiry(headers, now: now), e.isNaN || (headers["cache-control"] != nil && e > now + 365 * 86_400 + 1 && headers["expires"] == nil) {
        fatalError("expiry \(e) from \(headers)")
    }
    _ = HTTPCache.forbidsStoring(headers)
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzTileCache_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
