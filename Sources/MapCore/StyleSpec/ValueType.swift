import Foundation

/// The static type of an expression, as the style specification's type system has it.
///
/// `value` is the type of anything (what `get` returns); `array(item, count)` is an array of
/// `item`s, of exactly `count` elements when `count` is given; `formatted` is what `format`
/// returns and `text-field` expects.
public indirect enum ValueType: Equatable, Sendable, CustomStringConvertible {
    case null
    case number
    case string
    case boolean
    case color
    case object
    case value
    case formatted
    case array(ValueType, Int?)
    /// What `collator` makes: only comparisons and `resolved-locale` take it.
    case collator

    /// The type as MapLibre writes it: `number`, `array`, `array<number>`, `array<number, 2>`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .formatted: return "formatted"
        case .array(let item, let count):
            if let count { return "array<\(item), \(count)>" }
            return item == .value ? "array" : "array<\(item)>"
        case .collator: return "collator"
        }
    }

    /// The kind without the array's parameters, for the typing rules that compare kinds only.
    var kind: Kind {
        switch self {
        case .null: return .null
        case .number: return .number
        case .string: return .string
        case .boolean: return .boolean
        case .color: return .color
        case .object: return .object
        case .value: return .value
        case .formatted: return .formatted
        case .array: return .array
        case .collator: return .collator
        }
    }

    enum Kind: Equatable { case null, number, string, boolean, color, object, value, formatted, array, collator }

    /// Whether a value of type `actual` may stand where `self` is expected (MapLibre's
    /// `checkSubtype`): equal kinds, anything for `value`, arrays item-wise with a matching
    /// length when one is required (an empty `array<value, 0>` fits any array).
    ///
    /// A string also fits where formatted text is expected: MapLibre coerces it to formatted
    /// text of one plain section, which this engine leaves a string (see ``Formatted``), so
    /// `["case", c, ["format", ...], "plain"]` is formatted text either way.
    func accepts(_ actual: ValueType) -> Bool {
        switch (self, actual) {
        case (.value, _), (.formatted, .string):
            return true
        case (.array(let item, let count), .array(let actualItem, let actualCount)):
            let itemsFit = (actualCount == 0 && actualItem == .value) || item.accepts(actualItem)
            return itemsFit && (count == nil || count == actualCount)
        case (.array, _):
            return false
        default:
            return kind == actual.kind
        }
    }

    /// Whether `interpolate` can produce this type: numbers, colours, and number arrays of a
    /// fixed length.
    var isInterpolatable: Bool {
        switch self {
        case .number, .color: return true
        case .array(.number, let count): return count != nil
        default: return false
        }
    }
}

extension StyleValue {
    /// The value's type as MapLibre's `typeOf` infers it: arrays carry their length and an item
    /// type when all items share a plain type (arrays of arrays have item type `value`).
    var valueType: ValueType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .array(let items):
            var item: ValueType?
            for element in items {
                let t = element.valueType
                if item == nil {
                    item = t
                } else if t.kind == .array || item != t {
                    item = .value
                    break
                }
            }
            return .array(item ?? .value, items.count)
        }
    }
}
