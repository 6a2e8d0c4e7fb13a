#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of a two-line element set, cut to its 69 columns, with readers for the column
/// formats the standard uses. Columns are 1-based, as in the format's documentation.
struct TLELine {
    static let length = 69

    /// 1 or 2.
    let number: Int
    /// Exactly 69 ASCII bytes.
    let bytes: [UInt8]

    /// Cuts `text` to 69 columns (the verification file carries extra columns after 69) and
    /// checks its length, characters and line number. The checksum is checked separately.
    init(_ text: Substring, number: Int) throws(TLEError) {
        self.number = number
        var chars = Array(text.utf8)
        while let last = chars.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") {
            chars.removeLast()
        }
        if let bad = chars.prefix(TLELine.length).firstIndex(where: { $0 < 0x20 || $0 > 0x7E }) {
            throw TLEError(kind: .malformedField, line: number, columns: (bad + 1)...(bad + 1),
                           message: "not a printable ASCII character")
        }
        guard chars.count >= TLELine.length else {
            throw TLEError(kind: .lineTooShort, line: number,
                           message: "has \(chars.count) characters, expected 69")
        }
        bytes = Array(chars.prefix(TLELine.length))
        let first = bytes[0]
        guard first == UInt8(ascii: "0") + UInt8(number) else {
            throw TLEError(kind: .wrongLineNumber, line: number, columns: 1...1, field: "line number",
                           message: "found '\(Character(Unicode.Scalar(first)))', expected '\(number)'")
        }
    }

    /// The 69 columns as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The characters of `columns`, as written.
    func raw(_ columns: ClosedRange<Int>) -> String {
        String(decoding: bytes[(columns.lowerBound - 1)...(columns.upperBound - 1)], as: UTF8.self)
    }

    func error(_ columns: ClosedRange<Int>, _ field: String, _ message: String,
               kind: TLEError.Kind = .malformedField) -> TLEError {
        TLEError(kind: kind, line: number, columns: columns, field: field, message: message)
    }

    private func malformed(_ columns: ClosedRange<Int>, _ field: String, _ expected: String) -> TLEError {
        error(columns, field, "'\(raw(columns))' is not \(expected)")
    }

    // MARK: Checksum

    /// Sum of the digits of columns 1-68, each '-' counting 1, modulo 10.
    var computedChecksum: Int {
        var sum = 0
        for b in bytes.prefix(68) {
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { sum += Int(b - UInt8(ascii: "0")) }
            else if b == UInt8(ascii: "-") { sum += 1 }
        }
        return sum % 10
    }

    /// Checks column 69 against `computedChecksum`.
    func verifyChecksum() throws(TLEError) {
        let written = bytes[68]
        guard isDigit(written) else {
            throw malformed(69...69, "checksum", "a digit")
        }
        let value = Int(written - UInt8(ascii: "0"))
        let expected = computedChecksum
        guard value == expected else {
            throw error(69...69, "checksum", "checksum is \(value), expected \(expected)",
                        kind: .badChecksum)
        }
    }

    // MARK: Field readers

    /// A column that must be blank between two fields.
    func requireBlank(_ column: Int) throws(TLEError) {
        let b = bytes[column - 1]
        guard b == UInt8(ascii: " ") else {
            throw error(column...column, "separator",
                        "expected a blank between fields, found '\(Character(Unicode.Scalar(b)))'")
        }
    }

    /// A right-aligned unsigned integer; leading blanks allowed; all blank gives `blankValue`
    /// when that is given.
    func integer(_ columns: ClosedRange<Int>, _ field: String, blankValue: Int? = nil) throws(TLEError) -> Int {
        let s = bytes[(columns.lowerBound - 1)...(columns.upperBound - 1)]
        let digits = s.drop(while: { $0 == UInt8(ascii: " ") })
        if digits.isEmpty, let blankValue { return blankValue }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else {
            throw malformed(columns, field, "an unsigned integer")
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// A decimal number with an explicit point, e.g. ` 34.2682`, `-.00000084`, `10.82419157`:
    /// blanks around it, an optional sign, digits with at most one point, at least one digit.
    func decimal(_ columns: ClosedRange<Int>, _ field: String) throws(TLEError) -> Double {
        let s = bytes[(columns.lowerBound - 1)...(columns.upperBound - 1)]
        let body = s.drop(while: { $0 == UInt8(ascii: " ") })
        let trimmed = body.prefix(while: { $0 != UInt8(ascii: " ") })
        guard body.dropFirst(trimmed.count).allSatisfy({ $0 == UInt8(ascii: " ") }) else {
            throw malformed(columns, field, "a decimal number")
        }
        var digits = trimmed[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        let points = digits.filter { $0 == UInt8(ascii: ".") }.count
        let digitCount = digits.filter(isDigit).count
        guard points <= 1, digitCount >= 1, digitCount + points == digits.count,
              let value = Double(String(decoding: trimmed, as: UTF8.self)) else {
            throw malformed(columns, field, "a decimal number")
        }
        return value
    }

    /// Digits with an assumed leading decimal point, e.g. eccentricity `1859667` = 0.1859667.
    func assumedDecimal(_ columns: ClosedRange<Int>, _ field: String) throws(TLEError) -> Double {
        let s = bytes[(columns.lowerBound - 1)...(columns.upperBound - 1)]
        guard s.allSatisfy(isDigit), let value = Double("0." + String(decoding: s, as: UTF8.self)) else {
            throw malformed(columns, field, "digits with an assumed decimal point")
        }
        return value
    }

    /// The 8-column exponent form with an assumed decimal point, e.g. `-11606-4` = -0.11606e-4,
    /// ` 00000+0` = 0: sign (blank, '+' or '-'), five digits, exponent sign, one exponent digit.
    func exponential(_ columns: ClosedRange<Int>, _ field: String) throws(TLEError) -> Double {
        precondition(columns.count == 8)
        let s = Array(bytes[(columns.lowerBound - 1)...(columns.upperBound - 1)])
        let sign = s[0], mantissa = s[1...5], expSign = s[6], expDigit = s[7]
        let signs: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "-")]
        guard signs.contains(sign), mantissa.allSatisfy(isDigit), signs.contains(expSign),
              isDigit(expDigit),
              let m = Double("0." + String(decoding: mantissa, as: UTF8.self)) else {
            throw malformed(columns, field, "a number in the assumed-decimal exponent form (±NNNNN±N)")
        }
        var exponent = Int(expDigit - UInt8(ascii: "0"))
        if expSign == UInt8(ascii: "-") { exponent = -exponent }
        // Vallado's twoline2rv: mantissa * pow(10, exponent), sign applied to the mantissa.
        let value = m * pow(10.0, Double(exponent))
        return sign == UInt8(ascii: "-") ? -value : value
    }

    /// A catalogue number in columns 3-7: five digits (leading blanks allowed), or the Alpha-5
    /// form (a letter other than I and O, standing for 10...33, then four digits).
    func catalogNumber() throws(TLEError) -> Int {
        let columns = 3...7
        let s = bytes[2...6]
        if let first = s.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
            guard first != UInt8(ascii: "I"), first != UInt8(ascii: "O"),
                  s.dropFirst().allSatisfy(isDigit) else {
                throw malformed(columns, "catalogue number", "a catalogue number")
            }
            var lead = Int(first - UInt8(ascii: "A")) + 10
            if first > UInt8(ascii: "I") { lead -= 1 }
            if first > UInt8(ascii: "O") { lead -= 1 }
            let rest = s.dropFirst().reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            return lead * 10000 + rest
        }
        return try integer(columns, "catalogue number")
    }
}

@inline(__always) private func isDigit(_ b: UInt8) -> Bool {
    b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
}
