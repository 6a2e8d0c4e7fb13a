extension TLE {
    /// Every element set in a text: two-line sets, each optionally preceded by a name line
    /// (a "0 " prefix on the name, as in three-line files, is dropped). Blank lines and lines
    /// starting with '#' are skipped; lines may end in LF or CRLF.
    ///
    /// Errors carry the 1-based line of the text where the problem is (`TLEError.textLine`).
    public static func parseAll<S: StringProtocol>(_ text: S, verifyChecksums: Bool = true) throws(TLEError) -> [TLE] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
        var sets: [TLE] = []
        var name: (text: String, line: Int)? = nil
        var i = 0

        func isDataLine(_ line: S.SubSequence, _ number: Character) -> Bool {
            var it = line.makeIterator()
            return it.next() == number && it.next() == " "
        }

        while i < lines.count {
            let line = lines[i]
            let textLine = i + 1
            let trimmed = line.trimmingBlanks()
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                i += 1
                continue
            }
            if isDataLine(line, "1") {
                var j = i + 1
                while j < lines.count, lines[j].trimmingBlanks().isEmpty { j += 1 }
                guard j < lines.count, isDataLine(lines[j], "2") else {
                    throw TLEError(kind: .incompleteSet, line: 1,
                                   message: "is not followed by a line 2", textLine: textLine)
                }
                do {
                    sets.append(try TLE(line1: line, line2: lines[j], name: name?.text,
                                        verifyChecksums: verifyChecksums))
                } catch {
                    throw error.at(textLine: error.line == 2 ? j + 1 : textLine)
                }
                name = nil
                i = j + 1
            } else if isDataLine(line, "2") {
                throw TLEError(kind: .incompleteSet, line: 2,
                               message: "has no line 1 before it", textLine: textLine)
            } else {
                if let name {
                    throw TLEError(kind: .incompleteSet, line: nil,
                                   message: "name line '\(name.text)' is not followed by a line 1",
                                   textLine: name.line)
                }
                var text = trimmed
                if text.hasPrefix("0 ") { text = String(text.dropFirst(2)).trimmingBlanks() }
                name = (text, textLine)
                i += 1
            }
        }
        if let name {
            throw TLEError(kind: .incompleteSet, line: nil,
                           message: "name line '\(name.text)' is not followed by a line 1",
                           textLine: name.line)
        }
        return sets
    }
}
