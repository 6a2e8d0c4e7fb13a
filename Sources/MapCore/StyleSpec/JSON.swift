import Foundation

/// A JSON value as a style document holds it: numbers and booleans kept apart, object members
/// in source order.
///
/// Parse with ``JSON/parse(_:name:)``, our own RFC 8259 parser (not `JSONSerialization`), which
/// reports errors by line and column and never traps on malformed input.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON object's members in source order; a key given twice keeps both entries, and lookups
/// by key see the last one (as `JSON.parse` in JavaScript does).
public struct JSONObject: Equatable, Sendable {
    public var entries: [(key: String, value: JSON)]

    public init(_ entries: [(key: String, value: JSON)] = []) {
        self.entries = entries
    }

    /// The value of the last member named `key`, nil when there is none.
    public subscript(key: String) -> JSON? {
        var i = entries.count
        while i > 0 {
            i -= 1
            if entries[i].key == key { return entries[i].value }
        }
        return nil
    }

    /// Member names in source order (duplicates included).
    public var keys: [String] { entries.map(\.key) }

    /// Equal when both hold the same members in the same order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        for (x, y) in zip(a.entries, b.entries) where x.key != y.key || x.value != y.value {
            return false
        }
        return true
    }
}

extension JSON {
    /// The JSON type's name for messages: "null", "boolean", "number", "string", "array", "object".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The value as compact JSON text for messages: strings quoted and escaped, numbers as
    /// JavaScript prints them (`5`, not `5.0`), no whitespace.
    public var compactText: String {
        var out = ""
        JSON.write(self, to: &out)
        return out
    }

    static func write(_ value: JSON, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.isFinite ? JSNumber.format(n) : "null"
        case .string(let s): JSON.writeQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { out += "," }
                writeQuoted(entry.key, to: &out)
                out += ":"
                write(entry.value, to: &out)
            }
            out += "}"
        }
    }

    /// `s` as a JSON string literal, escaped as `JSON.stringify` escapes.
    static func writeQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
