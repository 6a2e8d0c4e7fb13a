import Foundation
import MapCore
import CSQLite
import Testing
import TestSupport
@testable import MapData

/// The tile readers against files made by independent tools (`Tests/Fixtures/tiles`, see
/// make_tiles.py): mapbox-vector-tile for MVT, pmtiles for the archive; and bad input.
@Suite struct TileReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/tiles").standardizedFileURL

    static func json(_ name: String) throws -> JSON {
        try JSON.parse(contentsOf: folder.appendingPathComponent(name))
    }

    // MARK: Vector tiles

    /// Every layer, feature, property and coordinate as mapbox-vector-tile decodes them.
    @Test func basicTileMatchesMapboxVectorTile() throws {
        let tile = try VectorTile(data: Data(contentsOf: Self.folder.appendingPathComponent("basic.mvt")))
        let expected = try #require(try Self.json("basic.json")["layers"]?.objectValue)
        #expect(Set(tile.layers.map(\.name)) == Set(expected.keys))
        for layer in tile.layers {
            let e = try #require(expected[layer.name])
            #expect(e["extent"] == .number(Double(layer.extent)) && e["version"] == .number(Double(layer.version)))
            let features = try #require(e["features"]?.arrayValue)
            #expect(layer.features.count == features.count)
            for (f, ef) in zip(layer.features, features) {
                let props = try #require(ef["properties"]?.objectValue)
                #expect(Set(f.properties.keys) == Set(props.keys), "\(layer.name)")
                for (k, v) in props.entries {
                    switch (f.properties[k], v) {
                    case let (.string(a)?, .string(b)): #expect(a == b)
                    case let (.bool(a)?, .bool(b)): #expect(a == b, "\(k)")
                    case let (.number(a)?, .number(b)): #expect(abs(a - b) <= abs(b) * 1e-12, "\(k)")
                    default: Issue.record("\(layer.name).\(k): \(String(describing: f.properties[k])) against \(v.compactText)")
                    }
                }
                let geometry = try #require(ef["geometry"])
                let kind = try #require(geometry["type"]?.stringValue)
                let coordinates = try #require(geometry["coordinates"])
                // The expected coordinates, as lists of parts of points.
                func points(_ a: JSON) -> [VectorTile.Point] {
                    (a.arrayOf { $0.arrayOf(\.intValue) } ?? []).map { VectorTile.Point(x: Int32($0[0]), y: Int32($0[1])) }
                }
                let parts: [[VectorTile.Point]]
                switch kind {
                case "Point": parts = [points(.array([coordinates]))]
                case "MultiPoint", "LineString": parts = [points(coordinates)]
                case "MultiLineString", "Polygon": parts = (coordinates.arrayValue ?? []).map(points)
                case "MultiPolygon": parts = (coordinates.arrayValue ?? []).flatMap { ($0.arrayValue ?? []).map(points) }
                default: parts = []
                }
                #expect(f.geometry == parts, "\(layer.name) \(kind)")
                let type: VectorTile.GeometryType = kind.hasSuffix("Polygon") ? .polygon : kind.hasSuffix("LineString") ? .lineString : .point
                #expect(f.type == type)
            }
        }
        // Feature ids where given; none where not (mapbox-vector-tile reports 0 for those).
        #expect(tile.layer("water")?.features.map(\.id) == [7, 8])
        #expect(tile.layer("roads")?.features.map(\.id) == [nil, nil])
    }

    /// Exterior rings have positive area in tile coordinates and holes negative (y down).
    @Test func ringWinding() throws {
        let tile = try VectorTile(data: Data(contentsOf: Self.folder.appendingPathComponent("basic.mvt")))
        let lake = try #require(tile.layer("water")?.features.first)
        func area(_ r: [VectorTile.Point]) -> Int64 {
            zip(r, r.dropFirst()).reduce(0) { $0 + Int64($1.0.x) * Int64($1.1.y) - Int64($1.1.x) * Int64($1.0.y) }
        }
        #expect(lake.geometry.count == 2 && area(lake.geometry[0]) > 0 && area(lake.geometry[1]) < 0)
    }

    /// A tile with one feature of the given commands and tags, built byte by byte.
    static func tile(commands: [UInt32], tags: [UInt32] = [], type: UInt8 = 3, keys: [String] = ["k"], values: Int = 1, extent: UInt64 = 4096,
                     version: UInt64 = 2, wire: UInt8? = nil) -> Data {
        func varint(_ v: UInt64) -> [UInt8] {
            var v = v, out: [UInt8] = []
            repeat { out.append(UInt8(v & 0x7f) | (v > 0x7f ? 0x80 : 0)); v >>= 7 } while v > 0
            return out
        }
        func field(_ n: UInt8, _ bytes: [UInt8]) -> [UInt8] { [n << 3 | 2] + varint(UInt64(bytes.count)) + bytes }
        var feature: [UInt8] = []
        if !tags.isEmpty { feature += field(2, tags.flatMap { varint(UInt64($0)) }) }
        feature += [3 << 3, type]
        feature += field(4, commands.flatMap { varint(UInt64($0)) })
        var layer: [UInt8] = [15 << 3] + varint(version) + field(1, Array("l".utf8)) + field(2, feature)
        for k in keys { layer += field(3, Array(k.utf8)) }
        for _ in 0..<values { layer += field(4, field(1, Array("v".utf8))) }
        layer += [5 << 3] + varint(extent)
        if let wire { layer += [1 << 3 | wire, 0] }
        return Data(field(3, layer))
    }

    static func zz(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
    static let square: [UInt32] = [9, zz(0), zz(0), 26, zz(10), zz(0), zz(0), zz(10), zz(-10), zz(0), 15]

    @Test func aHandMadeTileDecodes() throws {
        let t = try VectorTile(data: Self.tile(commands: Self.square, tags: [0, 0]))
        let f = try #require(t.layers.first?.features.first)
        #expect(f.geometry == [[.init(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 0, y: 10), .init(x: 0, y: 0)]])
        #expect(f.properties == ["k": .string("v")])
    }

    @Test(arguments: [
        ("unknown command", tile(commands: [9, 0, 0, 3 | 8, 0, 0]), "unknown command 3"),
        ("count past the end", tile(commands: [9, 0, 0, 2 | (1000 << 3), 1, 1]), "runs past the geometry"),
        ("LineTo first", tile(commands: [2 | 8, 1, 1], type: 2), "LineTo before any MoveTo"),
        ("ring never closed", tile(commands: [9, 0, 0, 2 | 16, 2, 0, 0, 2]), "never closed"),
        ("two-point ring", tile(commands: [9, 0, 0, 2 | 8, 2, 0, 15]), "fewer than three points"),
        ("key index", tile(commands: square, tags: [5, 0]), "key index 5 past the layer's 1 keys"),
        ("value index", tile(commands: square, tags: [0, 9]), "value index 9 past the layer's 1 values"),
        ("odd tags", tile(commands: square, tags: [0]), "odd number of tags"),
        ("absurd extent", tile(commands: square, extent: 1 << 40), "extent"),
        ("zero extent", tile(commands: square, extent: 0), "extent"),
        ("version 9", tile(commands: square, version: 9), "version 9"),
        ("a group", tile(commands: square, wire: 3), "wire type 3"),
        ("ClosePath in a line", tile(commands: [9, 0, 0, 2 | 8, 2, 2, 15], type: 2), "ClosePath outside a polygon"),
    ] as [(String, Data, String)])
    func badTilesAreOneNamedError(_ name: String, _ data: Data, _ expected: String) {
        do {
            _ = try VectorTile(data: data)
            Issue.record("\(name): accepted")
        } catch {
            #expect("\(error)".contains(expected) && !"\(error)".contains("\n"), "\(name): \(error)")
            if expected != "wire type 3" && !expected.contains("extent") && !expected.contains("version") {
                #expect("\(error)".hasPrefix("layer 'l', feature 0: "), "\(name): \(error)")
            }
        }
    }

    /// Every prefix of a good tile either decodes or throws; none crashes or reads past its end.
    @Test func truncatedTilesNeverCrash() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("basic.mvt"))
        var failures = 0
        for n in 0..<data.count {
            do { _ = try VectorTile(data: data.prefix(n)) } catch { failures += 1 }
        }
        #expect(failures > data.count / 2)
    }

    // MARK: PMTiles

    @Test func tileIDsMatchPMTiles() throws {
        let fixture = try Self.json("small.json")
        let tiles = try #require(fixture["tiles"]?.arrayValue)
        for t in tiles {
            let id = try #require(TileID(z: try t.member("z", \.intValue), x: try t.member("x", \.intValue), y: try t.member("y", \.intValue)))
            #expect(t["id"] == .number(Double(id.pmtilesID)), "\(id)")
            #expect(TileID(pmtilesID: id.pmtilesID) == id)
        }
        for (key, value) in try #require(fixture["ids"]?.objectValue).entries {
            let p = key.split(separator: "/").compactMap { Int($0) }
            let id = try #require(TileID(z: p[0], x: p[1], y: p[2]))
            let n = try #require(value.stringValue.flatMap { UInt64($0) }, "\(key)")
            #expect(id.pmtilesID == n, "\(key)")
            #expect(TileID(pmtilesID: n) == id, "\(key)")
        }
        #expect(TileID(z: 2, x: 4, y: 0) == nil && TileID(z: 31, x: 0, y: 0) == nil)
        #expect(TileID(z: 3, x: 1, y: 2)?.tmsY == 5 && TileID(z: 3, x: 1, y: 2)?.parent == TileID(z: 2, x: 0, y: 1))
    }

    /// Every tile of the archive through its leaf directories, the shared run included.
    @Test func theArchiveGivesEveryTile() throws {
        let archive = try PMTiles(path: Self.folder.appendingPathComponent("small.pmtiles").path)
        #expect(archive.header.tileType == .mvt && archive.header.tileCompression == .gzip && archive.header.maxZoom == 2)
        #expect(abs(archive.header.center.lat - 60.1699) < 1e-6 && archive.header.centerZoom == 1)
        let meta = try JSON.parse(archive.metadata(), name: "metadata")
        #expect(meta["name"] == .string("small"))
        let tiles = try #require(try Self.json("small.json")["tiles"]?.arrayValue)
        for t in tiles {
            let id = try #require(TileID(z: try t.member("z", \.intValue), x: try t.member("x", \.intValue), y: try t.member("y", \.intValue)))
            let data = try #require(try archive.tile(id), "\(id)")
            let name = try VectorTile(data: data).layer("tiles")?.features.first?.properties["tile"]
            #expect(name == .string(try t.member("name", \.stringValue)), "\(id)")
        }
        // Past the archive's zooms: nothing.
        let deeper = try #require(TileID(z: 3, x: 0, y: 0))
        #expect(try archive.tile(deeper) == nil)
    }

    /// Damaged archives: one error naming the file, no crash, no endless loop.
    @Test func damagedArchivesAreOneNamedError() throws {
        let good = try Data(contentsOf: Self.folder.appendingPathComponent("small.pmtiles"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pmtiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func patched(_ at: Int, _ bytes: [UInt8]) -> Data { var d = good; d.replaceSubrange(at..<(at + bytes.count), with: bytes); return d }
        func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) } }
        let cases: [(String, Data, String)] = [
            ("magic", patched(0, Array("MBTiles".utf8)), "no 'PMTiles' magic"),
            ("version 2", patched(7, [2]), "version 2, not 3"),
            ("short", good.prefix(100), "shorter than its 127-byte header"),
            ("root outside", patched(8, u64(1 << 40)), "outside the file"),
            ("tile data outside", patched(64, u64(UInt64(good.count) * 2)), "outside the file"),
            ("zstd", patched(97, [4]), "zstd compression is not supported"),
            ("not gzip", patched(127, [0, 0, 0, 0]), "compressed data"),
        ]
        for (name, data, expected) in cases {
            let path = dir.appendingPathComponent("\(name).pmtiles").path
            try data.write(to: URL(fileURLWithPath: path))
            do {
                _ = try PMTiles(path: path)
                Issue.record("\(name): opened")
            } catch {
                #expect("\(error)".hasPrefix(path) && "\(error)".contains(expected) && !"\(error)".contains("\n"), "\(name): \(error)")
            }
        }
        #expect(throws: PMTiles.Failure.self) { try PMTiles(path: dir.path) }
        #expect(throws: PMTiles.Failure.self) { try PMTiles(path: dir.appendingPathComponent("missing.pmtiles").path) }
    }

    /// A leaf directory that points to itself ends at the depth limit.
    @Test func aLoopOfLeavesEnds() throws {
        // One leaf entry covering everything, pointing at the leaf area where the same
        // directory is stored again.
        func varint(_ v: UInt64) -> [UInt8] {
            var v = v, out: [UInt8] = []
            repeat { out.append(UInt8(v & 0x7f) | (v > 0x7f ? 0x80 : 0)); v >>= 7 } while v > 0
            return out
        }
        let directory = Data([1] + varint(0) + varint(0) + varint(5) + varint(1))     // id 0, run 0 (a leaf), length 5, offset 0
        var header = [UInt8](repeating: 0, count: 127)
        header.replaceSubrange(0..<7, with: Array("PMTiles".utf8)); header[7] = 3
        func put(_ at: Int, _ v: UInt64) { for k in 0..<8 { header[at + k] = UInt8(truncatingIfNeeded: v >> UInt64(8 * k)) } }
        put(8, 127); put(16, UInt64(directory.count))          // root
        put(40, 127); put(48, UInt64(directory.count))         // the leaves: the root again
        put(56, 127 + UInt64(directory.count)); put(64, 0)
        header[97] = 1; header[98] = 1; header[99] = 1; header[101] = 5
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString).pmtiles").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (Data(header) + directory).write(to: URL(fileURLWithPath: path))
        let archive = try PMTiles(path: path)
        do {
            _ = try archive.tile(TileID(z: 3, x: 2, y: 1) ?? TileID(z: 0, x: 0, y: 0)!)
            Issue.record("the loop was followed to an answer")
        } catch {
            #expect("\(error)".contains("nest more than 4 deep"), "\(error)")
        }
    }

    // MARK: Inflate

    @Test func inflateLimitsAndErrors() throws {
        // 64 MB of zeros, gzipped to 65 KB: stopped at the 16 MB limit.
        let bomb = try Data(contentsOf: Self.folder.appendingPathComponent("bomb.gz"))
        #expect(throws: Inflate.Failure(description: "inflates to more than 16 MB")) { try Inflate.decompress(bomb) }
        let archive = try PMTiles(path: Self.folder.appendingPathComponent("small.pmtiles").path)
        let top = try #require(TileID(z: 0, x: 0, y: 0))
        let raw = try #require(try archive.rawTile(top))
        #expect(Inflate.isGzip(raw))
        #expect(try VectorTile(data: Inflate.decompress(raw)).layers.count == 1)
        #expect(throws: Inflate.Failure(description: "inflates to more than 0 MB")) { try Inflate.decompress(raw, limit: 10) }
        #expect(throws: Inflate.Failure(description: "compressed data ends early")) { try Inflate.decompress(raw.prefix(raw.count - 9)) }
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress(Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff])) }
    }

    // MARK: MBTiles

    /// Every tile by its XYZ id (the file's rows are TMS), inflated, and the metadata.
    @Test func mbtilesGivesEveryTileByXYZ() throws {
        let file = try MBTiles(path: Self.folder.appendingPathComponent("small.mbtiles").path)
        #expect(file.metadata["format"] == "pbf" && file.metadata["name"] == "small" && file.metadata["json"]?.contains("vector_layers") == true)
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let id = try #require(TileID(z: z, x: x, y: y))
                    let data = try #require(try file.tile(id), "\(id)")
                    #expect(try VectorTile(data: data).layer("tiles")?.features.first?.properties["tile"] == .string("\(z)/\(x)/\(y)"))
                }
            }
        }
        let deeper = try #require(TileID(z: 3, x: 1, y: 1))
        #expect(try file.tile(deeper) == nil)
    }

    @Test func badMBTilesAreOneNamedError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mbtiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = dir.appendingPathComponent("page.mbtiles").path
        try "<!DOCTYPE html><html><body>404</body></html>".write(toFile: html, atomically: true, encoding: .utf8)
        let empty = dir.appendingPathComponent("empty.mbtiles").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        let cases = [(html, "not an SQLite database"), (empty, "not an SQLite database"),
                     (Self.folder.appendingPathComponent("notiles.mbtiles").path, "no 'tiles' table"),
                     (dir.appendingPathComponent("missing.mbtiles").path, "no such file"), (dir.path, "is a directory")]
        for (path, expected) in cases {
            do {
                _ = try MBTiles(path: path)
                Issue.record("\(path) opened")
            } catch {
                #expect("\(error)".hasPrefix(path) && "\(error)".contains(expected) && !"\(error)".contains("\n"), "\(error)")
            }
        }
        // Nothing was created or changed by opening (read-only).
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("missing.mbtiles").path))
    }

    /// A writer holding an exclusive lock: the read fails after the busy timeout with a named error,
    /// and works again once the lock is gone.
    @Test func aLockedFileFailsAndRecovers() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("locked-\(UUID().uuidString).mbtiles").path
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("small.mbtiles").path, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try MBTiles(path: path)
        var writer: OpaquePointer?
        #expect(sqlite3_open(path, &writer) == SQLITE_OK)
        defer { sqlite3_close(writer) }
        #expect(sqlite3_exec(writer, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
        let id = try #require(TileID(z: 1, x: 0, y: 0))
        let start = Date()
        do {
            _ = try file.tile(id)
            Issue.record("read through an exclusive lock")
        } catch {
            #expect("\(error)".hasPrefix(path) && "\(error)".contains("locked"), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(sqlite3_exec(writer, "COMMIT", nil, nil, nil) == SQLITE_OK)
        #expect(try file.tile(id) != nil)
    }
}
