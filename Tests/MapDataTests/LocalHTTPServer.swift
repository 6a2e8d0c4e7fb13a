import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for tests: it stands in for the ISS feed and misbehaves on
/// request. Each connection reads the request head, then runs `behaviour` with the socket.
final class LocalHTTPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        case json(String)                       // 200 with this body
        case status(Int, String)                // another status with a body
        case silent                             // accept, read, never answer
        case headersThenHang                    // status line and headers, then nothing
        case trickle(String, perByte: Double)   // 200, body one byte at a time
        case huge(bytes: Int)                   // 200 with a large body
        case redirectLoop                       // 302 to itself
        case raw(Data)                          // exactly these bytes
    }

    let port: UInt16
    private let fd: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        self.fd = fd
        let t = Thread { [self] in acceptLoop() }
        t.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/v1/satellites/25544")! }

    func stop() {
        lock.lock(); stopped = true; let open = connections; connections = []; lock.unlock()
        shutdown(fd, Int32(SHUT_RDWR)); close(fd)
        for c in open { shutdown(c, Int32(SHUT_RDWR)); close(c) }
    }

    private func acceptLoop() {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { return }
            lock.lock()
            if stopped { lock.unlock(); close(c); return }
            connections.append(c)
            lock.unlock()
            let t = Thread { [self] in serve(c) }
            t.start()
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
            }
            return true
        }
    }

    private func serve(_ c: Int32) {
        // Read the request head.
        var head = [UInt8]()
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) && head.count < 65536 {
            if recv(c, &byte, 1, 0) != 1 { close(c); return }
            head.append(byte)
        }
        func reply(_ status: Int, _ body: Data, type: String = "application/json") {
            _ = send(c, "HTTP/1.1 \(status) X\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            _ = send(c, body)
        }
        switch behaviour {
        case let .json(body): reply(200, Data(body.utf8))
        case let .status(code, body): reply(code, Data(body.utf8), type: "text/html")
        case .silent: Thread.sleep(forTimeInterval: 10); close(c); return
        case .headersThenHang:
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n{\"lat")
            Thread.sleep(forTimeInterval: 10)
        case let .trickle(body, perByte):
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            for b in body.utf8 {
                if !send(c, Data([b])) { break }
                Thread.sleep(forTimeInterval: perByte)
            }
        case let .huge(bytes):
            _ = send(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\n\r\n")
            let chunk = Data(repeating: 0x20, count: 65536)
            var left = bytes
            while left > 0 { if !send(c, chunk.prefix(min(left, chunk.count))) { break }; left -= chunk.count }
        case .redirectLoop:
            _ = send(c, "HTTP/1.1 302 Found\r\nLocation: \(url.absoluteString)\r\nContent-Length: 0\r\n\r\n")
        case let .raw(data): _ = send(c, data)
        }
        // Close gracefully: stop sending, then wait (at most 2 s) for the client to close its side,
        // so that a slow reader under load never sees a reset instead of the answer's end.
        shutdown(c, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 4096)
        while recv(c, &sink, sink.count, 0) > 0 {}
        lock.lock(); connections.removeAll { $0 == c }; lock.unlock()
        close(c)
    }
}
