// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData
import NightmapApp

/// state.json bytes: the checked state (every value in range), or a one-line error naming it;
/// a state read back is written and read again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    do {
        let s = try SavedState.decode(bytes, name: "state.json")
        guard (-90...90).contains(s.camera.lat), (0...24).contains(s.camera.zoom), s.window.width >= 1 else { fatalError("unchecked \(s)") }
        let again = try SavedState.decode(try JSONEncoder().encode(s), name: "state.json")
        if again != s { fatalError("not the same after a round trip: \(s) vs \(again)") }
    } catch let p as SavedState.Problem {
        if p.description.contains("\n") || !p.description.hasPrefix("state.json: ") { fatalError("bad problem: \(p)") }
    } catch {
        fatalError("unexpected error \(error)")
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzState_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
