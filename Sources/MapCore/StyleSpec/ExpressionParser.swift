import Foundation

/// Where a sub-expression sits: its path for messages, the type its parent expects of it and
/// the `let` bindings in scope.
struct ParseContext {
    var path: String
    var expected: ValueType?
    var scope: Scope?
    /// An untyped value where a string is expected is converted with `to-string` rather than
    /// asserted (string and image properties, as MapLibre's image type does); passed
    /// on to the output positions of `match`, `case`, `coalesce`, `step` and `let`.
    var coercesToString = false

    /// The context of argument `index`, expecting `expected`.
    func argument(_ index: Int, _ expected: ValueType? = nil) -> ParseContext {
        ParseContext(path: "\(path)[\(index)]", expected: expected, scope: scope)
    }

    /// The context of an output position `index` whose type is `expected`.
    func output(_ index: Int, _ expected: ValueType?) -> ParseContext {
        ParseContext(path: "\(path)[\(index)]", expected: expected, scope: scope,
                     coercesToString: coercesToString && expected == self.expected)
    }

    /// `expected` unless it is nil or `value`: the output type an expression must produce.
    var requiredOutput: ValueType? { expected == .value ? nil : expected }
}

/// A `let` binding visible to `var`.
final class Scope {
    let name: String
    let slot: Int
    let node: Node
    let type: ValueType
    let parent: Scope?

    init(name: String, slot: Int, node: Node, type: ValueType, parent: Scope?) {
        self.name = name
        self.slot = slot
        self.node = node
        self.type = type
        self.parent = parent
    }

    func lookup(_ name: String) -> Scope? {
        var scope: Scope? = self
        while let s = scope {
            if s.name == name { return s }
            scope = s.parent
        }
        return nil
    }
}

/// How a value of type `value` is fitted to an expected type (MapLibre's inferred annotations).
enum Annotation { case assert, coerce, omit }

/// A parsed expression with its type.
struct Typed {
    var node: Node
    var type: ValueType
}

/// The expression operators, by their names in the style specification.
enum Operator: String {
    case literal, get, has, id, geometryType = "geometry-type", properties, zoom
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case all, any, not = "!"
    case match, `case`, coalesce, step, interpolate, interpolateHCL = "interpolate-hcl", interpolateLab = "interpolate-lab"
    case toNumber = "to-number", toString = "to-string", toColor = "to-color", toBoolean = "to-boolean"
    case number, string, boolean, array, object, typeOf = "typeof"
    case plus = "+", minus = "-", times = "*", divide = "/", remainder = "%", power = "^"
    case sqrt, abs, floor, ceil, round, min, max, ln, log10, log2, sin, cos, tan, asin, acos, atan, e, pi, ln2
    case length, at, `in`, indexOf = "index-of", slice, concat, downcase, upcase, rgb, rgba, toRGBA = "to-rgba"
    case format, numberFormat = "number-format"
    case `let`, `var`
    case within, distance, collator, resolvedLocale = "resolved-locale", isSupportedScript = "is-supported-script", image, lineProgress = "line-progress"
    case heatmapDensity = "heatmap-density"
    case featureState = "feature-state", globalState = "global-state"
    case elevation
}

/// Parses and type-checks expression JSON into a ``Node`` tree, following MapLibre's
/// `ParsingContext`: literals for scalars, operator dispatch for arrays, inferred assertions
/// and coercions, and constant folding.
final class ExpressionParser {
    /// The deepest expression nesting accepted.
    static let maximumDepth = 256
    /// The operator the legacy-function converter uses for "no value" in a typed position.
    static let internalNull = "\u{0}null"

    /// How many `let` bindings were seen; each has a slot in ``EvaluationState``.
    private(set) var slotCount = 0
    let allowsInternal: Bool
    /// `["heatmap-density"]` may be used (`heatmap-color` only).
    var allowsHeatmapDensity = false
    private var depth = 0

    init(allowsInternal: Bool = false) {
        self.allowsInternal = allowsInternal
    }

    func fail(_ path: String, _ message: String) -> StyleError {
        StyleError("\(path): \(message)")
    }

    /// Parses `json` in `ctx`, then fits the result to `ctx.expected` and folds it if constant.
    func parse(_ json: JSON, _ ctx: ParseContext, annotation: Annotation? = nil) throws -> Typed {
        depth += 1
        defer { depth -= 1 }
        guard depth <= ExpressionParser.maximumDepth else {
            throw fail(ctx.path, "expression nesting deeper than \(ExpressionParser.maximumDepth) levels")
        }
        var parsed: Typed
        switch json {
        case .null, .bool, .number, .string:
            parsed = literal(StyleValue(json: json), ctx)
        case .object:
            throw fail(ctx.path, "a bare object is not an expression; write [\"literal\", {...}]")
        case .array(let items):
            guard let first = items.first else {
                throw fail(ctx.path, "an expression needs at least an operator; write [\"literal\", []] for an empty array")
            }
            guard case .string(let name) = first else {
                throw fail("\(ctx.path)[0]", "expected an expression name (a string), found \(first.compactText); write [\"literal\", [...]] for an array")
            }
            if allowsInternal && name == ExpressionParser.internalNull {
                return Typed(node: LiteralNode(.null), type: ctx.expected ?? .value)
            }
            guard let op = Operator(rawValue: name) else {
                throw fail("\(ctx.path)[0]", "unknown expression \(JSON.string(name).compactText)")
            }
            parsed = try parseOperator(op, items, ctx)
        }
        if let expected = ctx.expected {
            parsed = try fit(parsed, to: expected, annotation: annotation, json: json, ctx)
        }
        if !(parsed.node is LiteralNode) && parsed.node.isConstantExpression {
            var frame = Frame(slotCount: slotCount)
            do {
                parsed.node = LiteralNode(try parsed.node.evaluate(EvaluationContext(zoom: 0), &frame))
            } catch let error as StyleError {
                throw fail(ctx.path, error.description)
            }
        }
        return parsed
    }

    /// MapLibre's annotation rules: an untyped value where a number, string, boolean, object or
    /// array is expected is asserted; a string or untyped value where a colour is expected is
    /// coerced, and so is an untyped value where formatted text is expected; anything else must
    /// already be a subtype.
    func fit(_ parsed: Typed, to expected: ValueType, annotation: Annotation?, json: JSON, _ ctx: ParseContext) throws -> Typed {
        let actual = parsed.type
        switch expected.kind {
        case .string where ctx.coercesToString:
            if actual == .value { return annotate(parsed, expected, annotation ?? .coerce) }
        case .string, .number, .boolean, .object, .array:
            if actual == .value { return annotate(parsed, expected, annotation ?? .assert) }
        case .color:
            if actual == .value || actual == .string { return annotate(parsed, expected, annotation ?? .coerce) }
        case .formatted:
            if actual == .value { return annotate(parsed, expected, annotation ?? .coerce) }
        default:
            break
        }
        guard expected.accepts(actual) else {
            throw fail(ctx.path, "expected \(expected), found \(found(json, actual))")
        }
        return parsed
    }

    func annotate(_ parsed: Typed, _ type: ValueType, _ annotation: Annotation) -> Typed {
        switch annotation {
        case .omit:
            return parsed
        case .coerce where type == .string || type == .number || type == .boolean || type == .color || type == .formatted:
            return Typed(node: CoercionNode(type, [parsed.node]), type: type)
        case .assert, .coerce:
            return Typed(node: AssertionNode(type, [parsed.node]), type: type)
        }
    }

    /// What was found, for messages: literal JSON as text, anything else by its type.
    func found(_ json: JSON, _ type: ValueType) -> String {
        switch json {
        case .null, .bool, .number, .string: return json.compactText
        case .array(let items) where items.count == 2 && items[0] == .string("literal"): return items[1].compactText
        default: return type.description
        }
    }

    func literal(_ value: StyleValue, _ ctx: ParseContext) -> Typed {
        var type = value.valueType
        if case .array(.value, 0) = type, case .array(_, let count)? = ctx.expected, count == nil || count == 0,
           let expected = ctx.expected {
            type = expected
        }
        return Typed(node: LiteralNode(value), type: type)
    }

    func checkArity(_ items: [JSON], _ counts: ClosedRange<Int>, _ ctx: ParseContext) throws {
        let n = items.count - 1
        guard counts.contains(n) else {
            let wanted: String
            if counts.lowerBound == counts.upperBound {
                wanted = "\(counts.lowerBound) argument\(counts.lowerBound == 1 ? "" : "s")"
            } else if counts.upperBound == Int.max {
                wanted = "at least \(counts.lowerBound) argument\(counts.lowerBound == 1 ? "" : "s")"
            } else {
                wanted = "\(counts.lowerBound) to \(counts.upperBound) arguments"
            }
            throw fail(ctx.path, "expected \(wanted), found \(n)")
        }
    }

    func parseOperator(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        switch op {
        case .literal:
            try checkArity(items, 1...1, ctx)
            return literal(StyleValue(json: items[1]), ctx)
        case .get, .has:
            try checkArity(items, 1...2, ctx)
            let key = try parse(items[1], ctx.argument(1, .string))
            let object = try items.count == 3 ? parse(items[2], ctx.argument(2, .object)) : nil
            var literalName: String?
            if let literal = key.node as? LiteralNode, case .string(let name) = literal.value { literalName = name }
            if op == .get {
                if object == nil, let name = literalName { return Typed(node: PropertyNode(name), type: .value) }
                return Typed(node: GetNode(key.node, object?.node), type: .value)
            }
            if let name = literalName { return Typed(node: HasNode(name: name, key: nil, object: object?.node), type: .boolean) }
            return Typed(node: HasNode(key: key.node, object: object?.node), type: .boolean)
        case .id:
            try checkArity(items, 0...0, ctx)
            return Typed(node: FeatureNode(.id), type: .value)
        case .geometryType:
            try checkArity(items, 0...0, ctx)
            return Typed(node: FeatureNode(.geometryType), type: .string)
        case .properties:
            try checkArity(items, 0...0, ctx)
            return Typed(node: FeatureNode(.properties), type: .object)
        case .zoom:
            try checkArity(items, 0...0, ctx)
            return Typed(node: ZoomNode(), type: .number)
        case .elevation:
            try checkArity(items, 0...0, ctx)
            return Typed(node: ElevationNode(), type: .number)
        case .let:
            return try parseLet(items, ctx)
        case .var:
            guard items.count == 2, case .string(let name) = items[1] else {
                throw fail(ctx.path, "\"var\" takes exactly one string literal argument")
            }
            guard let binding = ctx.scope?.lookup(name) else {
                throw fail("\(ctx.path)[1]", "unknown variable \(JSON.string(name).compactText); bind it with an enclosing \"let\"")
            }
            return Typed(node: VariableNode(slot: binding.slot, bound: binding.node), type: binding.type)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try parseComparison(op, items, ctx)
        case .all, .any, .not, .match, .case, .coalesce, .step, .interpolate, .interpolateHCL, .interpolateLab:
            return try parseControl(op, items, ctx)
        case .format:
            return try parseFormat(items, ctx)
        case .numberFormat:
            return try parseNumberFormat(items, ctx)
        case .within, .distance: return try parseGeometryOperator(op, items, ctx)
        case .collator, .resolvedLocale, .isSupportedScript, .image, .lineProgress: return try parseTextOperator(op, items, ctx)
        case .heatmapDensity: return try parseHeatmapDensity(items, ctx)
        case .featureState, .globalState:
            return try parseState(op, items, ctx)
        default:
            return try parseFunction(op, items, ctx)
        }
    }

    func parseLet(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 3...Int.max, ctx)
        guard items.count % 2 == 0 else { throw fail(ctx.path, "expected name-value pairs followed by one expression") }
        var bindings: [Node] = []
        var scope = ctx.scope
        for i in stride(from: 1, to: items.count - 1, by: 2) {
            guard case .string(let name) = items[i] else {
                throw fail("\(ctx.path)[\(i)]", "expected a variable name (a string), found \(items[i].compactText)")
            }
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) }) else {
                throw fail("\(ctx.path)[\(i)]", "variable names may contain only letters, digits and '_'")
            }
            // Bound values see the enclosing scope only, not their siblings.
            let value = try parse(items[i + 1], ParseContext(path: "\(ctx.path)[\(i + 1)]", expected: nil, scope: ctx.scope))
            bindings.append(value.node)
            scope = Scope(name: name, slot: slotCount, node: value.node, type: value.type, parent: scope)
            slotCount += 1
        }
        let last = items.count - 1
        let body = try parse(items[last], ParseContext(path: "\(ctx.path)[\(last)]", expected: ctx.expected, scope: scope,
                                                       coercesToString: ctx.coercesToString))
        return Typed(node: LetNode(bindings: bindings, body: body.node), type: body.type)
    }

    func parseComparison(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        let compare: CompareOp
        switch op {
        case .equal: compare = .equal
        case .notEqual: compare = .notEqual
        case .less: compare = .less
        case .lessOrEqual: compare = .lessOrEqual
        case .greater: compare = .greater
        default: compare = .greaterOrEqual
        }
        if items.count == 4 { return try parseCollatedComparison(compare, items, ctx) }
        try checkArity(items, 2...2, ctx)
        var lhs = try parse(items[1], ctx.argument(1, .value))
        var rhs = try parse(items[2], ctx.argument(2, .value))
        func comparable(_ t: ValueType) -> Bool {
            switch t.kind {
            case .string, .number, .value: return true
            case .boolean, .null: return !compare.isOrdering
            default: return false
            }
        }
        for (index, side) in [(1, lhs), (2, rhs)] where !comparable(side.type) {
            throw fail("\(ctx.path)[\(index)]", "\"\(compare.symbol)\" comparisons are not supported for type \(side.type)")
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            throw fail(ctx.path, "cannot compare types \(lhs.type) and \(rhs.type)")
        }
        if compare.isOrdering {
            if lhs.type == .value && rhs.type != .value {
                lhs = Typed(node: AssertionNode(rhs.type, [lhs.node]), type: rhs.type)
            } else if lhs.type != .value && rhs.type == .value {
                rhs = Typed(node: AssertionNode(lhs.type, [rhs.node]), type: lhs.type)
            }
        }
        let checked = compare.isOrdering && lhs.type == .value && rhs.type == .value
        return Typed(node: CompareNode(compare, lhs.node, rhs.node, checked: checked), type: .boolean)
    }
}
