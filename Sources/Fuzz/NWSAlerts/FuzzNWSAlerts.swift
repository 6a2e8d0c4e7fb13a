// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// An answer of the NWS alerts API: read as alerts or one error, never a trap; every alert has
/// an event and a polygon or zones.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let a = try? NWSAlerts(data: bytes, url: "fuzz") {
        precondition(a.alerts.count <= NWSAlerts.alertLimit)
        precondition(a.alerts.allSatisfy { !$0.event.isEmpty && ($0.geometry != nil || !$0.zones.isEmpty) })
        precondition(a.alerts.allSatisfy { $0.geometry.map { $0.kind == .polygons } ?? true })
    }
    _ = NWSAlerts.time(String(decoding: bytes.prefix(64), as: UTF8.self))
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzNWSAlerts_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
