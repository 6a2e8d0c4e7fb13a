import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for tests: it stands in for the ISS feed and misbehaves on
/// request. Each connection reads the request head, then answers with the behaviour set at that
/// moment (`behaviour` can change between requests). One thread per connection; `stop()` wakes
/// every waiting connection, closes everything and waits for the threads to end.
public final class LocalHTTPServer: @unchecked Sendable {
    public enum Behaviour: Sendable {
        case json(String)                       // 200 with this body
        case status(Int, String)                // this status with an HTML body
        case silent                             // accept, read, never answer
        case headersThenHang                    // status line and headers, then nothing
        case trickle(String, perByte: Double)   // 200, body one byte at a time
        case huge(bytes: Int, announced: Bool = true, pause: Double = 0)
                                                // 200 with a large body, streamed in 64 KB pieces
                                                // with `pause` seconds after each; `announced:
                                                // false` sends no Content-Length
        case redirectLoop                       // 302 to itself
        case raw(Data)                          // exactly these bytes
        case refuse                             // nothing listens on the port: connections are refused
        case reset                              // read the request, then close with SO_LINGER 0 (a TCP RST)
        case cutShort(String)                   // Content-Length of this body, half of it, then close
        case slow(String, after: Double)        // 200 with this body after a delay
        case image(Data, type: String)          // 200 with these bytes as `type`
        indirect case route(@Sendable (String) -> Behaviour)
                                                // the behaviour for the request target (path and query)
        indirect case routeHead(@Sendable (_ target: String, _ head: String) -> Behaviour)
                                                // the same, seeing the request's head too (its headers)

        /// 200 `application/json` whose body is not UTF-8.
        public static let invalidUTF8 = raw(Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\nConnection: close\r\n\r\n".utf8)
                                     + Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0xC0, 0x7D]))
        /// 200 with the beginning of a JSON object (its Content-Length is right).
        public static let truncatedJSON = json(#"{"name":"iss","id":25544,"latitude":50.11,"longitude":11"#)
        /// 200 with `depth` '[' (valid bytes, nesting no parser should follow).
        public static func nested(_ depth: Int) -> Behaviour { json(String(repeating: "[", count: depth)) }
        /// 200 with the HTML error page a proxy or a broken backend serves.
        public static let htmlErrorPage = status(200, "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n")
    }

    public let port: UInt16
    private let lock = NSLock()
    private var current: Behaviour
    private var listener: Int32 = -1
    private var acceptEnded: DispatchSemaphore?
    private var connections: Set<Int32> = []
    private var stopped = false
    /// Broadcast when a request is read or a connection ends.
    private let changed = NSCondition()
    private let threads = DispatchGroup()
    private var sent = 0
    private var served = 0
    private var seenTargets: [String] = []
    private var seenHeads: [String] = []

    public init(_ behaviour: Behaviour) throws {
        current = behaviour
        let (fd, port) = try Self.listenSocket(port: 0)
        self.port = port
        if case .refuse = behaviour { close(fd) } else { startAccepting(fd) }
    }

    deinit { stop() }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/v1/satellites/25544")! }

    /// What the next request gets. `.refuse` closes the listening socket; any other behaviour
    /// opens it again on the same port.
    public var behaviour: Behaviour {
        get { lock.lock(); defer { lock.unlock() }; return current }
        set {
            lock.lock()
            current = newValue
            let listening = listener >= 0, done = stopped
            lock.unlock()
            if done { return }
            if case .refuse = newValue {
                if listening { stopAccepting() }
            } else if !listening {
                // Rebinding right after the close can fail for a moment: try for up to a second.
                for _ in 0..<100 {
                    if let (fd, _) = try? Self.listenSocket(port: port) { startAccepting(fd); return }
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
        }
    }

    /// Body bytes and headers written to clients so far (what a client could have received).
    public var bytesSent: Int { lock.lock(); defer { lock.unlock() }; return sent }
    /// Requests read so far.
    public var requests: Int { lock.lock(); defer { lock.unlock() }; return served }
    /// The request targets (path and query) read so far, in order.
    public var targets: [String] { lock.lock(); defer { lock.unlock() }; return seenTargets }
    /// The request heads (request line and headers) read so far, in order.
    public var heads: [String] { lock.lock(); defer { lock.unlock() }; return seenHeads }

    /// Waits until `count` requests in all have been read, at most `timeout` seconds; whether
    /// they have.
    public func waitForRequests(_ count: Int, timeout: Double) -> Bool {
        wait(timeout: timeout) { served >= count }
    }

    /// Waits until no connection is open (every answer written, or given up because the client
    /// went away), at most `timeout` seconds; whether none is. What `bytesSent` says then is
    /// all that will be sent.
    public func waitUntilIdle(timeout: Double) -> Bool {
        wait(timeout: timeout) { connections.isEmpty }
    }

    /// Waits until `condition` (read under `lock`) holds; `changed` is signalled on each change
    /// it reads.
    private func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        changed.lock(); defer { changed.unlock() }
        while true {
            lock.lock(); let holds = condition(); lock.unlock()
            if holds { return true }
            if !changed.wait(until: deadline) {
                lock.lock(); defer { lock.unlock() }
                return condition()
            }
        }
    }

    private func signalChange() { changed.lock(); changed.broadcast(); changed.unlock() }

    public func stop() {
        lock.lock()
        if stopped { lock.unlock(); return }
        stopped = true
        for c in connections { shutdown(c, Int32(SHUT_RDWR)) }   // each thread closes its own socket
        lock.unlock()
        stopAccepting()
        _ = threads.wait(timeout: .now() + 5)
    }

    // MARK: Sockets

    private static func listenSocket(port: UInt16) throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    private func startAccepting(_ fd: Int32) {
        let ended = DispatchSemaphore(value: 0)
        lock.lock(); listener = fd; acceptEnded = ended; lock.unlock()
        threads.enter()
        Thread { [self] in
            acceptLoop(fd)
            close(fd)
            ended.signal()
            threads.leave()
        }.start()
    }

    /// Shuts the listening socket (its accept loop then closes it) and waits until it is closed.
    private func stopAccepting() {
        lock.lock()
        let fd = listener, ended = acceptEnded
        listener = -1; acceptEnded = nil
        lock.unlock()
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        _ = ended?.wait(timeout: .now() + 5)
    }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            lock.lock()
            if stopped || listener != fd { lock.unlock(); close(c); return }
            connections.insert(c)
            lock.unlock()
            threads.enter()
            Thread { [self] in
                serve(c)
                lock.lock(); connections.remove(c); lock.unlock()
                close(c)
                signalChange()
                threads.leave()
            }.start()
        }
    }

    /// Waits `seconds` on connection `c`, or until the client goes away or `stop()` shuts the
    /// connection (an HTTP/1.1 client sends nothing after its request, so anything readable is
    /// its end); false when either happened. A client that hung up thus ends its connection at
    /// once, and `waitUntilIdle` can tell when nothing more will be sent.
    private func pause(_ c: Int32, _ seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return true }
            var p = pollfd(fd: c, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, Int32((min(left, 1) * 1000).rounded(.up)))
            if n > 0 || (n < 0 && errno != EINTR) { return false }
            lock.lock(); let done = stopped; lock.unlock()
            if done { return false }
        }
    }

    private func send(_ c: Int32, _ s: String) -> Bool { send(c, Data(s.utf8)) }
    private func send(_ c: Int32, _ d: Data) -> Bool {
        d.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.send(c, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                off += n
                lock.lock(); sent += n; lock.unlock()
            }
            return true
        }
    }

    private func serve(_ c: Int32) {
        // Read the request head.
        var head = [UInt8]()
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) && head.count < 65536 {
            if recv(c, &byte, 1, 0) != 1 { return }
            head.append(byte)
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
        let headText = String(decoding: head, as: UTF8.self)
        lock.lock(); served += 1; seenTargets.append(target); seenHeads.append(headText); var behaviour = current; lock.unlock()
        signalChange()
        while true {
            if case let .route(choose) = behaviour { behaviour = choose(target) } else if case let .routeHead(choose) = behaviour {
                behaviour = choose(target, headText)
            } else { break }
        }
        func reply(_ status: Int, _ body: Data, type: String = "application/json") {
            _ = send(c, "HTTP/1.1 \(status) X\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            _ = send(c, body)
        }
        switch behaviour {
        case let .json(body): reply(200, Data(body.utf8))
        case let .status(code, body): reply(code, Data(body.utf8), type: "text/html")
        case .silent: _ = pause(c, 30); return
        case .headersThenHang:
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n{\"lat")
            _ = pause(c, 30)
            return
        case let .trickle(body, perByte):
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            for b in body.utf8 {
                if !send(c, Data([b])) || !pause(c, perByte) { return }
            }
        case let .huge(bytes, announced, gap):
            let length = announced ? "Content-Length: \(bytes)\r\n" : ""
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)Connection: close\r\n\r\n")
            let chunk = Data(repeating: 0x20, count: 65536)
            var left = bytes
            while left > 0 {
                if !send(c, chunk.prefix(min(left, chunk.count))) { return }
                left -= chunk.count
                if gap > 0 && !pause(c, gap) { return }
            }
        case .redirectLoop:
            _ = send(c, "HTTP/1.1 302 Found\r\nLocation: \(url.absoluteString)\r\nContent-Length: 0\r\n\r\n")
        case let .raw(data): _ = send(c, data)
        case .refuse, .reset:      // (a connection accepted just before `.refuse` was set is reset too)
            var l = linger(l_onoff: 1, l_linger: 0)
            setsockopt(c, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
            return                 // the caller's close() sends the RST
        case let .cutShort(body):
            let bytes = Data(body.utf8)
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n")
            _ = send(c, bytes.prefix(bytes.count / 2))
            return
        case let .slow(body, delay):
            if !pause(c, delay) { return }
            reply(200, Data(body.utf8))
        case let .image(data, type):
            reply(200, data, type: type)
        case .route, .routeHead:
            return
        }
        // Close gracefully: stop sending, then wait (at most 2 s) for the client to close its side,
        // so that a slow reader under load never sees a reset instead of the answer's end.
        shutdown(c, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 4096)
        while recv(c, &sink, sink.count, 0) > 0 {}
    }
}
