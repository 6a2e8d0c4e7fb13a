// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// An answer of the NWS zones API: read as one polygon geometry or one error, never a trap; the
/// shape joined with itself, and a point test at its box's centre and corner.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let g = try? NWSZone.shape(data: bytes, url: "fuzz") {
        precondition(g.kind == .polygons && !g.isEmpty)
        let twice = NWSZone.merged([g, g])
        precondition(twice.map { $0.partCount == 2 * g.partCount } ?? false)
        _ = NWSZone.contains(g, MercatorPoint(x: (g.minX + g.maxX) / 2, y: (g.minY + g.maxY) / 2))
        _ = NWSZone.contains(g, MercatorPoint(x: g.minX, y: g.minY))
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzNWSZone_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
