/// What a character's script or block means for laying out a label, as MapLibre GL JS 5.14
/// decides it (`util/script_detection.ts` over the sets of `build/generate-unicode-data.ts`).
public enum ScriptProperties {
    /// JavaScript's `\s`: where lines are trimmed, and what adds no width to a line break's x.
    public static func isWhitespace(_ codePoint: UInt32) -> Bool {
        switch codePoint {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// Ideographs, kana and CJK punctuation: a line may break after any of them, as CJK text
    /// has no spaces.
    public static func allowsIdeographicBreaking(_ codePoint: UInt32) -> Bool {
        UnicodeRanges.contains(UnicodeRanges.ideographicBreaking, codePoint)
    }

    /// Drawn upright in a vertical line (Han, kana, Hangul, ...). A label gets a vertical
    /// shaping only when some character has this.
    public static func hasUprightVerticalOrientation(_ codePoint: UInt32) -> Bool {
        UnicodeRanges.contains(UnicodeRanges.uprightVertical, codePoint)
    }

    /// Drawn upright or turned depending on its neighbours (½, ©, arrows, CJK punctuation).
    public static func hasNeutralVerticalOrientation(_ codePoint: UInt32) -> Bool {
        UnicodeRanges.contains(UnicodeRanges.neutralVertical, codePoint)
    }

    /// Always turned in a vertical line (Latin letters): neither upright nor neutral.
    public static func hasRotatedVerticalOrientation(_ codePoint: UInt32) -> Bool {
        !hasUprightVerticalOrientation(codePoint) && !hasNeutralVerticalOrientation(codePoint)
    }

    /// False for the cursive scripts (Arabic, Duployan, Mongolian, Old Uyghur, Syriac), whose
    /// joined letters would be torn apart by letter spacing.
    public static func allowsLetterSpacing(_ codePoint: UInt32) -> Bool {
        !UnicodeRanges.contains(UnicodeRanges.cursive, codePoint)
    }

    /// Whether letter spacing applies to a label: MapLibre drops it for the whole label when any
    /// character is cursive.
    public static func allowsLetterSpacing(_ text: [UInt32]) -> Bool {
        text.allSatisfy(allowsLetterSpacing)
    }

    /// In a script written right to left (the 36 scripts MapLibre lists: Arabic, Hebrew, ...).
    public static func isRightToLeft(_ codePoint: UInt32) -> Bool {
        UnicodeRanges.contains(UnicodeRanges.rightToLeft, codePoint)
    }

    /// Arabic, which needs its letters joined: never set upright in a vertical label.
    public static func needsComplexShaping(_ codePoint: UInt32) -> Bool {
        UnicodeRanges.contains(UnicodeRanges.arabic, codePoint)
    }

    /// The script of `codePoint` when it is one whose words a glyph per character cannot draw
    /// (vowel signs drawn before the consonant they follow, conjuncts, marks stacked on their
    /// base): the Brahmic scripts of South and Southeast Asia (Devanagari to Sinhala, Thai, Lao,
    /// Tibetan, Myanmar, Khmer, Balinese, Javanese, ... and those of the Supplementary
    /// Multilingual Plane from Brahmi to Gunjala Gondi), which HarfBuzz's Indic, Khmer, Myanmar,
    /// Thai and Universal shapers handle. Named by the first code point of the script's main
    /// block (Devanagari Extended gives 0x900, as Devanagari does). Nil for every other
    /// character, Arabic and the other right-to-left scripts included: their joining goes
    /// through the `BidiShaper`, as MapLibre's RTL plugin does it.
    public static func complexScript(of codePoint: UInt32) -> UInt32? {
        var low = 0, high = complexScripts.count
        while low < high {
            let middle = (low + high) / 2
            if complexScripts[middle].range.upperBound < codePoint { low = middle + 1 } else { high = middle }
        }
        guard low < complexScripts.count, complexScripts[low].range.contains(codePoint) else { return nil }
        return complexScripts[low].script
    }

    /// Whether `codePoint` belongs to a run of `script` (a `complexScript(of:)`) that it follows:
    /// a character of that script, a combining mark (Vedic signs, the common nukta and
    /// candrabindu users borrow) or a zero-width (non-)joiner, which ask how the characters
    /// around them join.
    static func continuesComplexRun(_ codePoint: UInt32, script: UInt32) -> Bool {
        if codePoint == 0x200C || codePoint == 0x200D || complexScript(of: codePoint) == script { return true }
        switch Unicode.Scalar(codePoint)?.properties.generalCategory {
        case .nonspacingMark?, .spacingMark?, .enclosingMark?: return true
        default: return false
        }
    }

    /// The blocks of `complexScript(of:)`, ascending and disjoint, each with its script's key.
    private static let complexScripts: [(range: ClosedRange<UInt32>, script: UInt32)] = [
        (0x0900...0x097F, 0x0900), (0x0980...0x09FF, 0x0980), (0x0A00...0x0A7F, 0x0A00), (0x0A80...0x0AFF, 0x0A80),
        (0x0B00...0x0B7F, 0x0B00), (0x0B80...0x0BFF, 0x0B80), (0x0C00...0x0C7F, 0x0C00), (0x0C80...0x0CFF, 0x0C80),
        (0x0D00...0x0D7F, 0x0D00), (0x0D80...0x0DFF, 0x0D80), (0x0E00...0x0E7F, 0x0E00), (0x0E80...0x0EFF, 0x0E80),
        (0x0F00...0x0FFF, 0x0F00), (0x1000...0x109F, 0x1000), (0x1780...0x17FF, 0x1780), (0x1900...0x194F, 0x1900),
        (0x1950...0x197F, 0x1950), (0x1980...0x19DF, 0x1980), (0x19E0...0x19FF, 0x1780), (0x1A00...0x1A1F, 0x1A00),
        (0x1A20...0x1AAF, 0x1A20), (0x1B00...0x1B7F, 0x1B00), (0x1B80...0x1BBF, 0x1B80), (0x1BC0...0x1BFF, 0x1BC0),
        (0x1C00...0x1C4F, 0x1C00), (0x1CD0...0x1CFF, 0x0900), (0xA800...0xA82F, 0xA800), (0xA880...0xA8DF, 0xA880),
        (0xA8E0...0xA8FF, 0x0900), (0xA900...0xA92F, 0xA900), (0xA930...0xA95F, 0xA930), (0xA980...0xA9DF, 0xA980),
        (0xA9E0...0xA9FF, 0x1000), (0xAA00...0xAA5F, 0xAA00), (0xAA60...0xAA7F, 0x1000), (0xAA80...0xAADF, 0xAA80),
        (0xAAE0...0xAAFF, 0xABC0), (0xABC0...0xABFF, 0xABC0), (0x11000...0x1107F, 0x11000), (0x11080...0x110CF, 0x11080),
        (0x11100...0x1114F, 0x11100), (0x11150...0x1117F, 0x11150), (0x11180...0x111DF, 0x11180),
        (0x11200...0x1124F, 0x11200), (0x11280...0x112AF, 0x11280), (0x112B0...0x112FF, 0x112B0),
        (0x11300...0x1137F, 0x11300), (0x11400...0x1147F, 0x11400), (0x11480...0x114DF, 0x11480),
        (0x11580...0x115FF, 0x11580), (0x11600...0x1165F, 0x11600), (0x11680...0x116CF, 0x11680),
        (0x11700...0x1174F, 0x11700), (0x11800...0x1184F, 0x11800), (0x11900...0x1195F, 0x11900),
        (0x119A0...0x119FF, 0x119A0), (0x11A00...0x11A4F, 0x11A00), (0x11A50...0x11AAF, 0x11A50),
        (0x11C00...0x11C6F, 0x11C00), (0x11C70...0x11CBF, 0x11C70), (0x11D00...0x11D5F, 0x11D00),
        (0x11D60...0x11DAF, 0x11D60),
    ]
}
