// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData
import NightmapApp
import Orbit

/// TLE text: every element set in the file (checksums on and off), then the ISS orbit made from
/// the newest one (SGP4 initialised and propagated at its epoch and a day later).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? TLE.parseAll(text)
    _ = try? TLE.parseAll(text, verifyChecksums: false)
    if let orbit = try? IssOrbit.parse(text, origin: "fuzz.tle") {
        _ = orbit.position(orbit.epoch)
        _ = orbit.position(orbit.epoch + 86_400)
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzTLE_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
