import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MapCore

/// The live ISS position from a wheretheiss.at-style endpoint: one GET at a time, off the render
/// thread, with a time limit and a size limit; answers are validated before they count.
public final class IssFeedClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public static let defaultURL = URL(string: "https://api.wheretheiss.at/v1/satellites/25544")!
    public let url: URL
    public let timeout: Double
    public let maxBytes: Int

    private let lock = NSLock()
    private var session: URLSession!
    private var buffers: [Int: Data] = [:]
    private var completions: [Int: @Sendable (Result<IssFix, FeedError>) -> Void] = [:]
    private var failures: [Int: FeedError] = [:]

    public struct FeedError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(url: URL = IssFeedClient.defaultURL, timeout: Double = 2, maxBytes: Int = 64 * 1024) {
        self.url = url; self.timeout = timeout; self.maxBytes = maxBytes
        super.init()
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts one request; `completion` runs on a background queue with a fix or a one-line error
    /// naming the URL.
    public func fetch(_ completion: @escaping @Sendable (Result<IssFix, FeedError>) -> Void) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        lock.lock()
        completions[task.taskIdentifier] = completion
        buffers[task.taskIdentifier] = Data()
        lock.unlock()
        task.resume()
    }

    /// One request, waited for (for `nightmap state`): at most the timeout plus a little.
    public func fetchNow() -> Result<IssFix, FeedError> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        fetch { result in box.set(result); done.signal() }
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            return .failure(FeedError(description: "\(url): no answer within \(timeout) s"))
        }
        return box.get() ?? .failure(FeedError(description: "\(url): no answer"))
    }

    // MARK: URLSessionDataDelegate

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            fail(dataTask, "HTTP \(http.statusCode)")
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(maxBytes) {
            fail(dataTask, "answer of \(response.expectedContentLength) bytes is over the \(maxBytes)-byte limit")
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let id = dataTask.taskIdentifier
        buffers[id, default: Data()].append(data)
        let over = (buffers[id]?.count ?? 0) > maxBytes
        lock.unlock()
        if over {
            fail(dataTask, "answer is over the \(maxBytes)-byte limit")
            dataTask.cancel()
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let id = task.taskIdentifier
        let completion = completions.removeValue(forKey: id)
        let data = buffers.removeValue(forKey: id) ?? Data()
        let failure = failures.removeValue(forKey: id)
        lock.unlock()
        guard let completion else { return }
        if let failure { completion(.failure(failure)); return }
        if let error {
            completion(.failure(FeedError(description: "\(url): \(Self.describe(error))")))
            return
        }
        completion(Self.parse(data, origin: url.absoluteString))
    }

    private func fail(_ task: URLSessionTask, _ reason: String) {
        lock.lock()
        if failures[task.taskIdentifier] == nil { failures[task.taskIdentifier] = FeedError(description: "\(url): \(reason)") }
        lock.unlock()
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        switch (ns.domain, ns.code) {
        case (NSURLErrorDomain, NSURLErrorTimedOut): return "no answer within the time limit"
        case (NSURLErrorDomain, NSURLErrorCannotConnectToHost): return "connection refused"
        case (NSURLErrorDomain, NSURLErrorNetworkConnectionLost): return "connection lost"
        case (NSURLErrorDomain, NSURLErrorHTTPTooManyRedirects): return "too many redirects"
        case (NSURLErrorDomain, NSURLErrorCannotFindHost): return "unknown host"
        case (NSURLErrorDomain, NSURLErrorNotConnectedToInternet): return "no network"
        default:
            let text = ns.localizedDescription.split(separator: "\n").first.map(String.init) ?? "request failed"
            return text
        }
    }

    /// Decodes and checks one answer: `latitude`, `longitude` (degrees), `altitude` (km) and
    /// `timestamp` (Unix s) must be finite numbers in range.
    public static func parse(_ data: Data, origin: String) -> Result<IssFix, FeedError> {
        func bad(_ s: String) -> Result<IssFix, FeedError> { .failure(FeedError(description: "\(origin): \(s)")) }
        guard !data.isEmpty else { return bad("empty answer") }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return bad(String(decoding: data.prefix(1), as: UTF8.self) == "<" ? "answer is HTML, not JSON" : "answer is not valid JSON")
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

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<IssFix, FeedError>?
        func set(_ v: Result<IssFix, FeedError>) { lock.lock(); value = v; lock.unlock() }
        func get() -> Result<IssFix, FeedError>? { lock.lock(); defer { lock.unlock() }; return value }
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
        lock.lock()
        if inFlight { lock.unlock(); return }        // one request at a time
        inFlight = true
        lock.unlock()
        client.fetch { [weak self] result in
            guard let self else { return }
            self.lock.lock()
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
