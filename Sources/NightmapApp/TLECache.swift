import Foundation
import MapCore
import MapData

/// Refreshing the ISS element set from a CelesTrak-style URL (`FORMAT=TLE`), cached in the
/// user's cache directory, so a later start without a network still has the newest one.
public enum TLECache {
    /// CelesTrak's GP query for the ISS (catalogue number 25544) as two-line elements.
    public static let celestrakURL = URL(string: "https://celestrak.org/NORAD/elements/gp.php?CATNR=25544&FORMAT=TLE")!

    /// `$XDG_CACHE_HOME/nightmap/iss.tle`, or `~/.cache/nightmap/iss.tle`.
    public static func cacheFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.cache(environment).appendingPathComponent("nightmap/iss.tle")
    }

    /// Downloads the element set (2 s limit, 16 KB at most), checks that it parses and propagates,
    /// and writes it to `cache`. Returns the orbit, or a one-line error naming the URL.
    public static func refresh(from url: URL, cache: URL, timeout: Double = 2) -> Result<IssOrbit, IssFeedClient.FeedError> {
        let data: Data
        switch HTTPGet.run(url, timeout: timeout, maxBytes: 16 * 1024, maxRedirects: IssFeedClient.maxRedirects, accept: "text/plain") {
        case let .failure(f): return .failure(.init(description: "\(url): \(f.reason)"))
        case let .success(r): data = r.body
        }
        guard !data.isEmpty else { return .failure(.init(description: "\(url): empty answer")) }
        let text = String(decoding: data, as: UTF8.self)
        let orbit: IssOrbit
        do { orbit = try IssOrbit.parse(text, origin: url.absoluteString) } catch {
            return .failure(.init(description: "\(error)"))
        }
        do {
            try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: cache, atomically: true, encoding: .utf8)
        } catch {
            return .failure(.init(description: "\(cache.path): cannot write the cached TLE (\(error.localizedDescription))"))
        }
        return .success(orbit)
    }

    /// The newest of the given TLE files that load; files that are missing are skipped, a bad
    /// file is reported through `report` and skipped.
    public static func newest(_ paths: [String], report: (String) -> Void) -> IssOrbit? {
        var best: IssOrbit?
        for path in paths where FileManager.default.fileExists(atPath: path) {
            do {
                let o = try IssOrbit.load(path: path)
                if best.map({ o.epoch > $0.epoch }) ?? true { best = o }
            } catch {
                report("\(error)")
            }
        }
        return best
    }
}
