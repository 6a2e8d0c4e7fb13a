import Foundation

/// Reading a whole data file with a size limit, and saying exactly why it cannot be read: no such
/// file, a directory, not a regular file (a device or a pipe would never end), no permission,
/// over the limit, or a read error. Every message starts with the path.
public enum DataFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The bytes of the regular file at `path` (symbolic links followed), at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let info = try regularFile(path)
        guard Int(info.st_size) <= limit else {
            throw Failure(description: "\(path): \(info.st_size) bytes is over the \(limit) bytes such a file may have")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "\(path): \(reason(errno))") }
        defer { close(fd) }
        // Read until the end, at most limit + 1 bytes (the file may grow while it is read).
        var data = Data(count: min(limit + 1, max(Int(info.st_size), 0) + 1))
        var count = 0
        var problem: Int32 = 0
        while problem == 0 {
            if count == data.count {
                guard data.count <= limit else { break }
                data.count = min(limit + 1, data.count * 2)
            }
            let n = data.withUnsafeMutableBytes { b in b.baseAddress.map { Glibc.read(fd, $0 + count, b.count - count) } ?? 0 }
            if n < 0 { if errno != EINTR { problem = errno }; continue }
            if n == 0 { break }
            count += n
        }
        if problem != 0 { throw Failure(description: "\(path): cannot read: \(String(cString: strerror(problem)))") }
        guard count <= limit else { throw Failure(description: "\(path): grew past the \(limit) bytes such a file may have while it was read") }
        data.count = count
        return data
    }

    /// The first `count` bytes of the regular file at `path` (fewer when it is shorter), with the
    /// same errors as `read`.
    public static func readPrefix(_ path: String, count: Int) throws(Failure) -> Data {
        _ = try regularFile(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "\(path): \(reason(errno))") }
        defer { close(fd) }
        var data = Data(count: count)
        var done = 0
        while done < count {
            let n = data.withUnsafeMutableBytes { b in b.baseAddress.map { Glibc.read(fd, $0 + done, count - done) } ?? 0 }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure(description: "\(path): cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            done += n
        }
        data.count = done
        return data
    }

    /// The file's status, when `path` is a regular file (symbolic links followed); else why not.
    static func regularFile(_ path: String) throws(Failure) -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "\(path): \(reason(errno))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return info
        case S_IFDIR: throw Failure(description: "\(path): is a directory, not a file")
        default: throw Failure(description: "\(path): not a regular file")
        }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case ENOTDIR: return "a part of the path is not a directory"
        default: return "cannot read: \(String(cString: strerror(code)))"
        }
    }
}
