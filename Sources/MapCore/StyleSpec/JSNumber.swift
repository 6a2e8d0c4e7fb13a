import Foundation

/// Numbers written and read as JavaScript does, since the style specification's `to-string`,
/// `to-number` and colour syntax are defined by JavaScript's `String(n)` and `Number(s)`.
enum JSNumber {
    /// `String(n)` in JavaScript: the shortest digits that round-trip, positional notation for
    /// 1e-7 < |n| < 1e21 and exponent notation (`1e+21`, `1.5e-7`) otherwise.
    static func format(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n == 0 { return "0" }
        // Swift's description gives the shortest round-trip digits too; only the layout differs.
        let text = abs(n).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits = ""
        var pointPosition = 0
        var seenPoint = false
        for c in mantissa {
            if c == "." { seenPoint = true; continue }
            digits.append(c)
            if !seenPoint { pointPosition += 1 }
        }
        pointPosition += exponent
        while digits.first == "0" { digits.removeFirst(); pointPosition -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count, p = pointPosition
        var out = n < 0 ? "-" : ""
        if k <= p && p <= 21 {
            out += digits + String(repeating: "0", count: p - k)
        } else if 0 < p && p <= 21 {
            out += String(digits.prefix(p)) + "." + String(digits.dropFirst(p))
        } else if -6 < p && p <= 0 {
            out += "0." + String(repeating: "0", count: -p) + digits
        } else {
            let e = p - 1
            let sign = e < 0 ? "-" : "+"
            out += String(digits.prefix(1))
            if k > 1 { out += "." + String(digits.dropFirst()) }
            out += "e" + sign + String(abs(e))
        }
        return out
    }

    /// `Number(s)` in JavaScript: surrounding whitespace ignored, "" is 0, decimal literals,
    /// `Infinity`, and unsigned `0x`/`0o`/`0b` integers; anything else is NaN.
    static func parse(_ s: String) -> Double {
        let trimmed = s.unicodeScalars.drop(while: isJSWhitespace).reversed().drop(while: isJSWhitespace).reversed()
        let text = String(String.UnicodeScalarView(trimmed))
        if text.isEmpty { return 0 }
        var body = Substring(text)
        var sign = 1.0
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        if body == "Infinity" { return sign * .infinity }
        if text.count > 2, text.first == "0", let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][text.dropFirst().first.map(String.init) ?? ""] {
            var value = 0.0
            for c in text.dropFirst(2) {
                guard let d = c.hexDigitValue, d < radix else { return .nan }
                value = value * Double(radix) + Double(d)
            }
            return value
        }
        return isDecimalLiteral(body) ? (Double(String(body)).map { sign * $0 } ?? .nan) : .nan
    }

    /// Whether `s` is a JavaScript StrUnsignedDecimalLiteral (Swift's `Double(_:)` alone would
    /// also take "nan", "inf" and hexadecimal floats).
    static func isDecimalLiteral(_ s: Substring) -> Bool {
        var i = s.startIndex
        var intDigits = 0, fracDigits = 0
        while i < s.endIndex, s[i].isASCII, s[i].isNumber { intDigits += 1; i = s.index(after: i) }
        if i < s.endIndex, s[i] == "." {
            i = s.index(after: i)
            while i < s.endIndex, s[i].isASCII, s[i].isNumber { fracDigits += 1; i = s.index(after: i) }
        }
        guard intDigits + fracDigits > 0 else { return false }
        if i < s.endIndex, s[i] == "e" || s[i] == "E" {
            i = s.index(after: i)
            if i < s.endIndex, s[i] == "+" || s[i] == "-" { i = s.index(after: i) }
            var expDigits = 0
            while i < s.endIndex, s[i].isASCII, s[i].isNumber { expDigits += 1; i = s.index(after: i) }
            guard expDigits > 0 else { return false }
        }
        return i == s.endIndex
    }

    static func isJSWhitespace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }
}
