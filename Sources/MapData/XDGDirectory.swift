import Foundation

/// The XDG base directories: a variable that is unset, empty or not an absolute path means its
/// default under `$HOME` (the Base Directory Specification).
public enum XDGDirectory {
    static func base(_ variable: String, default relative: String, _ env: [String: String]) -> URL {
        if let v = env[variable], v.hasPrefix("/") { return URL(fileURLWithPath: v) }
        return URL(fileURLWithPath: home(env)).appendingPathComponent(relative)
    }

    /// `$HOME`, else the user's home from the password database.
    static func home(_ env: [String: String]) -> String { env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() }

    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public static func config(_ env: [String: String] = ProcessInfo.processInfo.environment) -> URL { base("XDG_CONFIG_HOME", default: ".config", env) }
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public static func state(_ env: [String: String] = ProcessInfo.processInfo.environment) -> URL { base("XDG_STATE_HOME", default: ".local/state", env) }
    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    public static func cache(_ env: [String: String] = ProcessInfo.processInfo.environment) -> URL { base("XDG_CACHE_HOME", default: ".cache", env) }

    /// The pictures folder: `XDG_PICTURES_DIR` from `$XDG_CONFIG_HOME/user-dirs.dirs` (what
    /// xdg-user-dirs writes), else `~/Pictures` when it exists, else nil.
    public static func pictures(_ env: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let home = Self.home(env)
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if let text = try? String(contentsOf: config(env).appendingPathComponent("user-dirs.dirs"), encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
                var v = line.dropFirst("XDG_PICTURES_DIR=".count).trimmingCharacters(in: .whitespaces)
                if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
                v = v.replacingOccurrences(of: "$HOME", with: home)
                // "$HOME/" alone means the feature is off (the specification's rule).
                if v.hasPrefix("/"), v != home, v != home + "/", fm.fileExists(atPath: v, isDirectory: &isDir), isDir.boolValue {
                    return URL(fileURLWithPath: v)
                }
            }
        }
        let fallback = URL(fileURLWithPath: home).appendingPathComponent("Pictures")
        if fm.fileExists(atPath: fallback.path, isDirectory: &isDir), isDir.boolValue { return fallback }
        return nil
    }
}
