import Foundation
import NightmapApp
import Testing

/// Issue 9: no `try!`, force unwrap or `fatalError` on any path that outside data can reach. The
/// simplest proof that holds as the code changes: none in `Sources/` at all (the fuzz targets
/// excepted), but for URLs the program spells out as literals. `precondition`s stay: they state
/// internal invariants and are tested by the hostile-input suites.
@Suite struct SourceRulesTests {
    /// One finding: file, line number, and what was found.
    struct Finding: CustomStringConvertible {
        let file: String, line: Int, what: String
        var description: String { "\(file):\(line): \(what)" }
    }

    /// The line's code, without string literals' contents or a trailing `//` comment.
    static func code(_ line: String) -> String {
        var out = "", inString = false, escaped = false
        var chars = line.makeIterator()
        var previous: Character = " "
        while let c = chars.next() {
            if inString {
                if escaped { escaped = false; if c == "(" { out.append("\\(") } } else if c == "\\" { escaped = true } else if c == "\"" { inString = false; out.append(c) }
            } else if c == "\"" {
                inString = true; out.append(c)
            } else if c == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(c)
            }
            previous = c
        }
        return out
    }

    /// The rule's findings in one file's text.
    static func findings(in text: String, file: String) -> [Finding] {
        var found: [Finding] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = code(String(raw))
            // A URL written out in the source is checked by the tests that use it.
            line = line.replacingOccurrences(of: #"URL(string: "")!"#, with: "URL")
            for banned in ["try!", "as!", "fatalError(", "unsafelyUnwrapped"] where line.contains(banned) {
                found.append(Finding(file: file, line: index + 1, what: banned))
            }
            // A postfix `!` after a name, `)`, `]` or `?`, not the start of `!=`.
            let chars = Array(line)
            for i in chars.indices.dropFirst() where chars[i] == "!" {
                let before = chars[i - 1], after = i + 1 < chars.count ? chars[i + 1] : " "
                if (before.isLetter || before.isNumber || before == "_" || before == ")" || before == "]" || before == "?") && after != "=" {
                    found.append(Finding(file: file, line: index + 1, what: "force unwrap: \(line.trimmingCharacters(in: .whitespaces))"))
                    break
                }
            }
        }
        return found
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func noForceUnwrapTryOrFatalErrorInSources() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var scanned = 0, found: [Finding] = []
        for case let url as URL in files where url.pathExtension == "swift" && !url.path.contains("/Sources/Fuzz/") {
            let text = try String(contentsOf: url, encoding: .utf8)
            found += Self.findings(in: text, file: url.path.replacingOccurrences(of: Self.sources.path + "/", with: ""))
            scanned += 1
        }
        #expect(scanned > 100, "only \(scanned) Swift files under \(Self.sources.path)")
        #expect(found.isEmpty, "\(found.count) finding(s):\n\(found.map(\.description).joined(separator: "\n"))")
    }

    /// The scanner itself: each banned form is found, and what merely looks like one is not.
    @Test func scannerFindsEachFormAndOnlyThose() {
        let bad = ["let x = y!", "let v = a.first!.b", "f(x)!.y", "z = m[k]!", "var s: URLSession!", "let d = try! load()",
                   "let p = q as! P", "fatalError(\"no\")", "let u = o?.p!.q", "let w = ptr.unsafelyUnwrapped",
                   "let v = URL(string: \"http://\\(host)\")!"]
        for line in bad {
            #expect(!Self.findings(in: line, file: "t").isEmpty, "\(line)")
        }
        let fine = ["if a != b { }", "guard !done else { return }", "let s = \"Wow!\"", "x = y // really!",
                    "let u = URL(string: \"https://example.org/a?b=c\")!", "if !(a && b) {}", "let t = \"a\\\"!\" + b"]
        for line in fine {
            #expect(Self.findings(in: line, file: "t").isEmpty, "\(line)")
        }
    }
}
