import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files written whole or not at all.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`: a full disk,
    /// a file size limit or a crash never leaves a partial file, and the temporary file is removed
    /// on failure. A path that is not a regular file (`/dev/stdout`, a pipe) is written directly.
    public static func write(_ data: Data, to path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(description: "\(path): cannot write: it is a directory") }
            try writeAll(data, to: path, flags: O_WRONLY | O_TRUNC)
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        do {
            try writeAll(data, to: temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
        } catch let e as Failure {
            unlink(temporary)
            throw Failure(description: e.description.replacingOccurrences(of: temporary, with: path))
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "\(path): cannot write: \(reason)")
        }
    }

    /// Writes every byte of `data` to a file opened with `flags`, or throws naming the reason
    /// ("No space left on device", "File too large", "Permission denied").
    private static func writeAll(_ data: Data, to path: String, flags: Int32) throws {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "\(path): cannot write: \(String(cString: strerror(errno)))") }
        var problem: Int32 = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, base + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue }; problem = errno; return }
                done += n
            }
        }
        if problem == 0 && fsync(fd) != 0 && errno != EINVAL && errno != EROFS { problem = errno }
        if close(fd) != 0 && problem == 0 { problem = errno }
        if problem != 0 { throw Failure(description: "\(path): cannot write: \(String(cString: strerror(problem)))") }
    }
}
