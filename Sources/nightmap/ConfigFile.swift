import Foundation
import MapData

/// `$XDG_CONFIG_HOME/nightmap/nightmap.conf` (default `~/.config`): any long option of `view` as
/// a `name = value` line, `#` starting a comment; a flag takes `true` or `false`. The lines become
/// arguments that go before the command line's, so the command line overrides them.
enum ConfigFile {
    struct Problem: Error, CustomStringConvertible { let description: String }

    /// Where the file is looked for.
    static func path(environment env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGDirectory.config(env).appendingPathComponent("nightmap/nightmap.conf").path
    }

    /// The long options of `view` a line may name, and whether each is a flag.
    static let viewOptions: [String: Bool] = [
        "size": false, "style": false, "center": false, "zoom": false, "scene": false, "route": false, "radar": false,
        "radar-bounds": false, "radar-placement": false, "radar-url": false, "radar-step": false,
        "radar-count": false, "radar-dwell": false, "radar-provider": false, "rainviewer-url": false, "clouds-url": false, "clouds-gap-url": false, "light": false, "iss": false,
        "iss-url": false, "tle": false, "tle-url": false, "observer": false, "alerts-url": false, "contact": false, "time": false,
        "elapsed": false, "verbose": true, "no-restore": true,
        "pitch": false, "max-pitch": false, "projection": false,
        "buildings": false,
    ]

    /// The file's arguments; none when it does not exist. A bad line, or a file that exists but
    /// cannot be read, throws `nightmap.conf:LINE: ...`.
    static func arguments(path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data: Data
        do { data = try DataFile.read(path, limit: 1 << 20) } catch { throw Problem(description: error.description) }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(path): not UTF-8 text") }
        return try arguments(text: text, name: URL(fileURLWithPath: path).lastPathComponent)
    }

    static func arguments(text: String, name: String = "nightmap.conf") throws -> [String] {
        var args: [String] = []
        let entries: [ConfigText.Entry]
        do { entries = try ConfigText.entries(text, name: name) } catch let e as ConfigText.Problem { throw Problem(description: e.description) }
        for entry in entries {
            func problem(_ s: String) -> Problem { Problem(description: "\(name):\(entry.line): \(s)") }
            let bare = entry.name.hasPrefix("--") ? String(entry.name.dropFirst(2)) : entry.name
            guard let isFlag = viewOptions[bare] else {
                throw problem("unknown option '\(entry.name)' (known: \(viewOptions.keys.sorted().joined(separator: ", ")))")
            }
            if isFlag {
                switch entry.value.lowercased() {
                case "true", "yes", "on", "1": args.append("--\(bare)")
                case "false", "no", "off", "0": continue
                default: throw problem("\(bare): '\(entry.value)' is not true or false")
                }
            } else {
                guard !entry.value.isEmpty else { throw problem("\(bare) needs a value") }
                // Checked alone, so the error names this line.
                do { _ = try Options.parse(["view", "--\(bare)=\(entry.value)"]) } catch { throw problem("\(error)") }
                args.append("--\(bare)=\(entry.value)")
            }
        }
        return args
    }
}
