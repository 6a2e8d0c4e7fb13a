import Foundation

/// The kind of value a style property takes (the specification's property `type`).
public enum PropertyType: Equatable, Sendable {
    case number
    case color
    case string
    case boolean
    /// One of the listed strings.
    case enumeration([String])
    /// An array of numbers, of exactly `count` elements when given (`fill-translate`: 2,
    /// `line-dasharray`: any).
    case numberArray(count: Int?)
    /// An array of strings, each one of `values` when given (`text-font`, `text-variable-anchor`).
    case stringArray(values: [String]?)
    /// An image name (`icon-image`, `*-pattern`): a string.
    case resolvedImage
    /// `text-field`: a string, or formatted text where a `format` expression makes it.
    case formatted
    /// `icon-padding`: a number or 1-4 numbers, evaluated to [top, right, bottom, left].
    case padding
    /// `text-variable-anchor-offset`: anchors alternating with [x, y] offsets.
    case variableAnchorOffsets
}

/// One paint or layout property as the style specification defines it: type, default, range
/// and what its values may depend on.
public struct PropertySpec: Sendable {
    public let name: String
    public let type: PropertyType
    /// The specification default; `.null` where the specification has none (`line-dasharray`,
    /// `fill-outline-color`, `icon-image`...).
    public let defaultValue: StyleValue
    public let minimum: Double?
    public let maximum: Double?
    /// Whether zoom functions and `["zoom"]` curves are allowed.
    public let zoomDependent: Bool
    /// Whether property functions and feature data (`get`, ...) are allowed.
    public let dataDriven: Bool
    /// Whether `interpolate` (and exponential legacy functions) may produce it.
    public let interpolated: Bool
    /// Whether changes animate with the style's transition.
    public let transition: Bool
    /// Whether legacy `{token}` strings are replaced by feature properties.
    public let tokens: Bool
    /// A layout property (else paint).
    public let isLayout: Bool

    public init(name: String, type: PropertyType, defaultValue: StyleValue = .null, minimum: Double? = nil,
                maximum: Double? = nil, zoomDependent: Bool = true, dataDriven: Bool = false, interpolated: Bool = false,
                transition: Bool = false, tokens: Bool = false, isLayout: Bool = false) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.zoomDependent = zoomDependent
        self.dataDriven = dataDriven
        self.interpolated = interpolated
        self.transition = transition
        self.tokens = tokens
        self.isLayout = isLayout
    }

    /// The type an expression for this property must produce; nil where any value is
    /// accepted and checked after evaluation (padding, anchor offsets).
    var expressionType: ValueType? {
        switch type {
        case .number: return .number
        case .color: return .color
        case .string, .enumeration, .resolvedImage: return .string
        case .formatted: return .formatted
        case .boolean: return .boolean
        case .numberArray(let count): return .array(.number, count)
        case .stringArray: return .array(.string, nil)
        case .padding, .variableAnchorOffsets: return nil
        }
    }

    /// Whether an untyped expression result is converted with `to-string` rather than
    /// asserted to be a string (MapLibre coerces for string and image properties; formatted
    /// ones coerce by their own type, see ``ExpressionParser/fit(_:to:annotation:json:_:)``).
    var coercesToString: Bool {
        switch type {
        case .string, .resolvedImage: return true
        default: return false
        }
    }

    /// Whether literal values are arrays, so that an array is an expression only when it
    /// starts with a known operator name.
    var takesArrays: Bool {
        switch type {
        case .numberArray, .stringArray, .padding, .variableAnchorOffsets: return true
        default: return false
        }
    }
}
