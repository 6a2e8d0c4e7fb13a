import Foundation

extension Color {
    /// Parses a CSS colour as the style specification accepts it (MapLibre's CSS Color 4
    /// parser): the 148 named colours and `transparent`; `#rgb`, `#rgba`, `#rrggbb`,
    /// `#rrggbbaa`; `rgb()`/`rgba()` with three numbers (0-255) or three percentages, separated
    /// by commas or by spaces, with an optional alpha after a comma (comma form) or a slash
    /// (space form), as a number or a percentage; `hsl()`/`hsla()` with a hue in degrees
    /// (optionally suffixed `deg`) and two percentages, in the same two syntaxes.
    ///
    /// Case-insensitive; surrounding whitespace is ignored. Components are clamped to their
    /// ranges (rgb to 0-255 or 0-100 %, saturation and lightness to 0-100 %, alpha to 0-1); the
    /// hue wraps. Numbers and percentages cannot be mixed among r, g and b. Returns nil for
    /// anything else.
    public init?(css: String) {
        let input = css.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if input == "transparent" {
            self.init(r: 0, g: 0, b: 0, a: 0)
            return
        }
        if let rgb = CSSColorNames.table[input] {
            self.init(r: Double(rgb >> 16 & 255) / 255, g: Double(rgb >> 8 & 255) / 255, b: Double(rgb & 255) / 255, a: 1)
            return
        }
        if input.hasPrefix("#") {
            guard let c = CSSColorParser.hex(input.dropFirst()) else { return nil }
            self = c
            return
        }
        var scanner = CSSColorParser(Array(input.utf8))
        guard let c = scanner.function() else { return nil }
        self = c
    }
}

/// The hand-written equivalent of MapLibre's `rgb()`/`hsl()` regular expressions.
struct CSSColorParser {
    let s: [UInt8]
    var i = 0

    init(_ s: [UInt8]) { self.s = s }

    static func hex(_ digits: Substring) -> Color? {
        let values = digits.utf8.map { b -> Int? in
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(b - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let v = values.map { $0 ?? 0 }
        switch v.count {
        case 3, 4:
            let c = v.map { Double($0 * 17) / 255 }
            return Color(r: c[0], g: c[1], b: c[2], a: v.count == 4 ? c[3] : 1)
        case 6, 8:
            let c = stride(from: 0, to: v.count, by: 2).map { Double(v[$0] * 16 + v[$0 + 1]) / 255 }
            return Color(r: c[0], g: c[1], b: c[2], a: v.count == 8 ? c[3] : 1)
        default:
            return nil
        }
    }

    /// One numeric token `[0-9e.+-]+` with its percent sign.
    struct Component { var value: Double; var percent: Bool }

    mutating func function() -> Color? {
        let isHSL: Bool
        if consume("rgba(") || consume("rgb(") {
            isHSL = false
        } else if consume("hsla(") || consume("hsl(") {
            isHSL = true
        } else {
            return nil
        }
        skipSpaces()
        guard var first = token() else { return nil }
        if isHSL { _ = consume("deg") } else { first.percent = consume("%") }
        guard let sep1 = separator(), var second = token() else { return nil }
        second.percent = consume("%")
        guard let sep2 = separator(), var third = token() else { return nil }
        third.percent = consume("%")
        var alpha: Component?
        var alphaSeparator: UInt8?
        let mark = i
        skipSpaces()
        if i < s.count, s[i] == UInt8(ascii: ",") || s[i] == UInt8(ascii: "/") {
            alphaSeparator = s[i]
            i += 1
            skipSpaces()
            guard var a = token() else { return nil }
            a.percent = consume("%")
            alpha = a
        } else {
            i = mark
        }
        skipSpaces()
        guard consume(")"), i == s.count else { return nil }
        // Either all commas (alpha after a comma) or all spaces (alpha after a slash).
        let commas = sep1 == UInt8(ascii: ",") && sep2 == UInt8(ascii: ",")
        let spaces = sep1 == UInt8(ascii: " ") && sep2 == UInt8(ascii: " ")
        switch alphaSeparator {
        case nil: guard commas || spaces else { return nil }
        case UInt8(ascii: ","): guard commas else { return nil }
        default: guard spaces else { return nil }
        }
        // Malformed numbers fail before clamping could turn them into bounds.
        guard ![first, second, third].contains(where: { $0.value.isNaN }), !(alpha?.value.isNaN ?? false) else { return nil }
        let a = alpha.map { clamp($0.percent ? $0.value / 100 : $0.value, 0, 1) } ?? 1
        if isHSL {
            guard second.percent, third.percent else { return nil }
            let values = [first.value, clamp(second.value, 0, 100), clamp(third.value, 0, 100), a]
            guard !values.contains(where: \.isNaN) else { return nil }
            return CSSColorParser.hsl(values[0], values[1], values[2], alpha: a)
        }
        let max: Double
        switch (first.percent, second.percent, third.percent) {
        case (true, true, true): max = 100
        case (false, false, false): max = 255
        default: return nil
        }
        let rgba = [clamp(first.value / max, 0, 1), clamp(second.value / max, 0, 1), clamp(third.value / max, 0, 1), a]
        guard !rgba.contains(where: \.isNaN) else { return nil }
        return Color(r: rgba[0], g: rgba[1], b: rgba[2], a: rgba[3])
    }

    /// CSS Color 4's hsl-to-rgb: h in degrees (wrapped), s and l in percent.
    static func hsl(_ hue: Double, _ sat: Double, _ light: Double, alpha: Double) -> Color {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let s = sat / 100, l = light / 100
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return Color(r: f(0), g: f(8), b: f(4), a: alpha)
    }

    mutating func consume(_ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        guard i + bytes.count <= s.count, Array(s[i..<i + bytes.count]) == bytes else { return false }
        i += bytes.count
        return true
    }

    mutating func skipSpaces() {
        while i < s.count, isSpace(s[i]) { i += 1 }
    }

    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }

    /// A separator between components: a comma with optional spaces around it, or at least
    /// one space. Returns "," or " ".
    mutating func separator() -> UInt8? {
        let start = i
        skipSpaces()
        if i < s.count, s[i] == UInt8(ascii: ",") {
            i += 1
            skipSpaces()
            return UInt8(ascii: ",")
        }
        return i > start ? UInt8(ascii: " ") : nil
    }

    /// `[0-9e.+-]+` read as JavaScript's `Number()` reads it (NaN when malformed).
    mutating func token() -> Component? {
        let start = i
        while i < s.count {
            let b = s[i]
            guard (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "e") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") else { break }
            i += 1
        }
        guard i > start else { return nil }
        return Component(value: JSNumber.parse(String(decoding: s[start..<i], as: UTF8.self)), percent: false)
    }

    func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(lo, v), hi) }
}
