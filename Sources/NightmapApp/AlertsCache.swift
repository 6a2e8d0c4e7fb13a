import Foundation
import MapData

/// The NWS answers kept on disk (`$XDG_CACHE_HOME/nightmap/alerts`): the last `/alerts/active`
/// answer with when it came and its `Last-Modified` (offline, its alerts show until they expire),
/// and each zone's shape, used for a day. Each file starts with one line, `fetched <unix seconds>
/// <Last-Modified>`, then the answer as served; files are written whole (a temporary file, then a
/// rename).
public struct AlertsCache: Sendable {
    public let directory: URL
    /// How long a zone's shape is used before it is fetched again (zones rarely change).
    public static let zoneLifetime = 86_400.0

    public init(directory: URL) { self.directory = directory }

    /// `$XDG_CACHE_HOME/nightmap/alerts` (default `~/.cache/nightmap/alerts`).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> AlertsCache {
        AlertsCache(directory: XDGDirectory.cache(environment).appendingPathComponent("nightmap/alerts"))
    }

    /// One cached answer: its body, when it was fetched, its `Last-Modified` (if any), its path.
    public struct Entry: Sendable {
        public let data: Data
        public let fetched: Double
        public let lastModified: String?
        public let path: String
    }

    public var answerPath: String { directory.appendingPathComponent("active.json").path }

    /// The file of zone `url` (a hash of the URL, FNV-1a 64 bits).
    public func zonePath(_ url: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return directory.appendingPathComponent("zones/\(String(format: "%016llx", h)).json").path
    }

    public func answer() -> Entry? { read(answerPath) }

    public func writeAnswer(_ data: Data, fetched: Double, lastModified: String?) throws {
        try write(data, fetched: fetched, lastModified: lastModified, to: answerPath)
    }

    /// Zone `url`'s cached answer while it is less than a day old at `now`.
    public func zone(_ url: String, now: Double) -> Entry? {
        guard let e = read(zonePath(url)), now - e.fetched < Self.zoneLifetime, e.fetched <= now + 60 else { return nil }
        return e
    }

    public func writeZone(_ url: String, data: Data, fetched: Double) throws {
        try write(data, fetched: fetched, lastModified: nil, to: zonePath(url))
    }

    private func read(_ path: String) -> Entry? {
        guard let d = try? DataFile.read(path, limit: 64 << 20), let newline = d.firstIndex(of: 10) else { return nil }
        let words = String(decoding: d[d.startIndex..<newline], as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0] == "fetched", let t = Double(words[1]), t.isFinite else { return nil }
        return Entry(data: Data(d[(newline + 1)...]), fetched: t, lastModified: words.count > 2 ? String(words[2]) : nil, path: path)
    }

    private func write(_ data: Data, fetched: Double, lastModified: String?, to path: String) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        let head = "fetched \(fetched)" + (lastModified.map { " " + $0.filter { $0 != "\n" && $0 != "\r" } } ?? "") + "\n"
        try AtomicFile.write(Data(head.utf8) + data, to: path)
    }
}
