import Foundation

/// A value as style expressions compute it: the JSON kinds plus colours.
///
/// Feature properties, expression results and evaluated style properties are all
/// `StyleValue`s. Colours appear only where something produced one (a colour literal in a
/// colour context, `to-color`, `rgb`, interpolation); a string stays a string. Formatted text
/// appears only where a `format` expression made it.
public enum StyleValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([StyleValue])
    case object([String: StyleValue])
    case formatted(Formatted)

    /// The value of a JSON document: objects and arrays recursively, strings stay strings, and
    /// of an object's duplicate keys the last one wins.
    public init(json: JSON) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(StyleValue.init(json:)))
        case .object(let object):
            var members: [String: StyleValue] = [:]
            for entry in object.entries { members[entry.key] = StyleValue(json: entry.value) }
            self = .object(members)
        }
    }

    /// The kind's name as the expression language's `typeof` spells plain kinds: "null",
    /// "boolean", "number", "string", "color", "array", "object" or "formatted".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .color: return "color"
        case .array: return "array"
        case .object: return "object"
        case .formatted: return "formatted"
        }
    }

    /// The number, if this is one.
    public var asNumber: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The colour, if this is one (strings are not parsed; see ``Color/init(css:)``).
    public var asColor: Color? {
        if case .color(let c) = self { return c }
        return nil
    }

    /// The string, if this is one; for formatted text its plain text, so that a reader of
    /// strings (a label's text, a `text-field` read as a string) sees the words without the
    /// formatting.
    public var asString: String? {
        switch self {
        case .string(let s): return s
        case .formatted(let f): return f.plainText
        default: return nil
        }
    }

    /// The boolean, if this is one.
    public var asBool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The numbers, if this is an array of numbers only (an empty array gives `[]`).
    public var asNumbers: [Double]? {
        guard case .array(let items) = self else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(items.count)
        for item in items {
            guard case .number(let n) = item else { return nil }
            numbers.append(n)
        }
        return numbers
    }

    /// The text the `to-string` expression makes of this value: "" for null, `true`/`false`,
    /// numbers as JavaScript prints them (`1`, `0.5`, `1e+21`), strings unchanged, colours as
    /// `rgba(r,g,b,a)` with r, g, b rounded to 0-255, arrays and objects as compact JSON
    /// (object keys sorted), formatted text as its plain text.
    public var toStringText: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSNumber.format(n)
        case .string(let s): return s
        case .color(let c): return StyleValue.rgbaText(c)
        case .formatted(let f): return f.plainText
        case .array, .object:
            var out = ""
            writeJSON(to: &out)
            return out
        }
    }

    /// Compact JSON-like text for messages: strings quoted, colours as `rgba(...)`.
    var compactText: String {
        switch self {
        case .color(let c): return StyleValue.rgbaText(c)
        default:
            var out = ""
            writeJSON(to: &out)
            return out
        }
    }

    /// `Color.prototype.toString` in MapLibre: `rgba(128,0,128,1)`.
    static func rgbaText(_ c: Color) -> String {
        func byte(_ v: Double) -> String { JSNumber.format((v * 255 + 0.5).rounded(.down)) }
        return "rgba(\(byte(c.r)),\(byte(c.g)),\(byte(c.b)),\(JSNumber.format(c.a)))"
    }

    /// `JSON.stringify` of the value as MapLibre holds it (a colour is an object of its
    /// premultiplied components there); formatted text, which only messages print, as its
    /// quoted plain text.
    func writeJSON(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.isFinite ? JSNumber.format(n) : "null"
        case .string(let s): JSON.writeQuoted(s, to: &out)
        case .formatted(let f): JSON.writeQuoted(f.plainText, to: &out)
        case .color(let c):
            let parts = [("r", c.r * c.a), ("g", c.g * c.a), ("b", c.b * c.a), ("a", c.a)]
            out += "{" + parts.map { "\"\($0.0)\":\(JSNumber.format($0.1))" }.joined(separator: ",") + "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeJSON(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSON.writeQuoted(key, to: &out)
                out += ":"
                members[key]?.writeJSON(to: &out)
            }
            out += "}"
        }
    }
}

extension StyleValue: CustomStringConvertible {
    public var description: String { compactText }
}
