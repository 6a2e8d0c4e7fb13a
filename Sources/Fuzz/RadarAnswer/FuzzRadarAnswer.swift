// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// One answer of a radar service: told apart (WMS exception, HTML, image), decoded at an asked
/// size, and read as a mosaic placed on a grid and cropped to a box (libpng row by row).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let image = try? RadarImage.decode(bytes, name: "fuzz", size: (64, 64)) {
        precondition(image.width == 64 && image.height == 64)
    }
    _ = try? RadarImage.decode(bytes, name: "fuzz")
    let grid = RadarImage.Grid(west: -126, north: 50, dx: 0.5, dy: 0.5)
    if let image = try? RadarImage.decode(bytes, name: "fuzz", grid: grid, box: LngLatBounds(west: -80, south: 38, east: -72, north: 46),
                                          width: 32, height: 24) {
        precondition(image.width == 32 && image.height == 24)
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzRadarAnswer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
