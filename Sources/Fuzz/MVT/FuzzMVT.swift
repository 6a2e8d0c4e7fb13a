// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData

/// A vector tile as it comes from a source: inflated when gzipped (16 MB at most), then decoded,
/// and every feature's geometry walked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Data(bytes: data, count: size)
    if Inflate.isGzip(bytes) {
        guard let inflated = try? Inflate.decompress(bytes) else { return 0 }
        bytes = inflated
    }
    guard let tile = try? VectorTile(data: bytes) else { return 0 }
    var sum: Int64 = 0
    for layer in tile.layers {
        for f in layer.features { for part in f.geometry { for p in part { sum &+= Int64(p.x) &+ Int64(p.y) } } }
    }
    withExtendedLifetime(sum) {}
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzMVT_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
