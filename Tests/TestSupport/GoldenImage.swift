import Foundation
import MapData
import Raster
import Testing

/// Compares a pixmap with a reference PNG in a `References/` folder beside the calling test file;
/// `RECORD_SNAPSHOTS=1` re-records (on purpose only), a missing reference is recorded and fails.
public enum GoldenImage {
    /// Fails when more than `maxDiffering` pixels differ by more than `channelTolerance` in any channel.
    public static func check(_ pixmap: Pixmap, named name: String, channelTolerance: Int = 8, maxDiffering: Int = 0,
                             filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("References")
        let url = folder.appendingPathComponent(name + ".png")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" || !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PNGCodec.write(pixmap, to: url.path)
            if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != "1" {
                Issue.record("recorded missing reference \(name).png; re-run", sourceLocation: sourceLocation)
            }
            return
        }
        let ref = try PNGCodec.read(path: url.path)
        #expect(ref.width == pixmap.width && ref.height == pixmap.height, "\(name): size differs", sourceLocation: sourceLocation)
        guard ref.width == pixmap.width && ref.height == pixmap.height else { return }
        var differing = 0
        for i in 0..<ref.count {
            let a = ref.pixels[i], b = pixmap.pixels[i]
            var worst = 0
            for s in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int((a >> UInt32(s)) & 255) - Int((b >> UInt32(s)) & 255)))
            }
            if worst > channelTolerance { differing += 1 }
        }
        if differing > maxDiffering {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name).png")
            try? PNGCodec.write(pixmap, to: out.path)
            Issue.record("\(name): \(differing) pixels differ (allowed \(maxDiffering)); actual written to \(out.path)",
                         sourceLocation: sourceLocation)
        }
    }
}
