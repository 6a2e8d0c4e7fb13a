import Foundation
import MapCore
import MapData

/// The live ISS position from a wheretheiss.at-style endpoint: one GET at a time, off the render
/// thread, with a time limit and a size limit; answers are validated before they count.
///
/// Every request ends within `timeout` seconds (libcurl's own limit, `HTTPGet`). At most
/// `maxBytes` of an answer are read (one announcing more is refused at its headers), at most
/// `maxRedirects` redirects followed, and every failure is one line naming the URL and what is
/// wrong.
public final class IssFeedClient: Sendable {
    public static let defaultURL = URL(string: "https://api.wheretheiss.at/v1/satellites/25544")!
    /// Redirects followed before a request fails.
    public static let maxRedirects = 5
    public let url: URL
    public let timeout: Double
    public let maxBytes: Int

    public struct FeedError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(url: URL = IssFeedClient.defaultURL, timeout: Double = 2, maxBytes: Int = 64 * 1024) {
        self.url = url; self.timeout = timeout; self.maxBytes = maxBytes
    }

    /// Starts one request; `completion` runs once, on a thread of the request's own, within
    /// `timeout` seconds (and a little), with a fix or a one-line error naming the URL. (A thread,
    /// not Dispatch's global queue: a request blocks while it waits on the network, and the
    /// global queue has only as many threads as cores.)
    @discardableResult
    public func fetch(_ completion: @escaping @Sendable (Result<IssFix, FeedError>) -> Void) -> Request {
        let (url, timeout, maxBytes) = (url, timeout, maxBytes)
        let request = Request()
        request.ended.enter()
        let thread = Thread {
            completion(Self.get(url, timeout: timeout, maxBytes: maxBytes))
            request.ended.leave()
        }
        thread.name = "nightmap.iss-feed.request"
        thread.start()
        return request
    }

    /// A request `fetch` started.
    public struct Request: Sendable {
        fileprivate let ended = DispatchGroup()

        /// Waits until the request's thread is done (its completion has run and returned), at
        /// most `timeout` seconds; whether it is. Whatever the completion did is then done.
        public func wait(timeout: Double) -> Bool { ended.wait(timeout: .now() + timeout) == .success }
    }

    /// One request, waited for (for `nightmap state`).
    public func fetchNow() -> Result<IssFix, FeedError> {
        Self.get(url, timeout: timeout, maxBytes: maxBytes)
    }

    private static func get(_ url: URL, timeout: Double, maxBytes: Int) -> Result<IssFix, FeedError> {
        switch HTTPGet.run(url, timeout: timeout, maxBytes: maxBytes, maxRedirects: maxRedirects, accept: "application/json") {
        case let .failure(f): return .failure(FeedError(description: "\(url.absoluteString): \(f.reason)"))
        case let .success(r): return parse(r.body, origin: url.absoluteString, status: r.status)
        }
    }

    /// Nesting deeper than this is refused before decoding (an answer is one flat object).
    static let maxNesting = 64

    /// Decodes and checks one answer: `latitude`, `longitude` (degrees), `altitude` (km) and
    /// `timestamp` (Unix s) must be finite numbers in range.
    public static func parse(_ data: Data, origin: String) -> Result<IssFix, FeedError> {
        parse(data, origin: origin, status: nil)
    }

    static func parse(_ data: Data, origin: String, status: Int?) -> Result<IssFix, FeedError> {
        func bad(_ s: String) -> Result<IssFix, FeedError> { .failure(FeedError(description: "\(origin): \(s)")) }
        guard !data.isEmpty else { return bad("empty answer") }
        let shape = Shape(data)
        if shape.maxDepth > maxNesting { return bad("answer is not valid JSON (nested more than \(maxNesting) levels deep)") }
        let object: JSON
        do { object = try JSON.parse(data, name: origin) } catch {
            if shape.looksLikeHTML { return bad(status.map { "HTTP \($0) but an HTML page, not JSON" } ?? "answer is an HTML page, not JSON") }
            if String(validating: data, as: UTF8.self) == nil { return bad("answer is not valid JSON (not UTF-8 text)") }
            if shape.endsOpen { return bad("answer is not valid JSON (cut off after \(data.count) bytes)") }
            return bad("answer is not valid JSON (\(JSON.parseFailure(error, name: origin)))")
        }
        guard let o = object.objectValue else { return bad("answer is not a JSON object") }
        func number(_ key: String) -> Double? { o[key]?.numberValue }
        guard let lat = number("latitude") else { return bad("no numeric \"latitude\"") }
        guard let lon = number("longitude") else { return bad("no numeric \"longitude\"") }
        guard let alt = number("altitude") else { return bad("no numeric \"altitude\"") }
        guard let time = number("timestamp") else { return bad("no numeric \"timestamp\"") }
        guard let fix = IssFix.validated(time: time, latitude: lat, longitude: lon, altitudeKm: alt, source: .live) else {
            return bad("position out of range (latitude \(lat), longitude \(lon), altitude \(alt) km, timestamp \(time))")
        }
        return .success(fix)
    }

    /// One pass over an answer's bytes, before decoding and to say why it is not JSON: how deep
    /// it nests, whether a string or bracket is still open at the end (cut off), whether it
    /// starts like HTML.
    struct Shape {
        var looksLikeHTML = false
        var maxDepth = 0
        var endsOpen = false

        init(_ data: Data) {
            var depth = 0, inString = false, escaped = false, first: UInt8?
            for b in data {
                if inString {
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch b {
                case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue     // white space, a byte order mark
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; maxDepth = max(maxDepth, depth)
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
                if first == nil { first = b }
            }
            looksLikeHTML = first == UInt8(ascii: "<")
            endsOpen = inString || depth > 0
        }
    }
}

/// Polls the feed once a second on its own queue and leaves results in a locked inbox that the
/// run loop drains: the map never waits on the network.
public final class IssFeedPoller: @unchecked Sendable {
    public enum Event: Sendable {
        case fix(IssFix)
        case failure(time: Double, reason: String)
    }

    private let client: IssFeedClient
    /// Guards the state below; broadcast when an event arrives.
    private let lock = NSCondition()
    private var inbox: [Event] = []
    private var inFlight = false
    /// When the request in flight started (monotonic seconds), and which one it is: a request
    /// whose completion never comes (seen once under AddressSanitizer with the whole test suite
    /// running) is given up after its time limit plus 3 s, so the feed never stops for good.
    private var inFlightSince = 0.0
    private var generation = 0
    private let worker: RepeatingWorker

    public init(client: IssFeedClient, interval: Double = 1) {
        self.client = client
        worker = RepeatingWorker(name: "nightmap.iss-feed", interval: interval)
    }

    public func start() { worker.start { [weak self] in self?.tick() } }

    public func stop() { worker.stop() }

    private func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if inFlight {                                // one request at a time
            let stuck = Double(now) / 1e9 - inFlightSince > client.timeout + 3
            if !stuck { lock.unlock(); return }
            inbox.append(.failure(time: Date().timeIntervalSince1970,
                                  reason: "\(client.url): no answer within \(Int(client.timeout + 3)) s (the request never finished)"))
            lock.broadcast()
        }
        inFlight = true
        inFlightSince = Double(now) / 1e9
        generation += 1
        let mine = generation
        lock.unlock()
        client.fetch { [weak self] result in
            guard let self else { return }
            self.lock.lock()
            guard mine == self.generation else { self.lock.unlock(); return }     // given up on already
            self.inFlight = false
            switch result {
            case let .success(fix): self.inbox.append(.fix(fix))
            case let .failure(e): self.inbox.append(.failure(time: Date().timeIntervalSince1970, reason: e.description))
            }
            if self.inbox.count > 64 { self.inbox.removeFirst(self.inbox.count - 64) }
            self.lock.broadcast()
            self.lock.unlock()
        }
    }

    /// Waits until something has arrived that `drain` has not taken, at most `timeout` seconds;
    /// whether it has. (A loop that has nothing else to do waits here instead of polling.)
    public func waitForEvents(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while inbox.isEmpty {
            if !lock.wait(until: deadline) { return !inbox.isEmpty }
        }
        return true
    }

    /// Everything that arrived since the last call.
    public func drain() -> [Event] {
        lock.lock(); defer { lock.unlock() }
        let out = inbox
        inbox.removeAll(keepingCapacity: true)
        return out
    }
}
