import MapCore
import MapData
import Testing

/// Arabic joining and bidi reordering through Debian's ICU, as MapLibre's RTL plugin does them.
/// Expected strings are worked out from the Unicode rules (joining types, bidi classes), not
/// taken from ICU's output.
@Suite struct ICUBidiTests {
    let bidi = ICUBidi()

    static func codePoints(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// One line's text as a string, for readable failures.
    static func string(_ text: [UInt32]) -> String {
        String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
    }

    /// `lines` for one section, each line as a string.
    func lines(_ s: String, breaks: [Int] = []) -> [String] {
        let text = Self.codePoints(s)
        return bidi.lines(text, sections: Array(repeating: 0, count: text.count), breaks: breaks).map { Self.string($0.text) }
    }

    @Test func arabicLettersJoin() {
        // سلام: seen initial (U+FEB3); lam + alef are the mandatory ligature, lam joined on its
        // right (LAM WITH ALEF FINAL, U+FEFC); alef joins nothing on its left, so meem is isolated
        // (U+FEE1). Four letters become three glyphs.
        #expect(bidi.shapeArabic(Self.codePoints("سلام")) == [0xFEB3, 0xFEFC, 0xFEE1])
        // كتب: kaf initial, teh medial, beh final.
        #expect(bidi.shapeArabic(Self.codePoints("كتب")) == [0xFEDB, 0xFE98, 0xFE90])
        // A word on its own joins on neither side; Latin and spaces are left alone.
        #expect(bidi.shapeArabic(Self.codePoints("ab كتب c")) == Self.codePoints("ab ") + [0xFEDB, 0xFE98, 0xFE90] + Self.codePoints(" c"))
        #expect(bidi.shapeArabic(Self.codePoints("Main St")) == Self.codePoints("Main St"))
    }

    @Test func hebrewInsideLatinIsReversed() {
        // First strong character Latin: a left-to-right paragraph with one right-to-left run.
        #expect(lines("abc אבג def") == ["abc גבא def"])
        // Hebrew first: a right-to-left paragraph; parentheses are mirrored as they are reversed.
        #expect(lines("אב (גד)") == ["(דג) בא"])
    }

    @Test func eachLineIsReorderedOnItsOwn() {
        // Logical: ا ب ␠ x y ␠ ت ث, broken before ت (index 6); Arabic first, so both lines belong
        // to one right-to-left paragraph. Line 1: "xy" stays left to right at level 2, the
        // trailing space goes to the paragraph's level (UAX #9 L1), so the line reads
        // "␠xy␠با". Reordering the whole text and cutting it after would give other lines.
        #expect(lines("اب xy تث", breaks: [6]) == [" xy با", "ثت"])
        // The same text unbroken: one line.
        #expect(lines("اب xy تث") == ["ثت xy با"])
        // A newline ends a paragraph (and a line) even without a break; each paragraph finds its
        // own direction: the first is left to right, the second right to left.
        #expect(lines("ab אב\nגד ef") == ["ab בא\n", "ef דג"])
    }

    @Test func digitsStayLeftToRight() {
        // European and Arabic-Indic digits keep their order inside right-to-left text.
        #expect(lines("شارع 123") == ["123 عراش"])
        #expect(lines("شارع ١٢٣") == ["١٢٣ عراش"])
        // With the number in a section of its own: a left-to-right run between right-to-left ones.
        let styled = bidi.lines(Self.codePoints("شارع 123"), sections: [0, 0, 0, 0, 0, 1, 1, 1], breaks: [])
        #expect(styled.map { Self.string($0.text) } == ["123 عراش"])
        #expect(styled.map(\.sections) == [[1, 1, 1, 0, 0, 0, 0, 0]])
    }

    @Test func sectionsFollowTheirCharacters() {
        // "ab אבג" with the space and א in sections of their own: the reversed run comes out
        // ג ב א, and each keeps its section, including א, the run's first logical character.
        let text = Self.codePoints("ab אבג")
        let out = bidi.lines(text, sections: [0, 0, 1, 2, 3, 3], breaks: [])
        #expect(out.count == 1)
        #expect(Self.string(out[0].text) == "ab גבא")
        #expect(out[0].sections == [0, 0, 1, 3, 3, 2])
        // Styled text is mirrored too, and broken into lines like plain text.
        let mirrored = bidi.lines(Self.codePoints("אב (גד)"), sections: [0, 0, 0, 1, 1, 1, 1], breaks: [3])
        #expect(mirrored.map { Self.string($0.text) } == [" בא", "(דג)"])
        #expect(mirrored.map(\.sections) == [[0, 0, 0], [1, 1, 1, 1]])
    }

    @Test func charactersOutsideTheBMPStayWhole() {
        // Phoenician letters (U+10900...; right to left) are surrogate pairs in UTF-16: reversed
        // as whole characters, and a break after the space (code point 3, UTF-16 unit 5) cuts
        // between characters. Line 1's trailing space goes to the paragraph level.
        let text: [UInt32] = [0x10900, 0x10901, 0x20, 0x10902, 0x1F600, 0x10903]
        let out = bidi.lines(text, sections: [0, 1, 1, 2, 3, 4], breaks: [3])
        #expect(out.map(\.text) == [[0x20, 0x10901, 0x10900], [0x10903, 0x1F600, 0x10902]])
        #expect(out.map(\.sections) == [[1, 1, 0], [4, 3, 2]])
        // Left alone by shaping.
        #expect(bidi.shapeArabic(text) == text)
    }

    @Test func emptyAndUnusableTextComeBackAsTheyWere() {
        #expect(bidi.shapeArabic([]).isEmpty)
        #expect(bidi.lines([], sections: [], breaks: [0]).isEmpty)
        // A lone surrogate is no Unicode scalar: logical order, cut at the breaks.
        let broken: [UInt32] = [0x5D0, 0xD800, 0x5D1]
        #expect(bidi.shapeArabic(broken) == broken)
        #expect(bidi.lines(broken, sections: [0, 0, 0], breaks: [2]).map(\.text) == [[0x5D0, 0xD800], [0x5D1]])
        // Past the length limit: not reordered.
        let long = [UInt32](repeating: 0x5D0, count: ICUBidi.maxLength) + [0x5D1]
        #expect(bidi.lines(long, sections: Array(repeating: 0, count: long.count), breaks: []).map(\.text) == [long])
    }
}
