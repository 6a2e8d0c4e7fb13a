import Foundation
import MapCore
import MapData

/// The radar images already fetched, on disk (`$XDG_CACHE_HOME/nightmap/radar`): one folder per
/// source (template, box and size), one file per slot named by its UTC time
/// (`202612011435.png`), at most `limit` bytes in all, the least recently written out first.
/// Files are written whole (a temporary file, then a rename), and only after they decoded.
public struct RadarCache: Sendable {
    public let directory: URL
    public let limit: Int

    public static let defaultLimit = 64 << 20

    public init(directory: URL, limit: Int = RadarCache.defaultLimit) {
        self.directory = directory; self.limit = limit
    }

    /// `$XDG_CACHE_HOME/nightmap/radar` (default `~/.cache/nightmap/radar`).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> RadarCache {
        RadarCache(directory: XDGDirectory.cache(environment).appendingPathComponent("nightmap/radar"))
    }

    /// The folder name of one source: a hash of what makes its images (FNV-1a, 64 bits).
    public static func key(template: RadarURLTemplate, box: LngLatBounds, width: Int, height: Int) -> String {
        let text = "\(template.text)|\(box.west),\(box.south),\(box.east),\(box.north)|\(width)x\(height)"
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return String(format: "%016llx", h)
    }

    private func folder(_ key: String) -> URL { directory.appendingPathComponent(key) }

    /// The cached image of slot `time`, if there is one.
    public func read(key: String, time: Double) -> (data: Data, path: String)? {
        for ext in ["png", "gif"] {
            let path = folder(key).appendingPathComponent("\(RadarTime.compact(time)).\(ext)").path
            if let d = FileManager.default.contents(atPath: path) { return (d, path) }
        }
        return nil
    }

    /// The slot times cached for `key`, oldest first.
    public func times(key: String) -> [Double] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(key).path)) ?? []
        return names.compactMap { name -> Double? in
            let parts = name.split(separator: ".")
            guard parts.count == 2, ["png", "gif"].contains(parts[1]) else { return nil }
            return RadarTime.parseCompact(parts[0])
        }.sorted()
    }

    /// Stores the image of slot `time` (already checked), then trims the cache to its limit.
    /// `about` is written beside the images once, for a person looking at the folder.
    public func write(key: String, time: Double, data: Data, about: String) throws {
        let dir = folder(key)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ext = data.starts(with: [0x47, 0x49, 0x46]) ? "gif" : "png"
        let note = dir.appendingPathComponent("source.txt")
        if !FileManager.default.fileExists(atPath: note.path) { try? AtomicFile.write(Data((about + "\n").utf8), to: note.path) }
        try AtomicFile.write(data, to: dir.appendingPathComponent("\(RadarTime.compact(time)).\(ext)").path)
        trim()
    }

    /// Removes the cached image of slot `time` (one that no longer decodes).
    public func remove(key: String, time: Double) {
        for ext in ["png", "gif"] {
            try? FileManager.default.removeItem(at: folder(key).appendingPathComponent("\(RadarTime.compact(time)).\(ext)"))
        }
    }

    /// Deletes the oldest images (by modification time) until the cache is within its limit.
    public func trim() {
        let fm = FileManager.default
        var files: [(path: String, size: Int, modified: Double)] = []
        for key in (try? fm.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let dir = directory.appendingPathComponent(key).path
            for name in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".png") || name.hasSuffix(".gif") {
                let path = dir + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                files.append((path, Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            }
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > limit else { return }
        for f in files.sorted(by: { ($0.modified, $0.path) < ($1.modified, $1.path) }) where total > limit {
            if unlink(f.path) == 0 { total -= f.size }
        }
    }
}
