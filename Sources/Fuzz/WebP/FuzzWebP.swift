// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData

/// A WebP raster tile: the header read, the size checked, the pixels decoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? WebPCodec.decodeRGBA(Data(bytes: data, count: size), name: "fuzz.webp")
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzWebP_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
