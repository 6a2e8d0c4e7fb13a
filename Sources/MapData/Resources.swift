import Foundation

/// Finds the `Resources/` folder the program ships with.
///
/// Looked up, in order: `$NIGHTMAP_RESOURCES`; `Resources/` beside the executable or in
/// `../share/nightmap/` (an install); the checkout the program was built from (where
/// `make run` leaves it).
public enum ResourceLocator {
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    public static func resourcesDirectory() throws -> URL {
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["NIGHTMAP_RESOURCES"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env))
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(exe.appendingPathComponent("Resources"))
        candidates.append(exe.appendingPathComponent("../share/nightmap").standardizedFileURL)
        // Sources/MapData/Resources.swift -> the checkout's Resources/.
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources").standardizedFileURL)
        for c in candidates where FileManager.default.fileExists(atPath: c.appendingPathComponent("basemap").path) {
            return c
        }
        throw NotFound(description: "cannot find nightmap's Resources folder (looked in \(candidates.map(\.path).joined(separator: ", "))); set NIGHTMAP_RESOURCES")
    }
}
