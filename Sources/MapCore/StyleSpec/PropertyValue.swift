import Foundation

/// A style property's value as written in the document: a literal, a legacy function object
/// or an expression, checked against the property's ``PropertySpec``.
///
/// Constants (literals and expressions that read neither the zoom nor the feature) are
/// resolved once at parse time, so evaluating them is a plain return.
public struct PropertyValue: Sendable {
    public let spec: PropertySpec
    /// The value when it depends on neither the zoom nor the feature.
    public let constant: StyleValue?
    /// The compiled expression, for values that depend on the zoom or the feature.
    public let expression: StyleExpression?
    let check: ResultCheck

    enum Storage {
        case constant(StyleValue)
        case expression(StyleExpression)
    }

    /// The property's specification default.
    public init(spec: PropertySpec) {
        self.init(spec: spec, storage: .constant(spec.defaultValue))
    }

    init(spec: PropertySpec, storage: Storage) {
        self.spec = spec
        self.check = ResultCheck(spec)
        switch storage {
        case .constant(let value):
            constant = value
            expression = nil
        case .expression(let e):
            constant = nil
            expression = e
        }
    }

    /// Parses and checks `json` for the property `spec`; `path` names it in errors
    /// (`layers[3].paint.line-width: expected number, found "x"`).
    ///
    /// - `null` means the default.
    /// - An object is a legacy function (`stops`, `base`, `type`, `property`, `default`,
    ///   `colorSpace`), converted to an expression.
    /// - An array starting with an operator name is an expression (for array-valued
    ///   properties only a known operator name makes it one; otherwise it is a literal).
    /// - Anything else is a literal: numbers within the property's range, colour strings,
    ///   enumeration values, arrays of the right length; `{token}` strings for token properties.
    ///
    /// Expressions must fit the property: feature data only where data-driven ("data
    /// expressions not supported"), `["zoom"]` only where zoom-dependent and only as the input
    /// of a top-level `step` or `interpolate`.
    public init(json: JSON, spec: PropertySpec, path: String) throws {
        if let values = try HillshadePaintProperty.perLightValues(json, spec: spec, path: path) { self.init(spec: spec, storage: .constant(values)); return }
        let storage: Storage
        switch json {
        case .null:
            storage = .constant(spec.defaultValue)
        case .object(let function):
            storage = try PropertyValue.storage(for: LegacyFunction.expression(function, spec: spec, path: path), spec: spec)
        case .array(let items) where PropertyValue.isExpression(items, spec: spec):
            storage = try PropertyValue.storage(for: PropertyValue.expression(json, spec: spec, path: path), spec: spec)
        case .string(let text) where spec.tokens:
            if let tokens = LegacyFunction.tokenExpression(text) {
                storage = try PropertyValue.storage(for: PropertyValue.expression(tokens, spec: spec, path: path), spec: spec)
            } else {
                storage = .constant(try PropertyValue.literal(json, spec: spec, path: path))
            }
        default:
            storage = .constant(try PropertyValue.literal(json, spec: spec, path: path))
        }
        self.init(spec: spec, storage: storage)
    }

    /// Whether the value changes with the zoom.
    public var isZoomDependent: Bool { expression?.isZoomDependent ?? false }

    /// Whether the value changes from feature to feature.
    public var isFeatureDependent: Bool { expression?.isFeatureDependent ?? false }

    /// The value for `context`. Never fails: an evaluation error, a null or NaN result, or a
    /// value that does not fit the property (an enumeration value not listed, an array of the
    /// wrong length) gives the specification default, as in MapLibre. Numbers are clamped to
    /// the property's range and colour components to 0...1.
    public func evaluate(_ context: EvaluationContext) -> StyleValue {
        if expression == nil { return constant ?? spec.defaultValue }
        guard let value = try? expression?.evaluate(context) else { return spec.defaultValue }
        return check.conform(value) ?? spec.defaultValue
    }

    // MARK: Parsing

    static func storage(for expression: StyleExpression, spec: PropertySpec) -> Storage {
        if expression.isZoomDependent || expression.isFeatureDependent || expression.readsHeatmapDensity || expression.readsGlobalState {
            return .expression(expression)
        }
        let check = ResultCheck(spec)
        let value = (try? expression.evaluate(EvaluationContext(zoom: 0))).flatMap { check.conform($0) }
        return .constant(value ?? spec.defaultValue)
    }

    static func isExpression(_ items: [JSON], spec: PropertySpec) -> Bool {
        guard case .string(let name)? = items.first else { return false }
        return !spec.takesArrays || Operator(rawValue: name) != nil
    }

    /// Parses an expression for `spec` and checks where it may use the zoom and the feature.
    static func expression(_ json: JSON, spec: PropertySpec, path: String, allowsInternal: Bool = false) throws -> StyleExpression {
        let e = try StyleExpression.parse(json, path: path, expected: spec.expressionType,
                                     coercesToString: spec.coercesToString, allowsInternal: allowsInternal,
                                     heatmapDensity: spec.name == HeatmapPaintProperty.colorName)
        if spec.isLayout { try e.rejectFeatureState(path, in: "layout properties") }
        try ElevationNode.check(e, spec: spec, path: path)
        if e.isFeatureDependent && !spec.dataDriven { throw StyleError("\(path): data expressions not supported") }
        if e.isZoomDependent && !spec.zoomDependent { throw StyleError("\(path): zoom expressions not supported") }
        try LineProgressRule.check(e, spec, path)
        switch e.zoomCurve() {
        case .failure(let error):
            throw StyleError("\(path): \(error.description)")
        case .success(nil) where e.isZoomDependent:
            throw StyleError("\(path): \"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression")
        case .success(let curve?) where curve is InterpolateNode && !spec.interpolated:
            throw StyleError("\(path): \"interpolate\" expressions cannot be used with this property")
        default:
            return e
        }
    }

    /// Checks a literal against `spec` and returns its value.
    static func literal(_ json: JSON, spec: PropertySpec, path: String) throws -> StyleValue {
        func mismatch(_ expected: String) -> StyleError {
            StyleError("\(path): expected \(expected), found \(json.compactText)")
        }
        switch spec.type {
        case .number:
            guard case .number(let n) = json else { throw mismatch("number") }
            try checkRange(n, spec, path)
            return .number(n)
        case .color:
            guard case .string(let text) = json, let c = Color(css: text) else { throw mismatch("color") }
            return .color(c)
        case .string, .resolvedImage, .formatted:
            guard case .string(let text) = json else { throw mismatch("string") }
            return .string(text)
        case .boolean:
            guard case .bool(let b) = json else { throw mismatch("boolean") }
            return .bool(b)
        case .enumeration(let values):
            guard case .string(let text) = json, values.contains(text) else {
                throw mismatch("one of [\(values.joined(separator: ", "))]")
            }
            return .string(text)
        case .numberArray(let count):
            let wanted = count.map { "an array of \($0) numbers" } ?? "an array of numbers"
            guard case .array(let items) = json, count == nil || items.count == count else { throw mismatch(wanted) }
            var numbers: [StyleValue] = []
            for (i, item) in items.enumerated() {
                guard case .number(let n) = item else {
                    throw StyleError("\(path)[\(i)]: expected number, found \(item.compactText)")
                }
                try checkRange(n, spec, "\(path)[\(i)]")
                numbers.append(.number(n))
            }
            return .array(numbers)
        case .stringArray(let values):
            guard case .array(let items) = json else { throw mismatch("an array of strings") }
            return .array(try items.enumerated().map { i, item in
                guard case .string(let text) = item, values?.contains(text) ?? true else {
                    let wanted = values.map { "one of [\($0.joined(separator: ", "))]" } ?? "string"
                    throw StyleError("\(path)[\(i)]: expected \(wanted), found \(item.compactText)")
                }
                return .string(text)
            })
        case .padding:
            guard let padding = ResultCheck(spec).conform(StyleValue(json: json)) else { throw mismatch("a number or an array of 1 to 4 numbers") }
            return padding
        case .variableAnchorOffsets:
            guard let offsets = ResultCheck(spec).conform(StyleValue(json: json)) else {
                throw mismatch("an array of anchors each followed by an [x, y] offset")
            }
            return offsets
        }
    }

    static func checkRange(_ n: Double, _ spec: PropertySpec, _ path: String) throws {
        if let min = spec.minimum, n < min {
            throw StyleError("\(path): \(JSNumber.format(n)) is less than the minimum value \(JSNumber.format(min))")
        }
        if let max = spec.maximum, n > max {
            throw StyleError("\(path): \(JSNumber.format(n)) is greater than the maximum value \(JSNumber.format(max))")
        }
    }
}

/// What an evaluated value must be for a property, prepared once so that checking a result
/// per feature is a switch over plain fields.
struct ResultCheck: Sendable {
    enum Kind: Sendable { case number, color, string, formatted, boolean, enumeration, numberArray, stringArray, padding, anchorOffsets }

    let kind: Kind
    let lower: Double
    let upper: Double
    /// The required array length, -1 for any.
    let count: Int
    /// The allowed strings of an enumeration or string array, nil for any.
    let allowed: Set<String>?

    init(_ spec: PropertySpec) {
        lower = spec.minimum ?? -.infinity
        upper = spec.maximum ?? .infinity
        var count = -1
        var allowed: Set<String>?
        switch spec.type {
        case .number: kind = .number
        case .color: kind = .color
        case .string, .resolvedImage: kind = .string
        case .formatted: kind = .formatted
        case .boolean: kind = .boolean
        case .enumeration(let values): kind = .enumeration; allowed = Set(values)
        case .numberArray(let n): kind = .numberArray; count = n ?? -1
        case .stringArray(let values): kind = .stringArray; allowed = values.map(Set.init)
        case .padding: kind = .padding
        case .variableAnchorOffsets: kind = .anchorOffsets
        }
        self.count = count
        self.allowed = allowed
    }

    func clamp(_ n: Double) -> Double { n < lower ? lower : n > upper ? upper : n }

    /// `value` made to fit (numbers clamped, colour components to 0...1, padding expanded to
    /// four sides), or nil when it cannot: null, NaN, another kind, a value not listed, an
    /// array of the wrong length.
    func conform(_ value: StyleValue) -> StyleValue? {
        switch (kind, value) {
        case (.number, .number(let n)):
            return n.isNaN ? nil : .number(clamp(n))
        case (.color, .color(let c)):
            guard !c.r.isNaN, !c.g.isNaN, !c.b.isNaN, !c.a.isNaN else { return nil }
            func unit(_ v: Double) -> Double { v < 0 ? 0 : v > 1 ? 1 : v }
            return .color(Color(r: unit(c.r), g: unit(c.g), b: unit(c.b), a: unit(c.a)))
        case (.string, .string), (.formatted, .string), (.formatted, .formatted), (.boolean, .bool):
            return value
        case (.enumeration, .string(let text)):
            return allowed?.contains(text) ?? true ? value : nil
        case (.numberArray, .array(let items)):
            guard count < 0 || items.count == count else { return nil }
            var out: [StyleValue] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard case .number(let n) = item, !n.isNaN else { return nil }
                out.append(.number(clamp(n)))
            }
            return .array(out)
        case (.stringArray, .array(let items)):
            for item in items {
                guard case .string(let text) = item, allowed?.contains(text) ?? true else { return nil }
            }
            return value
        case (.padding, .number(let n)):
            return n.isNaN ? nil : .array(Array(repeating: .number(n), count: 4))
        case (.padding, .array):
            guard let v = value.asNumbers, (1...4).contains(v.count), !v.contains(where: \.isNaN) else { return nil }
            let sides = [v[0], v.count > 1 ? v[1] : v[0], v.count > 2 ? v[2] : v[0], v.count > 3 ? v[3] : (v.count > 1 ? v[1] : v[0])]
            return .array(sides.map(StyleValue.number))
        case (.anchorOffsets, .array(let items)):
            guard items.count % 2 == 0 else { return nil }
            for pair in stride(from: 0, to: items.count, by: 2) {
                guard case .string(let anchor) = items[pair], StyleProperties.anchors.contains(anchor),
                      let offset = items[pair + 1].asNumbers, offset.count == 2 else { return nil }
            }
            return value
        default:
            return nil
        }
    }
}
