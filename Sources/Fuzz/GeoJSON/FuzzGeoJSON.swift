// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData
import NightmapApp

/// A GeoJSON file, read both ways the project reads one: as a style's geojson source
/// (JSON.parse + GeoJSONData) and as a route file (RouteFile.decode, on the same JSON.parse).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let json = try? JSON.parse(bytes, name: "fuzz.geojson") {
        _ = try? GeoJSONData(json: json, path: "fuzz.geojson")
    }
    if let steps = try? RouteFile.decode(bytes, origin: "fuzz.geojson") {
        _ = RouteFile.bounds(steps)
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzGeoJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
