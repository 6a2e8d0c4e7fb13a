import Foundation

/// A layer's `filter`: an expression filter or a legacy filter, told apart as MapLibre's
/// `isExpressionFilter` does (with its latest refinement: `["has", key]` and booleans read the
/// same in both syntaxes and decide nothing).
///
/// An `all`, `any` or `none` whose children mix the two syntaxes is evaluated child by child,
/// each child in its own syntax; a legacy filter under an expression-only operator (`!`,
/// `case`) is an error rather than a silently different expression.
///
/// Legacy filters: `["==", key, value]`, `["!=", ...]`, `["<", ...]`, `["<=", ...]`,
/// `[">", ...]`, `[">=", ...]`, `["in", key, v...]`, `["!in", ...]`, `["has", key]`,
/// `["!has", key]`, `["all", ...]`, `["any", ...]`, `["none", ...]`, where the key `$type`
/// compares the geometry type and `$id` the feature id. Comparisons are strict: a property of
/// another type, or a missing one, never equals (and is never ordered against) the value.
public struct Filter: Sendable {
    let root: Root

    enum Root: Sendable {
        case everything
        case expression(StyleExpression)
        case legacy(LegacyFilter)
    }

    /// A filter that matches every feature (a layer without `filter`).
    public init() {
        root = .everything
    }

    /// Parses `json` (`null` matches everything); `path` names it in errors, e.g.
    /// `layers[2].filter[1]: unknown expression "foo"`.
    public init(json: JSON, path: String) throws {
        if json == .null {
            root = .everything
        } else if Filter.needsLegacyCompilation(json) {
            root = .legacy(try LegacyFilter(json: json, path: path, depth: 0))
        } else {
            try Filter.rejectMixedSyntax(json, path: path)
            root = .expression(try StyleExpression.parse(json, path: path, expected: .boolean))
            if case .expression(let e) = root { try e.rejectFeatureState(path, in: "filters") }
        }
    }

    /// Whether `feature` passes the filter at `zoom` (`global-state` reading `globalState`); an
    /// expression that fails to evaluate does not match.
    public func matches(_ feature: EvaluationFeature, zoom: Double, globalState: [String: StyleValue] = [:]) -> Bool {
        switch root {
        case .everything:
            return true
        case .expression(let expression):
            var c = EvaluationContext(zoom: zoom, feature: feature)
            if !globalState.isEmpty { c.globalState = globalState }
            return (try? expression.evaluate(c)) == .bool(true)
        case .legacy(let filter):
            return filter.matches(feature, zoom: zoom)
        }
    }

    /// Which syntax a filter is written in.
    enum Syntax { case expression, legacy, ambiguous }

    /// MapLibre's `isExpressionFilter`, three-valued: `["has", key]`, booleans and combinators
    /// of only those are `ambiguous` (they mean the same in both syntaxes).
    static func syntax(_ json: JSON) -> Syntax {
        if case .bool = json { return .ambiguous }
        guard case .array(let items) = json, let first = items.first else { return .legacy }
        guard case .string(let op) = first else { return .expression }
        func isArray(_ i: Int) -> Bool {
            guard i < items.count, case .array = items[i] else { return false }
            return true
        }
        switch op {
        case "has":
            if items.count >= 3 { return .expression }
            guard items.count == 2, case .string(let key) = items[1], key != "$id", key != "$type" else { return .legacy }
            return .ambiguous
        case "in":
            guard items.count >= 3 else { return .legacy }
            if case .string = items[1] { return isArray(2) ? .expression : .legacy }
            return .expression
        case "!in", "!has", "none":
            return .legacy
        case "==", "!=", ">", ">=", "<", "<=":
            return items.count != 3 || isArray(1) || isArray(2) ? .expression : .legacy
        case "any", "all":
            let children = items.dropFirst().map(syntax)
            if children.contains(.expression) { return .expression }
            return children.contains(.legacy) ? .legacy : .ambiguous
        default:
            return .expression
        }
    }

    /// Whether `json` must be compiled as a legacy filter: written in legacy syntax, a `none`,
    /// or an `all`/`any` with a legacy part somewhere among its combinators.
    static func needsLegacyCompilation(_ json: JSON) -> Bool {
        if syntax(json) == .legacy { return true }
        guard case .array(let items) = json, case .string(let op)? = items.first else { return false }
        switch op {
        case "none": return true
        case "all", "any": return items.dropFirst().contains(where: needsLegacyCompilation)
        default: return false
        }
    }

    /// Legacy filters inside an expression filter are an error (MapLibre's
    /// `findMixedLegacyFilter`), rather than being read as expressions that compare strings.
    static func rejectMixedSyntax(_ json: JSON, path: String) throws {
        guard case .array(let items) = json, case .string(let op)? = items.first else { return }
        var children: [Int] = []
        switch op {
        case "all", "any", "none": children = Array(1..<items.count)
        case "!": children = items.count > 1 ? [1] : []
        case "case": children = Array(stride(from: 1, to: items.count - 1, by: 2))
        default: return
        }
        for i in children {
            guard case .array = items[i] else { continue }
            if syntax(items[i]) == .legacy {
                throw StyleError("\(path)[\(i)]: legacy filter syntax cannot be mixed with expression syntax; write \(items[i].compactText) as an expression")
            }
            try rejectMixedSyntax(items[i], path: "\(path)[\(i)]")
        }
    }
}

/// A compiled legacy filter.
indirect enum LegacyFilter: Sendable {
    case constant(Bool)
    case compare(CompareOp, Key, StyleValue)
    case membership(Key, [StyleValue], negated: Bool)
    case has(Key, negated: Bool)
    case all([LegacyFilter])
    case any([LegacyFilter])
    case none([LegacyFilter])
    case expression(StyleExpression)

    enum Key: Sendable {
        case geometryType
        case id
        case property(String)

        func value(of feature: EvaluationFeature) -> StyleValue? {
            switch self {
            case .geometryType: return .string(feature.geometryType)
            case .id: return feature.id ?? .null
            case .property(let name): return feature.properties[name]
            }
        }
    }

    init(json: JSON, path: String, depth: Int) throws {
        guard depth < ExpressionParser.maximumDepth else { throw StyleError("\(path): filter nesting too deep") }
        if case .bool(let b) = json {
            self = .constant(b)
            return
        }
        if json == .null {
            self = .constant(true)
            return
        }
        guard case .array(let items) = json else { throw StyleError("\(path): expected a filter array, found \(json.compactText)") }
        guard let first = items.first else {
            self = .constant(true)
            return
        }
        guard case .string(let op) = first else {
            throw StyleError("\(path)[0]: expected a filter operator, found \(first.compactText)")
        }
        if items.count == 1 {
            self = .constant(op != "any")
            return
        }
        func key() throws -> Key {
            guard case .string(let name) = items[1] else {
                throw StyleError("\(path)[1]: expected a property name (string), found \(items[1].compactText)")
            }
            return name == "$type" ? .geometryType : name == "$id" ? .id : .property(name)
        }
        func children() throws -> [LegacyFilter] {
            try items.indices.dropFirst().map { i in
                let childPath = "\(path)[\(i)]"
                if !Filter.needsLegacyCompilation(items[i]) && Filter.syntax(items[i]) == .expression {
                    try Filter.rejectMixedSyntax(items[i], path: childPath)
                    return .expression(try StyleExpression.parse(items[i], path: childPath, expected: .boolean))
                }
                return try LegacyFilter(json: items[i], path: childPath, depth: depth + 1)
            }
        }
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            guard items.count == 3 else { throw StyleError("\(path): expected [\"\(op)\", key, value]") }
            let k = try key()
            let compare: CompareOp = ["==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater][op] ?? .greaterOrEqual
            if case .geometryType = k, compare.isOrdering {
                throw StyleError("\(path): \"$type\" cannot be used with operator \"\(op)\"")
            }
            self = .compare(compare, k, StyleValue(json: items[2]))
        case "in", "!in":
            self = .membership(try key(), items.dropFirst(2).map(StyleValue.init(json:)), negated: op == "!in")
        case "has", "!has":
            self = .has(try key(), negated: op == "!has")
        case "all":
            self = .all(try children())
        case "any":
            self = .any(try children())
        case "none":
            self = .none(try children())
        default:
            throw StyleError("\(path)[0]: unknown filter operator \(JSON.string(op).compactText)")
        }
    }

    func matches(_ feature: EvaluationFeature, zoom: Double) -> Bool {
        switch self {
        case .constant(let b):
            return b
        case .compare(let op, let key, let value):
            guard let actual = key.value(of: feature) else { return op == .notEqual }
            switch op {
            case .equal: return Values.strictEqual(actual, value)
            case .notEqual: return !Values.strictEqual(actual, value)
            default:
                switch (actual, value) {
                case (.number, .number), (.string, .string):
                    return (try? Values.compare(op, actual, value)) ?? false
                case (.bool(let a), .bool(let b)):
                    return (try? Values.compare(op, .number(a ? 1 : 0), .number(b ? 1 : 0))) ?? false
                default:
                    return false
                }
            }
        case .membership(let key, let values, let negated):
            guard let actual = key.value(of: feature) else { return negated }
            return values.contains { Values.strictEqual($0, actual) } != negated
        case .has(let key, let negated):
            let present: Bool
            switch key {
            case .geometryType: present = true
            case .id: present = feature.id.map { $0 != .null } ?? false
            case .property(let name): present = feature.properties[name] != nil
            }
            return present != negated
        case .all(let filters):
            return filters.allSatisfy { $0.matches(feature, zoom: zoom) }
        case .any(let filters):
            return filters.contains { $0.matches(feature, zoom: zoom) }
        case .none(let filters):
            return !filters.contains { $0.matches(feature, zoom: zoom) }
        case .expression(let expression):
            return (try? expression.evaluate(EvaluationContext(zoom: zoom, feature: feature))) == .bool(true)
        }
    }
}
