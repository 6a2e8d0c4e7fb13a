import MapCore
import CSQLite
import Foundation

/// An MBTiles 1.3 file read through SQLite, read-only: its `metadata` table, and tiles by
/// zoom, column and TMS row (`tiles(zoom_level, tile_column, tile_row, tile_data)`, a table or
/// a view). A file that is not SQLite, lacks the tables or stays locked gives one error naming it.
public final class MBTiles: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public let path: String
    /// The `metadata` table's rows (name, value).
    public let metadata: [String: String]
    private let db: OpaquePointer
    private let select: OpaquePointer
    private let lock = NSLock()

    /// How long a read waits for a writer's lock before it fails.
    public static let busyMilliseconds: Int32 = 250

    public init(path: String) throws {
        self.path = path
        func fail(_ s: String) -> Failure { Failure(description: "\(path): \(s)") }
        // SQLite would create or accept an empty file: check the header first.
        let head: Data
        do { head = try DataFile.readPrefix(path, count: 16) } catch { throw Failure(description: error.description) }
        guard head.count == 16, head.elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw fail("not an SQLite database (so not MBTiles)")
        }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw fail(reason)
        }
        sqlite3_busy_timeout(handle, Self.busyMilliseconds)
        do {
            let tables = try Self.strings(handle, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            for t in ["metadata", "tiles"] where !tables.contains(t) {
                throw Failure(description: "no '\(t)' table (not MBTiles)")
            }
            var meta: [String: String] = [:]
            for row in try Self.rows(handle, "SELECT name, value FROM metadata", columns: 2) { meta[row[0]] = row[1] }
            metadata = meta
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                     -1, &statement, nil) == SQLITE_OK, let statement else {
                throw Failure(description: "the tiles table cannot be read (\(String(cString: sqlite3_errmsg(handle))))")
            }
            select = statement
        } catch let f as Failure {
            sqlite3_close(handle)
            throw fail(f.description)
        }
        db = handle
    }

    deinit {
        sqlite3_finalize(select)
        sqlite3_close(db)
    }

    /// The tile's bytes as stored (vector tiles are usually gzipped), or nil when there is none.
    public func rawTile(_ tile: TileID) throws -> Data? {
        lock.lock(); defer { lock.unlock() }
        sqlite3_reset(select)
        sqlite3_bind_int(select, 1, Int32(tile.z))
        sqlite3_bind_int(select, 2, Int32(tile.x))
        sqlite3_bind_int(select, 3, Int32(tile.tmsY))
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            let n = Int(sqlite3_column_bytes(select, 0))
            guard n > 0, let bytes = sqlite3_column_blob(select, 0) else { return nil }
            guard n <= 64 << 20 else { throw Failure(description: "\(path): tile \(tile) has \(n) bytes") }
            return Data(bytes: bytes, count: n)
        case SQLITE_DONE:
            return nil
        default:
            throw Failure(description: "\(path): tile \(tile): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// The tile's bytes, inflated when they are gzipped (at most 16 MB).
    public func tile(_ tile: TileID) throws -> Data? {
        guard let raw = try rawTile(tile) else { return nil }
        guard Inflate.isGzip(raw) || (raw.count > 1 && raw[raw.startIndex] == 0x78) else { return raw }
        do { return try Inflate.decompress(raw) } catch { throw Failure(description: "\(path): tile \(tile): \(error)") }
    }

    private static func strings(_ db: OpaquePointer, _ sql: String) throws -> [String] {
        try rows(db, sql, columns: 1).map { $0[0] }
    }

    private static func rows(_ db: OpaquePointer, _ sql: String, columns: Int32) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var out: [[String]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return out }
            guard rc == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
            out.append((0..<columns).map { c in sqlite3_column_text(statement, c).map { String(cString: $0) } ?? "" })
            guard out.count <= 100_000 else { throw Failure(description: "more than 100,000 metadata rows") }
        }
    }
}
