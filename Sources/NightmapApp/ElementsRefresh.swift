import Foundation
import MapData

/// Keeping the ISS element set current from CelesTrak's GP query, by CelesTrak's rules: a new set
/// only when the newest one on hand is more than 12 hours old, at most one download every 2 hours
/// (counted from the cache file's time, so across runs), and after any answer but a 200 no try
/// for 2 hours (a pause file beside the cache says when and why). An answer replaces the cache
/// only when it holds a valid set for the right satellite.
///
/// Times are Unix seconds passed in: `now` is the wall clock, which the policy counts in;
/// `instant` is the moment the map shows, for which the set must be fresh (a map of last year
/// needs no set from today).
public struct ElementsRefresh: Sendable {
    /// A set older than this at the instant shown is refreshed.
    public static let maxAge = 12.0 * 3600
    /// At most one download, or one try after a refusal, in this long.
    public static let minInterval = 2.0 * 3600
    /// A set whose epoch is further ahead of the wall clock than this is refused.
    public static let futureSlack = 86_400.0
    /// CelesTrak's GP query for the ISS (catalogue number 25544) as two-line elements.
    public static let celestrak = URL(string: "https://celestrak.org/NORAD/elements/gp.php?CATNR=25544&FORMAT=TLE")!

    public let url: URL
    /// The cached set (`iss.tle` in the cache directory).
    public let cache: URL
    public let catalogNumber: Int
    public let timeout: Double

    public init(url: URL = ElementsRefresh.celestrak, cache: URL, catalogNumber: Int = 25544, timeout: Double = 2) {
        self.url = url; self.cache = cache; self.catalogNumber = catalogNumber; self.timeout = timeout
    }

    /// `iss.tle.paused`: written after an answer that was not a good 200, holding why.
    public var pauseFile: URL { cache.appendingPathExtension("paused") }

    /// What to do now.
    public enum Plan: Equatable, Sendable {
        /// The newest set is fresh enough for the instant shown.
        case upToDate
        /// A download or a refusal was less than 2 hours ago: nothing until `until`.
        case waiting(until: Double, reason: String)
        case fetch
    }

    /// The rules, on what the files say: `newestEpoch` of the sets on hand, the last download
    /// (the cache's time) and the last refusal (the pause file's time and reason).
    public static func plan(now: Double, instant: Double, newestEpoch: Double?, lastDownload: Double?,
                            pause: (time: Double, reason: String)?) -> Plan {
        if let epoch = newestEpoch, min(now, instant) - epoch <= maxAge { return .upToDate }
        // A time ahead of the clock (a clock set back) counts as recent, but only by 2 hours.
        if let p = pause, abs(now - p.time) < minInterval {
            return .waiting(until: p.time + minInterval, reason: p.reason)
        }
        if let d = lastDownload, abs(now - d) < minInterval {
            return .waiting(until: d + minInterval, reason: "the last download was less than 2 hours ago")
        }
        return .fetch
    }

    /// The plan for these files now.
    public func plan(now: Double, instant: Double, newestEpoch: Double?) -> Plan {
        Self.plan(now: now, instant: instant, newestEpoch: newestEpoch, lastDownload: Self.modified(cache), pause: pause())
    }

    /// What a run did.
    public enum Outcome: Sendable {
        case upToDate
        /// Nothing asked: the rules say wait (not reported again: the run that was refused did).
        case waiting(until: Double, reason: String)
        /// A valid set, now in the cache.
        case downloaded(IssOrbit)
        /// A request that failed, or an answer refused, in one line naming the URL.
        case failed(String)
    }

    /// Follows the plan: at most one request, within `timeout` seconds.
    public func run(now: Double, instant: Double, newestEpoch: Double?) -> Outcome {
        switch plan(now: now, instant: instant, newestEpoch: newestEpoch) {
        case .upToDate: return .upToDate
        case let .waiting(until, reason): return .waiting(until: until, reason: reason)
        case .fetch: break
        }
        let answer = HTTPGet.run(url, timeout: timeout, maxBytes: 16 * 1024, maxRedirects: 0, accept: "text/plain")
        let text: String
        switch answer {
        case let .failure(f):
            // No answer (no network, a timeout) is not a refusal: the next run may try again.
            guard let status = f.status else { return .failed("\(url.absoluteString): \(f.reason)") }
            return refused(now: now, reason: f.reason.hasPrefix("HTTP") ? f.reason : "HTTP \(status): \(f.reason)")
        case let .success(r):
            guard r.status == 200 else { return refused(now: now, reason: "HTTP \(r.status)") }
            text = String(decoding: r.body, as: UTF8.self)
        }
        let orbit: IssOrbit
        do {
            orbit = try IssOrbit.parse(text, origin: url.absoluteString, catalogNumber: catalogNumber, notAfter: now + Self.futureSlack)
        } catch {
            // A bad body counts as a try: it pauses like a refusal, and the cache stays.
            return refused(now: now, reason: "\(error)".replacingOccurrences(of: "\(url.absoluteString): ", with: ""))
        }
        do {
            try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(text.utf8), to: cache.path)
            Self.touch(cache, at: now)
            try? FileManager.default.removeItem(at: pauseFile)
        } catch {
            return .failed("\(cache.path): cannot write the element set (\(error))")
        }
        return .downloaded(orbit)
    }

    /// Records a refusal in the pause file (its time is the try's) and says it once.
    private func refused(now: Double, reason: String) -> Outcome {
        let line = reason.split(whereSeparator: \.isNewline).first.map(String.init) ?? reason
        try? FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
        if (try? AtomicFile.write(Data((line + "\n").utf8), to: pauseFile.path)) != nil { Self.touch(pauseFile, at: now) }
        return .failed("\(url.absoluteString): \(line); no new try for 2 hours")
    }

    /// The last refusal: the pause file's time and its reason.
    public func pause() -> (time: Double, reason: String)? {
        guard let time = Self.modified(pauseFile) else { return nil }
        let text = (try? DataFile.read(pauseFile.path, limit: 4096)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let reason = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (time, reason.isEmpty ? "refused" : reason)
    }

    /// A file's modification time, Unix seconds (nil when it is not there).
    public static func modified(_ url: URL) -> Double? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// Sets a file's time to `time` (the policy's clock, which tests move).
    public static func touch(_ url: URL, at time: Double) {
        try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: url.path)
    }
}
