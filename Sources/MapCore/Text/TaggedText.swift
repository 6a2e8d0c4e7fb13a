/// A label's text as shaping walks it: code points, each tagged with the index of the section
/// it came from (MapLibre's `TaggedString`), so that lines cut, reordered or trimmed keep each
/// character's font, scale and colour.
struct TaggedText {
    var codePoints: [UInt32]
    /// One entry per code point: its index in the label's sections.
    var sections: [Int]

    init(codePoints: [UInt32], sections: [Int]) {
        self.codePoints = codePoints; self.sections = sections
    }

    /// The sections' texts one after another, each code point tagged with its section;
    /// `transform` rewrites each section's code points on the way (Arabic joining), as MapLibre
    /// transforms each section on its own.
    init(_ sections: [TextSection], transform: ([UInt32]) -> [UInt32] = { $0 }) {
        codePoints = []; self.sections = []
        for (index, section) in sections.enumerated() {
            let text = transform(section.text.unicodeScalars.map(\.value))
            codePoints += text
            self.sections += repeatElement(index, count: text.count)
        }
    }

    var isEmpty: Bool { codePoints.isEmpty }

    /// The text cut before each of `breaks` (ascending indices; the last one may be the end).
    func lines(breakingAt breaks: [Int]) -> [TaggedText] {
        var lines: [TaggedText] = []
        var start = 0
        for end in breaks {
            lines.append(TaggedText(codePoints: Array(codePoints[start..<end]), sections: Array(sections[start..<end])))
            start = end
        }
        if start < codePoints.count {
            lines.append(TaggedText(codePoints: Array(codePoints[start...]), sections: Array(sections[start...])))
        }
        return lines
    }

    /// Without whitespace at either end (a line's leading and trailing spaces take no room).
    mutating func trim() {
        let start = codePoints.firstIndex { !ScriptProperties.isWhitespace($0) } ?? codePoints.count
        let end = (codePoints.lastIndex { !ScriptProperties.isWhitespace($0) } ?? start - 1) + 1
        guard start > 0 || end < codePoints.count else { return }
        codePoints = Array(codePoints[start..<end]); sections = Array(sections[start..<end])
    }
}
