import Foundation
import MapCore

/// HTTP GETs kept on disk (`$XDG_CACHE_HOME/nightmap/tiles`), so that a second launch offline
/// shows what the first one saw: each answer with its `ETag`, `Last-Modified` and how long it
/// is fresh (`Cache-Control: max-age`, else `Expires`, else not at all: asked again, with the
/// validators, before it is used). A fresh copy is used as it is; a stale one is revalidated
/// (304: kept, fresh again); when the server cannot be reached or fails (5xx), the stale copy
/// is used all the same. `no-store` answers are not kept. The folder is bounded in bytes: past
/// the limit, the least recently used answers go first.
public final class HTTPCache: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
    /// A transfer stopped because its caller no longer wanted it: not a failure of the server.
    public struct Cancelled: Error, CustomStringConvertible {
        public let url: String
        public var description: String { "\(url): \(HTTPGet.Failure.cancelledReason)" }
    }

    public let directory: URL
    public let byteLimit: Int
    public let timeout: Double
    /// Seconds since 1970 (a parameter for the tests).
    let clock: @Sendable () -> Double

    private let lock = NSLock()
    /// Bytes in the folder (counted on first need).
    private var bytes: Int?

    public init(directory: URL = XDGDirectory.cache().appendingPathComponent("nightmap/tiles"), byteLimit: Int = 512 << 20,
                timeout: Double = 15, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.directory = directory; self.byteLimit = byteLimit; self.timeout = timeout; self.clock = clock
    }

    /// What was cached for a URL.
    struct Entry {
        var body: Data
        var etag: String?
        var lastModified: String?
        /// Fresh until (seconds since 1970).
        var expires: Double
    }

    /// The body of `url`: from the cache while fresh, else from the server (revalidating a
    /// cached copy); nil when the server says there is none (404, 410, 204). An error names the
    /// URL and what went wrong, when no copy at all can be had.
    /// `cancelled`: see `HTTPGet.run`; a cancelled transfer throws `Cancelled` and changes nothing.
    public func get(_ url: String, maxBytes: Int = 16 << 20, accept: String = "*/*",
                    cancelled: (@Sendable () -> Bool)? = nil) throws -> Data? {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Failure(description: "\(url): not an http or https URL")
        }
        let now = clock()
        let cached = read(url)
        if let c = cached, c.expires > now { touch(url); return c.body }
        var headers: [String] = []
        if let e = cached?.etag { headers.append("If-None-Match: \(e)") }
        if let m = cached?.lastModified { headers.append("If-Modified-Since: \(m)") }
        switch HTTPGet.run(u, timeout: timeout, maxBytes: maxBytes, maxRedirects: 5, accept: accept, headers: headers,
                           notModified: cached != nil, cancelled: cancelled) {
        case let .success(r):
            if r.status == 304, var c = cached {
                c.expires = Self.expiry(r.headers, now: now) ?? now
                if let e = r.headers["etag"] { c.etag = e }
                write(url, c)
                return c.body
            }
            if r.status == 204 || r.body.isEmpty { remove(url); return nil }
            if !Self.forbidsStoring(r.headers) {
                write(url, Entry(body: r.body, etag: r.headers["etag"], lastModified: r.headers["last-modified"],
                                 expires: Self.expiry(r.headers, now: now) ?? now))
            }
            return r.body
        case let .failure(f):
            if f.wasCancelled { throw Cancelled(url: url) }
            if f.status == 404 || f.status == 410 { remove(url); return nil }
            // Offline, or the server failing: the copy we have, stale or not.
            if let c = cached { return c.body }
            throw Failure(description: "\(url): \(f.reason)")
        }
    }

    /// When an answer stops being fresh, from `Cache-Control` (`no-cache`: at once; `max-age`)
    /// or `Expires`; nil when neither says.
    public static func expiry(_ h: [String: String], now: Double) -> Double? {
        if let cc = h["cache-control"]?.lowercased() {
            let directives = cc.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if directives.contains("no-cache") { return now }
            if let age = directives.first(where: { $0.hasPrefix("max-age=") }).flatMap({ Double($0.dropFirst(8)) }), age >= 0 {
                return now + min(age, 365 * 86_400)
            }
        }
        if let e = h["expires"] {
            return HTTPDate.parse(e) ?? now       // (an invalid date is in the past)
        }
        return nil
    }

    /// Whether `Cache-Control` says `no-store`.
    public static func forbidsStoring(_ h: [String: String]) -> Bool {
        h["cache-control"]?.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "no-store" } ?? false
    }

    // MARK: - Files: <hash>.body and <hash>.meta (the URL, ETag, Last-Modified, expiry; one per line)

    /// FNV-1a of the URL, as 16 hex digits (the URL itself is in the meta file: a collision reads as a miss).
    static func key(_ url: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in url.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    private func paths(_ url: String) -> (body: String, meta: String) {
        let k = Self.key(url)
        let base = directory.appendingPathComponent(String(k.prefix(2))).appendingPathComponent(k).path
        return (base + ".body", base + ".meta")
    }

    func read(_ url: String) -> Entry? {
        let p = paths(url)
        guard let meta = FileManager.default.contents(atPath: p.meta), let body = FileManager.default.contents(atPath: p.body),
              let m = Self.meta(meta, url: url) else { return nil }
        return Entry(body: body, etag: m.etag, lastModified: m.lastModified, expires: m.expires)
    }

    /// A meta file's validators and expiry when it is for `url` (else, or unreadable: nil, a miss).
    public static func meta(_ data: Data, url: String) -> (etag: String?, lastModified: String?, expires: Double)? {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == url, let expires = Double(lines[3]), !expires.isNaN else { return nil }
        return (lines[1].isEmpty ? nil : lines[1], lines[2].isEmpty ? nil : lines[2], expires)
    }

    func write(_ url: String, _ e: Entry) {
        let p = paths(url)
        let meta = [url, e.etag ?? "", e.lastModified ?? "", String(e.expires)].map { $0.replacingOccurrences(of: "\n", with: " ") }
        do {
            try FileManager.default.createDirectory(atPath: (p.body as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let old = (try? FileManager.default.attributesOfItem(atPath: p.body)[.size] as? Int) ?? 0
            lock.lock()
            if bytes == nil { bytes = bodies().reduce(0) { $0 + $1.size } }      // (before this answer is there)
            lock.unlock()
            try AtomicFile.write(e.body, to: p.body)
            try AtomicFile.write(Data(meta.joined(separator: "\n").utf8), to: p.meta)
            grew(by: e.body.count - old)
        } catch {
            // (A cache that cannot be written only costs a download next time.)
        }
    }

    private func remove(_ url: String) {
        let p = paths(url)
        if let n = (try? FileManager.default.attributesOfItem(atPath: p.body)[.size]) as? Int {
            lock.lock(); bytes = bytes.map { $0 - n }; lock.unlock()
        }
        try? FileManager.default.removeItem(atPath: p.body)
        try? FileManager.default.removeItem(atPath: p.meta)
    }

    /// Marks an answer as just used (its body's modification time: the order eviction goes by).
    private func touch(_ url: String) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: paths(url).body)
    }

    /// Counts `delta` more bytes; past the limit, removes the least recently used answers until
    /// the folder is down to nine tenths of it.
    private func grew(by delta: Int) {
        lock.lock(); defer { lock.unlock() }
        let total = (bytes ?? 0) + delta
        bytes = total
        guard total > byteLimit else { return }
        var left = total
        for f in bodies().sorted(by: { $0.used < $1.used }) where left > byteLimit * 9 / 10 {
            try? FileManager.default.removeItem(atPath: f.path)
            try? FileManager.default.removeItem(atPath: String(f.path.dropLast(5)) + ".meta")
            left -= f.size
        }
        bytes = left
    }

    private func bodies() -> [(path: String, size: Int, used: Date)] {
        guard let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])
        else { return [] }
        var out: [(String, Int, Date)] = []
        for case let u as URL in walk where u.pathExtension == "body" {
            let v = try? u.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
            out.append((u.path, v?.fileSize ?? 0, v?.contentModificationDate ?? .distantPast))
        }
        return out
    }
}

/// Tiles from URL templates over HTTP(S), through the disk cache.
public struct WebTiles: TileReader {
    public let templates: TileTemplates
    public let cache: HTTPCache
    public var name: String { templates.templates.first ?? "" }

    public init(templates: TileTemplates, cache: HTTPCache) { self.templates = templates; self.cache = cache }

    public func name(of tile: TileID) -> String { templates.url(tile) }

    public func data(_ t: TileID) throws -> Data? { try data(t, cancelled: { false }) }

    public func data(_ t: TileID, cancelled: @escaping @Sendable () -> Bool) throws -> Data? {
        try cache.get(templates.url(t), maxBytes: 16 << 20, accept: "application/vnd.mapbox-vector-tile, image/webp, image/png, image/jpeg, */*",
                      cancelled: cancelled)
    }
}
