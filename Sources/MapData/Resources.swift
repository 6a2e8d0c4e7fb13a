import Foundation

/// Finds the `Resources/` folder the program ships with.
///
/// Looked up, in order: `$NIGHTMAP_RESOURCES`; beside the running executable (found through
/// `/proc/self/exe`, so a binary started through `PATH` or a symlink finds it from any working
/// directory): `Resources/` there, or `../share/nightmap/` (an install, `make install`); last the
/// checkout the program was built from (where `make run` leaves it).
public enum ResourceLocator {
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    public static func resourcesDirectory() throws -> URL {
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["NIGHTMAP_RESOURCES"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env))
        }
        let exe = executableDirectory()
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

    /// The folder of the running executable: the kernel's link for this process (symlinks
    /// resolved), else the program's first argument.
    static func executableDirectory() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
