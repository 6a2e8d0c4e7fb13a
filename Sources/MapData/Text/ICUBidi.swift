import CICU
import MapCore

/// Arabic joining and bidirectional reordering as MapLibre's RTL plugin does them
/// (mapbox-gl-rtl-text v0.3.0, which MapLibre's render tests load), over the system's ICU
/// instead of the plugin's WebAssembly build of it.
///
/// - `shapeArabic` is the plugin's `applyArabicShaping`: `u_shapeArabic` with letter shaping in
///   logical order and ICU's default length handling, so lam + alef become one ligature and the
///   text can get shorter.
/// - `lines` is `processBidirectionalText` when every character has the same section (MapLibre
///   calls that one for single-section labels): each line through `ubidi_writeReordered`.
///   Otherwise it is `processStyledBidirectionalText`: each line's visual runs in turn, right-to-left
///   runs reversed with `ubidi_writeReverse` one section at a time, left-to-right runs copied.
///   Both mirror characters (parentheses) and drop bidi controls in the reversed text; like the
///   plugin, the styled form keeps controls that sit in left-to-right runs.
///
/// Text is given in code points and ICU works in UTF-16: breaks are moved to code units and
/// characters outside the BMP stay whole (a surrogate pair is reversed as one character). Where
/// ICU fails, the input is not valid Unicode or it is longer than `maxLength`, the text comes back
/// as it was: unshaped, or cut at the breaks in logical order (MapLibre without the plugin).
public struct ICUBidi: BidiShaper {
    /// Longest text, in code points, given to ICU; labels are a few dozen characters, and a
    /// longer text (a broken or hostile tile) is not worth ICU's time.
    public static let maxLength = 10_000

    public init() {}

    public func shapeArabic(_ text: [UInt32]) -> [UInt32] {
        guard !text.isEmpty, text.count <= Self.maxLength, let source = UTF16Text(text) else { return text }
        let shaped: [UInt16]? = source.units.withUnsafeBufferPointer { units in
            // First the length (lam + alef make one ligature), then the shaping.
            let length = nm_shape_arabic(units.baseAddress, Int32(units.count), nil, 0)
            guard length > 0 else { return nil }
            var output = [UInt16](repeating: 0, count: Int(length))
            let written = output.withUnsafeMutableBufferPointer {
                nm_shape_arabic(units.baseAddress, Int32(units.count), $0.baseAddress, length)
            }
            return written == length ? output : nil
        }
        return shaped.flatMap { Self.codePoints($0)?.text } ?? text
    }

    public func lines(_ text: [UInt32], sections: [Int], breaks: [Int]) -> [(text: [UInt32], sections: [Int])] {
        guard !text.isEmpty else { return [] }
        // A caller's slip (a sections array of another length) is not worth a crash: one section.
        let sections = sections.count == text.count ? sections : Array(repeating: 0, count: text.count)
        // Breaks the line breaker would not make (at 0, at or past the end, out of order) are dropped.
        var starts: [Int] = []
        for b in breaks where b > (starts.last ?? 0) && b < text.count { starts.append(b) }
        guard text.count <= Self.maxLength, let source = UTF16Text(text),
              let visual = Self.reorder(source, sections: sections, lineStarts: starts)
        else { return Self.logicalLines(text, sections: sections, lineStarts: starts) }
        return visual
    }

    /// The lines of `source` in visual order, or nil where ICU fails.
    private static func reorder(_ source: UTF16Text, sections: [Int], lineStarts: [Int]) -> [(text: [UInt32], sections: [Int])]? {
        guard let paragraphs = nm_bidi_open() else { return nil }
        defer { nm_bidi_close(paragraphs) }
        guard let line = nm_bidi_open() else { return nil }
        defer { nm_bidi_close(line) }
        let styled = sections.contains { $0 != sections[0] }
        // ICU keeps a pointer to the text for as long as `paragraphs` and `line` use it.
        return source.units.withUnsafeBufferPointer { units -> [(text: [UInt32], sections: [Int])]? in
            let count = nm_bidi_set_paragraphs(paragraphs, units.baseAddress, Int32(units.count))
            guard count > 0 else { return nil }

            // A line also ends at every paragraph end (after a newline), as the plugin's
            // mergeParagraphLineBreakPoints has it; the breaks are in code points, ICU's in units.
            var ends: [Int32] = []
            for index in 0..<count {
                let limit = nm_bidi_paragraph_limit(paragraphs, index)
                guard limit > (ends.last ?? 0) else { return nil }
                for start in lineStarts {
                    let unit = Int32(source.starts[start])
                    if unit < limit && unit > (ends.last ?? 0) { ends.append(unit) }
                }
                ends.append(limit)
            }

            var result: [(text: [UInt32], sections: [Int])] = []
            var start: Int32 = 0
            for end in ends {
                let runCount = nm_bidi_set_line(paragraphs, start, end, line)
                guard runCount >= 0 else { return nil }
                var out: [UInt16] = [], outSections: [Int] = []
                if styled {
                    guard appendRuns(of: line, count: runCount, from: Int(start), in: units, source: source,
                                     sections: sections, into: &out, sections: &outSections) else { return nil }
                } else {
                    var reordered = [UInt16](repeating: 0, count: Int(end - start))
                    let written = reordered.withUnsafeMutableBufferPointer {
                        nm_bidi_write_line(line, $0.baseAddress, Int32($0.count))
                    }
                    guard written >= 0 else { return nil }
                    out = Array(reordered[..<Int(written)])
                    outSections = Array(repeating: sections[0], count: out.count)
                }
                guard let decoded = codePoints(out) else { return nil }
                result.append((decoded.text, decoded.firstUnits.map { outSections[$0] }))
                start = end
            }
            return result
        }
    }

    /// Appends the `count` visual runs of `line` (which starts at code unit `lineStart` of
    /// `units`) to `out`, each code unit with the section of the character it came from; false
    /// where ICU fails. A right-to-left run is reversed one section at a time, from its logical
    /// end, so each character keeps its own section. (The plugin's loop, and MapLibre Native's
    /// copy of it, gives the first character of such a run its neighbour's section when the two
    /// differ.)
    private static func appendRuns(of line: OpaquePointer, count: Int32, from lineStart: Int, in units: UnsafeBufferPointer<UInt16>,
                                   source: UTF16Text, sections: [Int],
                                   into out: inout [UInt16], sections outSections: inout [Int]) -> Bool {
        guard let base = units.baseAddress else { return false }
        func section(ofUnit unit: Int) -> Int { sections[source.owners[unit]] }
        for run in 0..<count {
            var runStart: Int32 = 0, runLength: Int32 = 0
            let rightToLeft = nm_bidi_visual_run(line, run, &runStart, &runLength) != 0
            let low = lineStart + Int(runStart), high = low + Int(runLength)
            guard rightToLeft else {
                out += units[low..<high]
                outSections += (low..<high).map { section(ofUnit: $0) }
                continue
            }
            var chunkEnd = high
            while chunkEnd > low {
                let chunkSection = section(ofUnit: chunkEnd - 1)
                var chunkStart = chunkEnd - 1
                while chunkStart > low && section(ofUnit: chunkStart - 1) == chunkSection { chunkStart -= 1 }
                var reversed = [UInt16](repeating: 0, count: chunkEnd - chunkStart)
                let written = reversed.withUnsafeMutableBufferPointer {
                    nm_bidi_write_reverse(base + chunkStart, Int32($0.count), $0.baseAddress, Int32($0.count))
                }
                guard written >= 0 else { return false }
                out += reversed[..<Int(written)]
                outSections += Array(repeating: chunkSection, count: Int(written))
                chunkEnd = chunkStart
            }
        }
        return true
    }

    /// `text` cut at `lineStarts`, in logical order: what MapLibre draws without the plugin.
    private static func logicalLines(_ text: [UInt32], sections: [Int], lineStarts: [Int]) -> [(text: [UInt32], sections: [Int])] {
        var lines: [(text: [UInt32], sections: [Int])] = []
        var start = 0
        for end in lineStarts + [text.count] {
            lines.append((Array(text[start..<end]), Array(sections[start..<end])))
            start = end
        }
        return lines
    }

    /// The code points `units` encode and the index of each one's first unit; nil for a lone
    /// surrogate (ICU writes none from valid text, but its output is not trusted blindly).
    private static func codePoints(_ units: [UInt16]) -> (text: [UInt32], firstUnits: [Int])? {
        var text: [UInt32] = [], firstUnits: [Int] = []
        text.reserveCapacity(units.count)
        firstUnits.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let unit = units[i]
            firstUnits.append(i)
            if UTF16.isLeadSurrogate(unit), i + 1 < units.count, UTF16.isTrailSurrogate(units[i + 1]) {
                text.append(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(units[i + 1] - 0xDC00))
                i += 2
            } else if UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit) {
                return nil
            } else {
                text.append(UInt32(unit))
                i += 1
            }
        }
        return (text, firstUnits)
    }
}

/// Text as ICU takes it: UTF-16 code units, the code point each unit belongs to, and where each
/// code point starts (plus the end), to move indices between the two.
private struct UTF16Text {
    var units: [UInt16] = []
    /// For each unit, the index of its code point.
    var owners: [Int] = []
    /// For each code point, the index of its first unit; one more entry: the units' count.
    var starts: [Int] = []

    /// Nil when `text` holds something that is no Unicode scalar (a surrogate, past U+10FFFF).
    init?(_ text: [UInt32]) {
        units.reserveCapacity(text.count)
        owners.reserveCapacity(text.count)
        starts.reserveCapacity(text.count + 1)
        for (index, value) in text.enumerated() {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            starts.append(units.count)
            for unit in scalar.utf16 {
                units.append(unit)
                owners.append(index)
            }
        }
        starts.append(units.count)
    }
}
