import Foundation
import Testing
@testable import MapData

/// The disk cache's rules: freshness from the answer's headers, what is not kept, and the
/// folder's bound (least recently used out first). Transfers are tested end to end against a
/// stand-in server (Tests/e2e/tiles.sh).
@Suite struct HTTPCacheTests {
    @Test func freshnessComesFromCacheControlThenExpires() {
        let now = 1_000_000.0
        #expect(HTTPCache.expiry(["cache-control": "public, max-age=3600"], now: now) == now + 3600)
        #expect(HTTPCache.expiry(["cache-control": "no-cache, max-age=3600"], now: now) == now)
        #expect(HTTPCache.expiry(["cache-control": "max-age=99999999999"], now: now) == now + 365 * 86_400)
        #expect(HTTPCache.expiry(["expires": "Thu, 01 Jan 1970 12:00:00 GMT"], now: now) == 43_200)
        #expect(HTTPCache.expiry(["expires": "not a date"], now: now) == now)
        #expect(HTTPCache.expiry([:], now: now) == nil)
        #expect(HTTPCache.forbidsStoring(["cache-control": "private, no-store"]))
        #expect(!HTTPCache.forbidsStoring(["cache-control": "no-cache"]))
    }

    @Test func entriesAreReadBackAndTheLeastRecentlyUsedGoFirst() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = HTTPCache(directory: dir, byteLimit: 2500)
        let body = Data(repeating: 7, count: 1000)
        cache.write("http://a/1", .init(body: body, etag: "\"e1\"", lastModified: nil, expires: 5))
        let first = try #require(cache.read("http://a/1"))
        #expect(first.body == body && first.etag == "\"e1\"" && first.lastModified == nil && first.expires == 5)
        // Older modification times for the first two; the third write passes the bound.
        let old = Date(timeIntervalSinceNow: -100)
        for name in ["http://a/1"] {
            let k = HTTPCache.key(name)
            try FileManager.default.setAttributes([.modificationDate: old],
                                                  ofItemAtPath: dir.appendingPathComponent(String(k.prefix(2))).appendingPathComponent(k + ".body").path)
        }
        cache.write("http://a/2", .init(body: body, etag: nil, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", expires: 0))
        cache.write("http://a/3", .init(body: body, etag: nil, lastModified: nil, expires: 0))
        #expect(cache.read("http://a/1") == nil)
        #expect(cache.read("http://a/2")?.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT" && cache.read("http://a/3") != nil)
        // A URL whose key collides reads as a miss (the meta file names its URL).
        #expect(cache.read("http://b/1") == nil)
    }

    @Test func metaFilesAreReadForTheirOwnURLOnly() {
        let good = Data("http://a/1\n\"e\"\n\n1796212800.0".utf8)
        let m = HTTPCache.meta(good, url: "http://a/1")
        #expect(m?.etag == "\"e\"" && m?.lastModified == nil && m?.expires == 1_796_212_800)
        #expect(HTTPCache.meta(good, url: "http://a/2") == nil)
        // Cut short, or an expiry that is not a number: a miss, never a copy that is always stale.
        #expect(HTTPCache.meta(Data("http://a/1\n\n".utf8), url: "http://a/1") == nil)
        #expect(HTTPCache.meta(Data("http://a/1\n\n\nnan".utf8), url: "http://a/1") == nil)
    }

    @Test func onlyWebURLsAreFetched() {
        let cache = HTTPCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("cache-none"))
        #expect(throws: HTTPCache.Failure.self) { try cache.get("file:///etc/passwd") }
    }
}
