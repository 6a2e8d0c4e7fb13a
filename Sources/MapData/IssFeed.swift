import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MapCore

/// The live ISS position from a wheretheiss.at-style endpoint: one GET at a time, off the render
/// thread, with a time limit and a size limit; answers are validated before they count.
///
/// Every request ends within `timeout` seconds: the client's own deadline cancels it and says what
/// had arrived (URLSession's limits, a second later, are only a backstop). At most `maxBytes` of
/// an answer are kept, at most `maxRedirects` redirects followed, and every failure is one line
/// naming the URL and what is wrong.
public final class IssFeedClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public static let defaultURL = URL(string: "https://api.wheretheiss.at/v1/satellites/25544")!
    /// Redirects followed before a request fails.
    public static let maxRedirects = 5
    public let url: URL
    public let timeout: Double
    public let maxBytes: Int

    private let lock = NSLock()
    private let session: URLSession
    private let forwarder = SessionForwarder()
    private var requests: [Int: Request] = [:]

    /// One request in flight: removed from `requests` by whichever of the answer, a failure or
    /// the deadline comes first, so its completion runs exactly once.
    private struct Request {
        let completion: @Sendable (Result<IssFix, FeedError>) -> Void
        var data = Data()
        var status: Int?             // once the response head has arrived
        var redirects = 0
    }

    public struct FeedError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(url: URL = IssFeedClient.defaultURL, timeout: Double = 2, maxBytes: Int = 64 * 1024) {
        self.url = url; self.timeout = timeout; self.maxBytes = maxBytes
        let config = URLSessionConfiguration.ephemeral
        // A backstop only: the client's own deadline (`timeout`) ends each request first.
        config.timeoutIntervalForRequest = timeout + 1
        config.timeoutIntervalForResource = timeout + 1
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpMaximumConnectionsPerHost = 1
        // URLSession keeps its delegate until invalidated: a forwarder holding the client weakly
        // lets the client go (and its deinit invalidate the session) when its owner drops it.
        session = URLSession(configuration: config, delegate: forwarder, delegateQueue: nil)
        super.init()
        forwarder.client = self
    }

    deinit { session.invalidateAndCancel() }

    /// Starts one request; `completion` runs once, on a background queue, within `timeout`
    /// seconds, with a fix or a one-line error naming the URL.
    public func fetch(_ completion: @escaping @Sendable (Result<IssFix, FeedError>) -> Void) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout + 1
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        lock.lock()
        requests[id] = Request(completion: completion)
        lock.unlock()
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self, weak task] in
            guard let self else { return }
            self.lock.lock()
            let pending = self.requests[id]
            self.lock.unlock()
            guard let pending else { return }
            let limit = Self.seconds(self.timeout)
            self.fail(id, pending.status == nil ? "no answer within \(limit)"
                : "answer not complete within \(limit) (\(Self.size(pending.data.count)) received)")
            task?.cancel()
        }
    }

    /// One request, waited for (for `nightmap state`): at most the timeout plus a little.
    public func fetchNow() -> Result<IssFix, FeedError> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        fetch { result in box.set(result); done.signal() }
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            return .failure(FeedError(description: "\(url): no answer within \(Self.seconds(timeout))"))
        }
        return box.get() ?? .failure(FeedError(description: "\(url): no answer"))
    }

    // MARK: URLSessionDataDelegate

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        lock.lock()
        requests[dataTask.taskIdentifier]?.status = status
        lock.unlock()
        var reason: String?
        if !(200..<300).contains(status) {
            let phrase = HTTPURLResponse.localizedString(forStatusCode: status)
            reason = "HTTP \(status)" + (phrase.isEmpty ? "" : " (\(phrase))")
        } else if response.expectedContentLength > Int64(maxBytes) {
            reason = "answer larger than the \(Self.size(maxBytes)) limit (\(Self.size(Int(response.expectedContentLength))) announced)"
        }
        if let reason {
            fail(dataTask.taskIdentifier, reason)
            completionHandler(.cancel)
            // swift-corelibs-foundation ignores the disposition ("Ignoring disposition from
            // completion handler") and reads on: cancelling the task is what stops the transfer.
            Self.cancel(dataTask)
            return
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let id = dataTask.taskIdentifier
        // Only a request still pending keeps data (not one already failed or timed out).
        requests[id]?.data.append(data)
        let over = (requests[id]?.data.count ?? 0) > maxBytes
        lock.unlock()
        if over {
            fail(id, "answer larger than the \(Self.size(maxBytes)) limit")
            Self.cancel(dataTask)
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        lock.lock()
        requests[task.taskIdentifier]?.redirects += 1
        let count = requests[task.taskIdentifier]?.redirects ?? 0
        lock.unlock()
        if count > Self.maxRedirects {
            fail(task.taskIdentifier, "too many redirects (more than \(Self.maxRedirects))")
            completionHandler(nil)
            Self.cancel(task)
            return
        }
        completionHandler(request)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let pending = requests.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let pending else { return }
        if let error {
            pending.completion(.failure(FeedError(description: "\(url): \(Self.describe(error, timeout: timeout))")))
            return
        }
        pending.completion(Self.parse(pending.data, origin: url.absoluteString, status: pending.status))
    }

    /// Cancels a task without waiting: on Linux `cancel()` waits for URLSession's work queue, which
    /// a fast sender keeps busy, and the delegate queue must stay free meanwhile to drop what
    /// still arrives (else it piles up in memory).
    private static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    /// Ends a pending request with a failure (nothing when it has ended already).
    private func fail(_ id: Int, _ reason: String) {
        lock.lock()
        let pending = requests.removeValue(forKey: id)
        lock.unlock()
        pending?.completion(.failure(FeedError(description: "\(url): \(reason)")))
    }

    /// A transfer error in words: what happened to the connection.
    static func describe(_ error: Error, timeout: Double? = nil) -> String {
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return firstLine(ns.localizedDescription) }
        switch ns.code {
        case NSURLErrorTimedOut: return timeout.map { "no answer within \(seconds($0))" } ?? "no answer within the time limit"
        case NSURLErrorCannotConnectToHost: return "connection refused (nothing listening)"
        case NSURLErrorNetworkConnectionLost: return "connection lost (reset or closed by the server)"
        case NSURLErrorBadServerResponse: return "the server closed the connection without a proper answer"
        case NSURLErrorHTTPTooManyRedirects: return "too many redirects"
        case NSURLErrorCannotFindHost: return "unknown host"
        case NSURLErrorNotConnectedToInternet: return "no network"
        case NSURLErrorCancelled: return "request cancelled"
        default:
            // libcurl's own words, when URLSession has no code for them.
            let text = firstLine(ns.localizedDescription)
            if text.hasPrefix("transfer closed with") { return "connection closed before the answer was complete (\(text))" }
            if text.hasPrefix("Empty reply") { return "the server closed the connection without answering" }
            return text
        }
    }

    private static func firstLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).first.map(String.init) ?? "request failed"
    }

    /// "1 s", "0.5 s".
    static func seconds(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e9 ? "\(Int(t)) s" : "\(t) s"
    }

    /// "512 bytes", "64 KB", "100 MB" (binary units).
    static func size(_ n: Int) -> String {
        if n < 1024 { return n == 1 ? "1 byte" : "\(n) bytes" }
        if n < 1024 * 1024 { return "\(n / 1024) KB" }
        return "\(n / (1024 * 1024)) MB"
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
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            if shape.looksLikeHTML { return bad(status.map { "HTTP \($0) but an HTML page, not JSON" } ?? "answer is an HTML page, not JSON") }
            if String(validating: data, as: UTF8.self) == nil { return bad("answer is not valid JSON (not UTF-8 text)") }
            if shape.endsOpen { return bad("answer is not valid JSON (cut off after \(data.count) bytes)") }
            return bad("answer is not valid JSON")
        }
        guard let o = object as? [String: Any] else { return bad("answer is not a JSON object") }
        func number(_ key: String) -> Double? {
            guard let n = o[key] as? NSNumber else { return nil }
            return n.doubleValue
        }
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

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<IssFix, FeedError>?
        func set(_ v: Result<IssFix, FeedError>) { lock.lock(); value = v; lock.unlock() }
        func get() -> Result<IssFix, FeedError>? { lock.lock(); defer { lock.unlock() }; return value }
    }
}

/// The session's delegate: passes each event on to the client while it exists.
private final class SessionForwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    weak var client: IssFeedClient?

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let client else { completionHandler(.cancel); return }
        client.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        client?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let client else { completionHandler(nil); return }
        client.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        client?.urlSession(session, task: task, didCompleteWithError: error)
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
    private let interval: Double
    private let lock = NSLock()
    private var inbox: [Event] = []
    private var inFlight = false
    /// When the request in flight started (monotonic seconds), and which one it is: a request
    /// whose completion never comes (seen once under AddressSanitizer with the whole test suite
    /// running) is given up after its time limit plus 3 s, so the feed never stops for good.
    private var inFlightSince = 0.0
    private var generation = 0
    private var timer: DispatchSourceTimer?
    private let queue = DispatchQueue(label: "nightmap.iss-feed")

    public init(client: IssFeedClient, interval: Double = 1) {
        self.client = client; self.interval = interval
    }

    public func start() {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now(), repeating: interval)
        t.setEventHandler { [weak self] in self?.tick() }
        timer = t
        t.resume()
    }

    public func stop() { timer?.cancel(); timer = nil }

    private func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if inFlight {                                // one request at a time
            let stuck = Double(now) / 1e9 - inFlightSince > client.timeout + 3
            if !stuck { lock.unlock(); return }
            inbox.append(.failure(time: Date().timeIntervalSince1970,
                                  reason: "\(client.url): no answer within \(Int(client.timeout + 3)) s (the request never finished)"))
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
            self.lock.unlock()
        }
    }

    /// Everything that arrived since the last call.
    public func drain() -> [Event] {
        lock.lock(); defer { lock.unlock() }
        let out = inbox
        inbox.removeAll(keepingCapacity: true)
        return out
    }
}
