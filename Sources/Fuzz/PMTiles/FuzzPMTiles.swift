// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// A PMTiles archive in memory: the header and root directory, the metadata, and every tile of
/// zooms 0 to 3 looked up (through leaf directories) and inflated (to 1 MB here: 85 tiles of 16 MB
/// each would be a slow input of the harness's making, not of the reader's).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let archive = try? PMTiles(data: Data(bytes: data, count: size), name: "fuzz.pmtiles") else { return 0 }
    _ = try? archive.metadata()
    for z in 0...3 {
        for x in 0..<(1 << z) {
            for y in 0..<(1 << z) {
                if let id = TileID(z: z, x: x, y: y), let raw = try? archive.rawTile(id), archive.header.tileCompression == .gzip {
                    _ = try? Inflate.decompress(raw, limit: 1 << 20)
                }
            }
        }
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzPMTiles_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
