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
}
