import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The ISS feed `nightmap soak` talks to: an HTTP server on 127.0.0.1 (an ephemeral port) that
/// answers every request in the way it is currently told to: a good fix at the simulated
/// instant, or one of the ways a real server fails. One connection at a time, on its own thread.
final class SoakFeedServer: @unchecked Sendable {
    enum Behaviour: String, CaseIterable {
        case good, refuse, status500 = "http-500", html, truncated, hang, oversized, garbage
    }

    let url: URL
    private let socket: Int32
    /// Guards the state below; broadcast when a request has been answered.
    private let lock = NSCondition()
    private var behaviour = Behaviour.good
    private var instant = 0.0
    private var stopped = false
    private var served: [Behaviour: Int] = [:]
    private var answered: [Behaviour: Int] = [:]

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("soak feed: cannot open a socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw Failure("soak feed: cannot listen on 127.0.0.1") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/v1/satellites/25544") else {
            close(fd); throw Failure("soak feed: no URL for port \(UInt16(bigEndian: address.sin_port))")
        }
        socket = fd
        self.url = url
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// How the next requests are answered, and the instant (Unix s) a good answer is for.
    func set(_ b: Behaviour, instant t: Double) { lock.lock(); behaviour = b; instant = t; lock.unlock() }

    var currentBehaviour: Behaviour { lock.lock(); defer { lock.unlock() }; return behaviour }
    /// Requests answered so far, by behaviour.
    var servedCounts: [Behaviour: Int] { lock.lock(); defer { lock.unlock() }; return served }

    /// Requests taken while behaviour `b` was set and answered (the connection closed), so far.
    func answers(_ b: Behaviour) -> Int { lock.lock(); defer { lock.unlock() }; return answered[b, default: 0] }

    /// Waits until more than `count` requests taken under `b` have been answered, at most
    /// `seconds`; whether they have.
    @discardableResult
    func waitForAnswers(_ b: Behaviour, beyond count: Int, within seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock(); defer { lock.unlock() }
        while answered[b, default: 0] <= count {
            if !lock.wait(until: deadline) { return answered[b, default: 0] > count }
        }
        return true
    }

    func stop() {
        lock.lock(); stopped = true; lock.unlock()
        shutdown(socket, Int32(SHUT_RDWR)); close(socket)
    }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            lock.lock()
            let done = stopped, b = behaviour, t = instant
            if client >= 0 { served[b, default: 0] += 1 }
            lock.unlock()
            if done { if client >= 0 { close(client) }; return }
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            readRequest(client)
            answer(client, b, t)
            close(client)
            lock.lock(); answered[b, default: 0] += 1; lock.broadcast(); lock.unlock()
        }
    }

    private func readRequest(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096), seen: [UInt8] = []
        while seen.count < 16_384 {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return }
            seen += buffer[0..<n]
            if seen.count >= 4, seen.suffix(4) == [13, 10, 13, 10] { return }
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            sent += n
        }
    }

    private func answer(_ fd: Int32, _ b: Behaviour, _ t: Double) {
        func reply(_ status: String, _ type: String, _ body: [UInt8], length: Int? = nil) {
            send(fd, Array("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(length ?? body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
        }
        // A plausible ground track: 51.6 degrees inclination, one orbit in 92.7 minutes.
        let phase: Double = t / 5562 * 2 * Double.pi
        let lat: Double = 51.6 * sin(phase)
        let turns: Double = t / 5562 - t / 86400              // orbits less the Earth's turning
        let lng: Double = (turns * 360).truncatingRemainder(dividingBy: 360) - 180
        let json = String(format: "{\"name\":\"iss\",\"id\":25544,\"latitude\":%.4f,\"longitude\":%.4f,\"altitude\":420.1,\"velocity\":27600,\"timestamp\":%.0f}",
                          lat, lng, t)
        switch b {
        case .good: reply("200 OK", "application/json", Array(json.utf8))
        case .refuse: return                                        // closed without a word
        case .status500: reply("500 Internal Server Error", "application/json", Array("{\"error\":\"internal\"}".utf8))
        case .html: reply("200 OK", "text/html", Array("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>".utf8))
        case .truncated: reply("200 OK", "application/json", Array(json.utf8.prefix(json.utf8.count / 2)))
        case .hang: usleep(1_500_000)                               // past the client's time limit
        case .oversized:
            reply("200 OK", "application/json", Array(repeating: 32, count: 256 * 1024), length: 100 << 20)
        case .garbage: reply("200 OK", "application/json", [0xFF, 0xFE, 0x7B, 0xC3, 0x28, 0x7D])
        }
    }
}
