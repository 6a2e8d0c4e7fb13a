import Foundation

/// The text of a configuration file of `name = value` lines: `#` at the start of a line or after
/// a space starts a comment (so a URL keeps its `#fragment`), blank lines are skipped, and
/// spaces around the name and the value do not count.
public enum ConfigText {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// One setting: its line number (from 1), its name and its value (possibly empty).
    public struct Entry: Equatable, Sendable {
        public let line: Int
        public let name: String
        public let value: String
    }

    /// The settings of `text`, in order. A line that is not `name = value` throws
    /// `NAME:LINE: ...`, `name` being the file's name.
    public static func entries(_ text: String, name: String) throws -> [Entry] {
        var out: [Entry] = []
        // Lines end at any line break: LF, CR LF (one Character in Swift), CR, NEL, U+2028.
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = Substring(raw)
            if let hash = line.indices.first(where: { line[$0] == "#" && ($0 == line.startIndex || line[line.index(before: $0)].isWhitespace) }) {
                line = line[..<hash]
            }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "="), eq != trimmed.startIndex else {
                throw Problem(description: "\(name):\(i + 1): '\(trimmed)' is not a 'name = value' line")
            }
            out.append(Entry(line: i + 1, name: trimmed[..<eq].trimmingCharacters(in: .whitespaces),
                             value: trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: .whitespaces)))
        }
        return out
    }
}
