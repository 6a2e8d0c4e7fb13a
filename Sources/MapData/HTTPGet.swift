import CCurl
import Foundation

/// One HTTP(S) GET through libcurl on the calling thread, bounded in time, size and redirects,
/// with every failure in one line of plain words.
///
/// (Not URLSession: in swift-corelibs-foundation a task cancelled from outside its queue while
/// its transfer completes on that queue reaches a `fatalError` ("Trying to access a behaviour
/// for a task that in not in the registry"), and stopping an oversized or overdue transfer needs
/// exactly such a cancel. Here the transfer stops from inside its own callbacks, on one thread.)
public enum HTTPGet {
    public struct Response: Sendable {
        /// The final answer's status code (after redirects).
        public var status: Int
        public var body: Data
        /// The final answer's headers, names in lower case (the last of repeated ones).
        public var headers: [String: String] = [:]
    }

    /// Why a request failed, without the URL (callers name it).
    public struct Failure: Error, Sendable {
        public let reason: String
        /// The status of the last answer the server sent (a 403, a redirect not followed), or
        /// nil when none came (no connection, no answer in time).
        public let status: Int?
        public init(reason: String, status: Int? = nil) { self.reason = reason; self.status = status }
        /// The reason of a transfer its caller cancelled (`run`'s `cancelled`).
        public static let cancelledReason = "cancelled (no longer wanted)"
        public var wasCancelled: Bool { reason == Self.cancelledReason }
    }

    /// What requests call themselves: `nightmap/0.1.0`.
    public static let userAgent = "nightmap/\(NightmapVersion.text)"

    /// The User-Agent with a contact (an email address or a URL) as services such as the NWS
    /// ask for: `nightmap/0.1.0 (me@example.org)`; the plain one without.
    public static func userAgent(contact: String?) -> String {
        guard let c = contact?.trimmingCharacters(in: .whitespaces), !c.isEmpty else { return userAgent }
        return "\(userAgent) (\(c))"
    }

    /// Fetches `url`: at most `timeout` seconds in all, `maxBytes` of body (an answer announcing
    /// more is refused at its headers), `maxRedirects` redirects, HTTP and HTTPS only.
    /// A status other than 2xx ends the request at its headers, as `HTTP 503 (Service Unavailable)`.
    /// `headers`: more request headers (`If-None-Match: "x"`); with `notModified`, a 304 answer
    /// is a response (its status 304, no body), for a conditional request; `userAgent` replaces the
    /// plain `nightmap/VERSION` (one with a contact). `cancelled`, asked
    /// while the transfer runs (often while data flows, about once a second while it stalls),
    /// stops it when it returns true: the failure is then `Failure.cancelledReason`.
    public static func run(_ url: URL, timeout: Double, maxBytes: Int, maxRedirects: Int, accept: String,
                           headers extra: [String] = [], notModified: Bool = false, userAgent: String = HTTPGet.userAgent,
                           cancelled: (@Sendable () -> Bool)? = nil) -> Result<Response, Failure> {
        _ = globalInit
        guard let curl = curl_easy_init() else { return .failure(Failure(reason: "cannot start a request (libcurl)")) }
        defer { curl_easy_cleanup(curl) }
        let state = Transfer(maxBytes: maxBytes)
        state.notModified = notModified
        state.cancelled = cancelled
        let user = Unmanaged.passUnretained(state).toOpaque()
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Accept: \(accept)")
        headers = curl_slist_append(headers, "User-Agent: \(userAgent.contains("\r") || userAgent.contains("\n") ? HTTPGet.userAgent : userAgent)")
        for h in extra where !h.contains("\r") && !h.contains("\n") { headers = curl_slist_append(headers, h) }
        defer { curl_slist_free_all(headers) }
        let milliseconds = Int(max(1, min(timeout, 86_400) * 1000))
        let code: CURLcode = errorText.withUnsafeMutableBufferPointer { buffer in
            _ = nm_curl_set_string(curl, CURLOPT_URL, url.absoluteString)
            _ = nm_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = nm_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            _ = nm_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
            _ = nm_curl_set_long(curl, CURLOPT_MAXREDIRS, maxRedirects)
            _ = nm_curl_set_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
            _ = nm_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            _ = nm_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)           // threads: no SIGALRM for timeouts
            _ = nm_curl_set_pointer(curl, CURLOPT_HTTPHEADER, headers)
            _ = nm_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            _ = nm_curl_set_callback(curl, CURLOPT_HEADERFUNCTION, headerCallback)
            _ = nm_curl_set_pointer(curl, CURLOPT_HEADERDATA, user)
            _ = nm_curl_set_callback(curl, CURLOPT_WRITEFUNCTION, bodyCallback)
            _ = nm_curl_set_pointer(curl, CURLOPT_WRITEDATA, user)
            if cancelled != nil {
                _ = nm_curl_set_progress(curl, progressCallback)
                _ = nm_curl_set_pointer(curl, CURLOPT_XFERINFODATA, user)
                _ = nm_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
            }
            return curl_easy_perform(curl)
        }
        return withExtendedLifetime(state) {
            if let stopped = state.stopped { return .failure(Failure(reason: stopped, status: state.status)) }
            if code == CURLE_OK {
                var status = 0
                _ = nm_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
                return .success(Response(status: status, body: state.body, headers: state.headers))
            }
            let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(Failure(reason: describe(code, detail: detail, transfer: state, timeout: timeout, maxRedirects: maxRedirects),
                                    status: state.status))
        }
    }

    /// libcurl's result in words.
    static func describe(_ code: CURLcode, detail: String, transfer: Transfer, timeout: Double, maxRedirects: Int) -> String {
        let limit = seconds(timeout)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return transfer.status == nil ? "no answer within \(limit)"
                : "answer not complete within \(limit) (\(size(transfer.body.count)) received)"
        case CURLE_COULDNT_CONNECT: return "connection refused (nothing listening)"
        case CURLE_COULDNT_RESOLVE_HOST: return "unknown host"
        case CURLE_GOT_NOTHING: return "the server closed the connection without answering"
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR: return "connection lost (reset or closed by the server)"
        case CURLE_PARTIAL_FILE: return "connection closed before the answer was complete (\(firstLine(detail)))"
        case CURLE_TOO_MANY_REDIRECTS:
            return maxRedirects == 0 ? "HTTP \(transfer.status ?? 300) (a redirect, not followed)" : "too many redirects (more than \(maxRedirects))"
        case CURLE_UNSUPPORTED_PROTOCOL: return "not an http or https address (\(firstLine(detail)))"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
            return "secure connection failed (\(firstLine(detail)))"
        default:
            let words = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return firstLine(words)
        }
    }

    /// What one transfer has seen, filled by libcurl's callbacks (on the calling thread).
    final class Transfer {
        let maxBytes: Int
        var status: Int?
        var contentLength: Int?
        var location = false
        var body = Data()
        var headers: [String: String] = [:]
        /// A 304 answer ends the transfer as a response.
        var notModified = false
        /// Set when a callback stopped the transfer, and why.
        var stopped: String?
        /// Asked by the progress callback: true stops the transfer.
        var cancelled: (@Sendable () -> Bool)?
        init(maxBytes: Int) { self.maxBytes = maxBytes }

        /// One header line (libcurl gives them one at a time, for every response of a redirect
        /// chain); returns false to stop the transfer.
        func header(_ line: String) -> Bool {
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ")
                status = parts.count > 1 ? Int(parts[1]) : nil
                contentLength = nil; location = false; headers = [:]
                return true
            }
            let lower = line.lowercased()
            if let f = HTTPGet.field(line) { headers[f.name] = f.value }
            if lower.hasPrefix("content-length:") {
                contentLength = Int(lower.dropFirst("content-length:".count).trimmingCharacters(in: .whitespacesAndNewlines))
            } else if lower.hasPrefix("location:") {
                location = true
            } else if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let status {
                // The end of one response's headers.
                if status < 200 { return true }                                         // 100 Continue and the like
                if status == 304 && notModified { return true }
                if (300..<400).contains(status) && location { return true }          // followed by libcurl
                if !(200..<300).contains(status) {
                    stopped = "HTTP \(status)" + (HTTPGet.phrases[status].map { " (\($0))" } ?? "")
                    return false
                }
                if let n = contentLength, n > maxBytes {
                    stopped = "answer larger than the \(size(maxBytes)) limit (\(size(n)) announced)"
                    return false
                }
            }
            return true
        }

        /// A piece of the body; returns false to stop the transfer.
        func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard body.count + bytes.count <= maxBytes else {
                stopped = "answer larger than the \(size(maxBytes)) limit"
                return false
            }
            body.append(contentsOf: bytes)
            return true
        }
    }

    /// A header line's name (lower case) and value, both trimmed; nil without a colon.
    public static func field(_ line: some StringProtocol) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (line[..<colon].lowercased().trimmingCharacters(in: .whitespaces),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The reason phrases of the statuses a feed is likely to answer with.
    static let phrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

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

    static func firstLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).first.map(String.init) ?? "request failed"
    }

    /// libcurl's process-wide set-up, once, before the first request.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
}

/// libcurl's header callback: one line, handed to the transfer; a count other than the line's
/// length stops the transfer.
private let headerCallback: nm_curl_data_callback = { data, size, count, user in
    guard let data, let user else { return 0 }
    let n = size * count
    let transfer = Unmanaged<HTTPGet.Transfer>.fromOpaque(user).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
    return transfer.header(line) ? n : 0
}

/// libcurl's progress callback: non-zero (the transfer stops) once the caller has cancelled it.
private let progressCallback: nm_curl_progress_callback = { user, _, _, _, _ in
    guard let user else { return 0 }
    let transfer = Unmanaged<HTTPGet.Transfer>.fromOpaque(user).takeUnretainedValue()
    guard let cancelled = transfer.cancelled, cancelled() else { return 0 }
    transfer.stopped = HTTPGet.Failure.cancelledReason
    return 1
}

/// libcurl's body callback: as above, for a piece of the body.
private let bodyCallback: nm_curl_data_callback = { data, size, count, user in
    guard let data, let user else { return 0 }
    let n = size * count
    let transfer = Unmanaged<HTTPGet.Transfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.append(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}
