// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData

/// An answer of RainViewer's index (`weather-maps.json`): read as frames or one error, never a
/// trap; frames come oldest first, none later than the slack allows, each template a URL made
/// of the host and a plain path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let now = 1_796_359_800.0
    if let index = try? RainViewerIndex(data: bytes, url: "fuzz", now: now) {
        precondition(!index.frames.isEmpty && index.frames.count <= RainViewerIndex.frameLimit)
        precondition(zip(index.frames, index.frames.dropFirst()).allSatisfy { $0.time < $1.time })
        precondition(index.frames.allSatisfy { $0.time <= now + RainViewerIndex.futureSlack && $0.template.hasSuffix(RainViewerIndex.tileSuffix) })
        _ = RainViewerIndex.url(index.frames[0], z: 7, x: 127, y: 127)
    }
    _ = RainViewerIndex.isZoomRefusal(bytes, zoom: 8)
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzRainViewerIndex_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
