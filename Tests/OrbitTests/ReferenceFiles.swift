import Foundation
import Testing

/// The SGP4 reference data in the repository (`Tests/Fixtures/sgp4`, see its README), found from
/// this file's path: Tests/OrbitTests/ -> Tests/Fixtures/sgp4.
enum ReferenceFiles {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String {
            "reference file missing or unreadable: \(path) (\(reason))"
        }
    }

    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/OrbitTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/sgp4")

    /// The text of a reference file; throws (so the test fails, never passes silently) when it is
    /// not there.
    static func text(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw Missing(path: url.path, reason: "\(error.localizedDescription)")
        }
    }
}

@Suite struct ReferenceFilesTests {
    @Test func aMissingFileFailsWithItsPath() throws {
        #expect(FileManager.default.fileExists(atPath: ReferenceFiles.directory.path),
                "Tests/Fixtures/sgp4 not found at \(ReferenceFiles.directory.path)")
        do {
            _ = try ReferenceFiles.text("no-such-file.txt")
            Issue.record("reading a missing reference file should throw")
        } catch {
            #expect("\(error)".contains("no-such-file.txt") && "\(error)".contains("missing"))
        }
    }
}
