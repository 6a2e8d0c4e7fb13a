import Foundation

extension JSON {
    /// The deepest nesting of arrays and objects `parse` accepts.
    public static let maximumDepth = 256

    /// Parses RFC 8259 JSON text: one value, optionally after a UTF-8 byte order mark, with
    /// nothing but whitespace after it.
    ///
    /// Errors are one line, `"<name>: line L, column C: <what is wrong>"` (columns count
    /// characters, from 1). Invalid UTF-8, unpaired `\u` surrogates, control characters in
    /// strings, numbers outside the `Double` range and nesting deeper than
    /// ``maximumDepth`` are errors; nothing in the input can make the parser trap.
    public static func parse(_ data: Data, name: String) throws -> JSON {
        var parser = JSONParser(bytes: [UInt8](data), name: name)
        return try parser.parseDocument()
    }
}

/// The byte-level parser behind ``JSON/parse(_:name:)``: recursive descent over UTF-8 bytes.
struct JSONParser {
    let bytes: [UInt8]
    let name: String
    var index = 0

    init(bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    mutating func parseDocument() throws -> JSON {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error("expected a JSON value, found the end of the input") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describe(index)) after the JSON value") }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws -> JSON {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describe(index)), expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws -> JSON {
        guard depth <= JSON.maximumDepth else { throw error("nesting deeper than \(JSON.maximumDepth) levels") }
        index += 1
        var entries: [(key: String, value: JSON)] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return .object(JSONObject(entries)) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describe(index)), expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describe(index)), expected ':' after a member name")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            entries.append((key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(JSONObject(entries))
            default: throw error("unexpected \(describe(index)), expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws -> JSON {
        guard depth <= JSON.maximumDepth else { throw error("nesting deeper than \(JSON.maximumDepth) levels") }
        index += 1
        var items: [JSON] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw error("unexpected \(describe(index)), expected ',' or ']'")
            }
        }
    }

    mutating func expectWord(_ word: String) throws {
        let expected = Array(word.utf8)
        var matched = 0
        while matched < expected.count, index < bytes.count, bytes[index] == expected[matched] {
            matched += 1
            index += 1
        }
        guard matched == expected.count else {
            throw error(index < bytes.count ? "unexpected \(describe(index)) in a literal" : "unexpected end of input in a literal")
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(index < bytes.count ? "unexpected \(describe(index)) in a number" : "unexpected end of input in a number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zeros are not allowed in numbers") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: Strings

    /// Parses the string whose opening quote is at `index`.
    mutating func parseString() throws -> String {
        let open = index
        index += 1
        // Fast path: printable ASCII without escapes.
        var scan = index
        while scan < bytes.count {
            let b = bytes[scan]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[index..<scan], as: UTF8.self)
                index = scan + 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
            scan += 1
        }
        var buffer = [UInt8](bytes[index..<scan])
        index = scan
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: open) }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error("control character U+\(hex4(UInt32(b))) in a string; escape it")
            case 0x20..<0x80:
                buffer.append(b)
                index += 1
            default:
                let length = utf8SequenceLength(at: index)
                guard length > 0 else { throw error("invalid UTF-8 in a string") }
                buffer.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
    }

    /// Decodes the escape whose backslash is at `index`, appending its UTF-8 to `buffer`.
    mutating func parseEscape(into buffer: inout [UInt8]) throws {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unterminated string") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hexQuad(escapeStart: start)
            if code >= 0xD800 && code <= 0xDBFF {
                let second = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(hex4(code))", at: start)
                }
                index += 2
                let low = try hexQuad(escapeStart: second)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw error("unpaired surrogate \\u\(hex4(code))", at: start) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if code >= 0xDC00 && code <= 0xDFFF {
                throw error("unpaired surrogate \\u\(hex4(code))", at: start)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape", at: start) }
            buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw error("invalid escape \\\(describeEscape(c))", at: start)
        }
    }

    /// Reads the four hex digits after `\u`.
    mutating func hexQuad(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("invalid \\u escape: expected four hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (lead byte >= 0x80), 0 if
    /// it is malformed (overlong, surrogate, beyond U+10FFFF or truncated).
    func utf8SequenceLength(at i: Int) -> Int {
        let b0 = bytes[i]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return 0
        }
        guard i + length <= bytes.count, secondRange.contains(bytes[i + 1]) else { return 0 }
        for k in 2..<max(length, 2) where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    // MARK: Whitespace, positions, messages

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek(_ b: UInt8) -> Bool { index < bytes.count && bytes[index] == b }

    /// What is at byte `i`, for messages: `'x'`, `character U+00E9` or `invalid UTF-8`.
    func describe(_ i: Int) -> String {
        guard i < bytes.count else { return "end of input" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "character U+\(hex4(UInt32(b)))" }
        let length = utf8SequenceLength(at: i)
        guard length > 0 else { return "invalid UTF-8" }
        var decoder = UTF8()
        var iterator = bytes[i..<i + length].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return "character U+\(hex4(scalar.value))" }
        return "invalid UTF-8"
    }

    func describeEscape(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? String(Character(Unicode.Scalar(b))) : "U+\(hex4(UInt32(b)))"
    }

    func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }

    func error(_ message: String, at offset: Int? = nil) -> StyleError {
        let position = min(offset ?? index, bytes.count)
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? min(3, position) : 0
        var line = 1, column = 1
        for b in bytes[start..<position] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return StyleError("\(name): line \(line), column \(column): \(message)")
    }
}
