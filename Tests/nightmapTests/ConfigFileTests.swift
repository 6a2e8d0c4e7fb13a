import Foundation
import NightmapApp
import Testing
@testable import nightmap

/// nightmap.conf: `name = value` lines of view's long options; the command line overrides them; a
/// bad line is named by its number.
@Suite struct ConfigFileTests {
    @Test func linesBecomeOptionsAndTheCommandLineWins() throws {
        let text = """
        # my wall display
        light = day
          zoom=5.5   # a comment after the value
        center = 42.2,-81.2
        verbose = true
        no-restore = false
        iss-url = https://example.org/iss#fragment

        """
        let args = try ConfigFile.arguments(text: text)
        #expect(args == ["--light=day", "--zoom=5.5", "--center=42.2,-81.2", "--verbose", "--iss-url=https://example.org/iss#fragment"])
        let configured = try Options.parse(["view"] + args)
        #expect(configured.light == .day && configured.zoom == 5.5 && configured.verbose && !configured.noRestore)
        let o = try Options.parse(["--zoom", "4.2", "--light=dusk"], base: configured)
        #expect(o.zoom == 4.2 && o.light == .dusk && o.center?.lat == 42.2 && o.verbose)
    }

    @Test(arguments: [
        ("light = day\nzoom = 99\n", "nightmap.conf:2: option --zoom: 99.0 is outside 0...24"),
        ("\n\nfullscreen\n", "nightmap.conf:3: 'fullscreen' is not a 'name = value' line"),
        ("output = x.png\n", "nightmap.conf:1: unknown option 'output'"),
        ("verbose = sometimes\n", "nightmap.conf:1: verbose: 'sometimes' is not true or false"),
        ("scene =\n", "nightmap.conf:1: scene needs a value"),
        ("light = noon\n", "nightmap.conf:1: option --light: 'noon' is not one of"),
    ])
    func aBadLineIsNamedByItsNumber(text: String, message: String) {
        #expect {
            _ = try ConfigFile.arguments(text: text)
        } throws: { "\($0)".hasPrefix(message) }
    }

    @Test func aMissingFileIsNoConfigurationAndAnUnreadableOneIsNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ConfigFile.arguments(path: dir.appendingPathComponent("nightmap.conf").path) == [])
        // A folder where the file should be.
        let folder = dir.appendingPathComponent("nightmap.conf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect { _ = try ConfigFile.arguments(path: folder.path) } throws: { "\($0)".contains("nightmap.conf: is a directory") }
    }

    @Test func itLivesInTheXDGConfigFolder() {
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/nightmap/nightmap.conf")
        #expect(ConfigFile.path(environment: ["HOME": "/h"]) == "/h/.config/nightmap/nightmap.conf")
        // Relative values are ignored, as the specification says.
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/nightmap/nightmap.conf")
    }
}
