// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapData

/// A GIBS DescribeDomains answer: read as runs of times or one error, never a trap; every run
/// ordered with a positive step, the newest gapless stretch inside the runs' span.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let domain = try? GIBSTimeDomain(data: bytes, url: "fuzz") {
        precondition(!domain.runs.isEmpty && domain.runs.allSatisfy { $0.end >= $0.start && $0.step > 0 && $0.count >= 1 })
        if let run = domain.lastRun {
            precondition(run.end == domain.runs[domain.runs.count - 1].end && run.start <= run.end)
            if let t = GIBSTimeDomain.latest(in: run, atOrBefore: run.end + 1e6) { precondition(t >= run.start && t <= run.end + 0.5) }
        }
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzGIBSDomains_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
