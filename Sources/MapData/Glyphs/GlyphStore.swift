import Foundation
import MapCore

/// A style's glyph ranges, from its `glyphs` URL template, loaded as labels ask for them (MapLibre's
/// glyph manager): each range of 256 code points of a font stack is read once, off the caller's
/// thread, and kept. A code point its loaded range lacks has no glyph (drawn as nothing, as MapLibre
/// draws it); the code points of a range that cannot be had (a missing file, a 404, a server that
/// does not answer, a file that is not a glyph PBF) come from `fallback` (local fonts), after one
/// line to `report` naming the URL. A failed range is not asked for again (MapLibre does not
/// either): the disk cache already uses a stale copy when the server cannot be reached.
///
/// Where ranges come from: a path (`local://`, relative to the style, absolute, a `file://` URL, or
/// the render tests' `http://localhost:2900/` with an assets folder) is read through the
/// `ResourceResolver`; another http(s) URL through an `HTTPCache`: `cache` when given, else, when
/// the resolver reads the network (its `web`), a cache of glyphs of its own in
/// `$XDG_CACHE_HOME/nightmap/glyphs`; without either, such ranges fail ("not read here"), as tiles
/// over HTTP do. Everything loads on at most two worker threads, files too, so that one mechanism
/// serves both and `waitUntilIdle` waits for either.
public final class GlyphStore: GlyphSource, @unchecked Sendable {
    public let template: GlyphURLTemplate
    public let fallback: (any GlyphSource)?

    /// Ranges read at most, in all stacks; the code points of ranges past it come from `fallback`.
    /// A range is 50-200 KB and is kept while the store lives (MapLibre keeps them too). A map's
    /// labels need a handful of ranges per font stack, a few dozen with CJK text, so 1,024 ranges
    /// (at most ~200 MB) is beyond any real style; it only stops text that walks Unicode across
    /// many stacks (4,352 ranges each) from growing memory and requests without end.
    public static let maxRanges = 1024
    /// The largest range file read: real ones are under 1 MB (256 fields of at most 261 x 261
    /// bytes would be 17 MB, but no font has glyphs that large at 24 px).
    public static let maxBytes = 4 << 20
    /// The folder of the glyph ranges' own HTTP cache.
    public static var defaultCacheDirectory: URL { XDGDirectory.cache().appendingPathComponent("nightmap/glyphs") }
    /// Its size limit: a few styles' ranges, CJK included.
    public static let defaultCacheBytes = 128 << 20
    /// Worker threads at most (the machine's cores are the renderer's).
    static let maxWorkers = 2

    private enum Origin {
        /// Files through the resolver; `encoded`: the template is a `file://` URL (the stack is
        /// percent-encoded, and decoded by the URL parser).
        case files(encoded: Bool)
        /// http(s) through a cache (nil: the network is not read here).
        case web(HTTPCache?)
    }

    private enum Slot {
        case loading
        case loaded([UInt32: SDFGlyph])
        case failed
    }

    private struct Job { let stack: String; let range: Int }

    private let resolver: ResourceResolver
    private let origin: Origin
    private let report: @Sendable (String) -> Void

    /// The one lock: everything below, and workers waiting for `waitUntilIdle`.
    private let condition = NSCondition()
    /// Ranges by font stack and range index.
    private var slots: [String: [Int: Slot]] = [:]
    private var rangeCount = 0
    private var queue: [Job] = []
    /// Ranges queued or being read.
    private var loading = 0
    private var workers = 0
    /// Ranges finished (loaded or failed).
    private var arrivals = 0
    /// URLs reported, and whether the range limit was.
    private var reported: Set<String> = []
    private var limitReported = false

    /// A store over the style's `glyphs` template. `report` gets one line per range that cannot
    /// be had (its URL and what is wrong), from a worker thread, and one when `maxRanges` is
    /// reached, from the thread that asked.
    public init(template: String, resolver: ResourceResolver, fallback: (any GlyphSource)? = nil,
                cache: HTTPCache? = nil, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.template = GlyphURLTemplate(template)
        self.resolver = resolver
        self.fallback = fallback
        self.report = report
        let lower = template.lowercased()
        let sample = self.template.url(stack: "", range: 0, encoded: false)
        if (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && (try? resolver.path(sample)) == nil {
            origin = .web(cache ?? resolver.web.map {
                HTTPCache(directory: Self.defaultCacheDirectory, byteLimit: Self.defaultCacheBytes, timeout: $0.timeout)
            })
        } else {
            origin = .files(encoded: lower.hasPrefix("file://"))
        }
    }

    public func request(_ codePoints: [UInt32], stack: String) -> Bool {
        var atHand = true
        var fromFallback: [UInt32] = []
        var missing: [Int] = []
        condition.lock()
        do {
            let table = slots[stack]
            for cp in codePoints where cp <= GlyphURLTemplate.maxCodePoint {
                let r = GlyphURLTemplate.rangeIndex(cp)
                switch table?[r] {
                case nil: if !missing.contains(r) { missing.append(r) }
                case .loading?: atHand = false
                case .loaded?: break
                case .failed?: fromFallback.append(cp)
                }
            }
        }
        var overLimit = false
        for r in missing {
            if rangeCount >= Self.maxRanges {
                slots[stack, default: [:]][r] = .failed
                fromFallback += codePoints.filter { $0 <= GlyphURLTemplate.maxCodePoint && GlyphURLTemplate.rangeIndex($0) == r }
                overLimit = true
            } else {
                slots[stack, default: [:]][r] = .loading
                queue.append(Job(stack: stack, range: r))
                loading += 1
                atHand = false
            }
            rangeCount += 1
        }
        let start = min(Self.maxWorkers - workers, queue.count)
        workers += max(0, start)
        let reportLimit = overLimit && !limitReported
        if overLimit { limitReported = true }
        condition.unlock()

        for _ in 0..<max(0, start) {
            let thread = Thread { [weak self] in
                while let job = self?.next() { self?.load(job) }
            }
            thread.name = "nightmap glyphs"
            thread.start()
        }
        if reportLimit {
            report("\(template.template): more than \(Self.maxRanges) glyph ranges asked for; the others are not read")
        }
        if !fromFallback.isEmpty, let fallback, !fallback.request(fromFallback, stack: stack) { return false }
        return atHand
    }

    public func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
        guard codePoint <= GlyphURLTemplate.maxCodePoint else { return nil }
        condition.lock()
        let slot = slots[stack]?[GlyphURLTemplate.rangeIndex(codePoint)]
        condition.unlock()
        switch slot {
        case let .loaded(glyphs)?: return glyphs[codePoint]
        case .failed?: return fallback?.glyph(codePoint, stack: stack)
        // (A glyph the fallback shaped in a run, under an id no range was asked for.)
        case nil where SDFGlyph.shapedIDs.contains(codePoint): return fallback?.glyph(codePoint, stack: stack)
        case .loading?, nil: return nil
        }
    }

    /// The fallback's shaping of a run whose code points all lie in ranges that failed;
    /// nil for any other run, so that text drawn from the style's ranges is drawn a glyph per
    /// character, as MapLibre draws it.
    public func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]? {
        guard let fallback, !codePoints.isEmpty else { return nil }
        condition.lock()
        let table = slots[stack]
        let failed = codePoints.allSatisfy { cp in
            guard cp <= GlyphURLTemplate.maxCodePoint, case .failed? = table?[GlyphURLTemplate.rangeIndex(cp)] else { return false }
            return true
        }
        condition.unlock()
        return failed ? fallback.shapeRun(codePoints, stack: stack) : nil
    }

    /// Ranges finished here plus the fallback's own count: either changing means labels may
    /// shape differently.
    public var generation: Int {
        condition.lock()
        let n = arrivals
        condition.unlock()
        return n + (fallback?.generation ?? 0)
    }

    /// Waits until no range is queued or being read, at most `timeout` seconds; whether none is.
    /// For snapshots and render tests: request the labels' code points, wait, then draw. (The
    /// fallback's own loading, if it has any, is not waited for.)
    public func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while loading > 0 {
            if !condition.wait(until: deadline) { return loading == 0 }
        }
        return true
    }

    /// Some range is queued or being read (or the fallback is loading).
    public var isLoading: Bool {
        condition.lock()
        let n = loading
        condition.unlock()
        return n > 0 || fallback?.isLoading == true
    }

    /// The next range to read, or nil (and one worker fewer) when none is queued.
    private func next() -> Job? {
        condition.lock(); defer { condition.unlock() }
        if queue.isEmpty { workers -= 1; return nil }
        return queue.removeFirst()
    }

    /// Reads and decodes one range (its glyphs of other ranges dropped: a template without
    /// `{range}` serves every range from one file) and files it as loaded or failed.
    private func load(_ job: Job) {
        var slot = Slot.failed
        let url: String
        switch origin {
        case let .files(encoded): url = template.url(stack: job.stack, range: job.range, encoded: encoded)
        case .web: url = template.url(stack: job.stack, range: job.range, encoded: true)
        }
        do {
            let bytes: Data
            switch origin {
            case .files:
                bytes = try resolver.data(url, limit: Self.maxBytes)
            case let .web(cache):
                guard let cache else { throw StyleError("\(url): glyph ranges over HTTP are not read here") }
                guard let body = try cache.get(url, maxBytes: Self.maxBytes, accept: "application/x-protobuf, */*") else {
                    throw StyleError("\(url): no such glyph range (the server has none)")
                }
                bytes = body
            }
            slot = .loaded(try Self.decode(bytes, url: url).filter { GlyphURLTemplate.rangeIndex($0.key) == job.range })
        } catch {
            reportOnce(url, "\(error)")
        }
        condition.lock()
        slots[job.stack, default: [:]][job.range] = slot
        loading -= 1
        arrivals += 1
        condition.broadcast()
        condition.unlock()
    }

    /// A range file's glyphs. A file that is not a PBF but an HTML page (a server's error or
    /// login page answered with 200) is named as such rather than as a broken PBF.
    static func decode(_ bytes: Data, url: String) throws -> [UInt32: SDFGlyph] {
        do {
            return try GlyphRange(pbf: [UInt8](bytes)).glyphs
        } catch let f as GlyphRange.Failure {
            let text = bytes.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if text.first == UInt8(ascii: "<"), let next = text.dropFirst().first,
               next == UInt8(ascii: "!") || next == UInt8(ascii: "?") || (UInt8(ascii: "A")...UInt8(ascii: "z")).contains(next) {
                throw StyleError("\(url): not a glyph PBF (an HTML page)")
            }
            throw StyleError("\(url): \(f.description)")
        }
    }

    private func reportOnce(_ url: String, _ line: String) {
        condition.lock()
        let first = reported.insert(url).inserted
        condition.unlock()
        if first { report(line) }
    }
}
