import Foundation

// `feature-state` and `global-state`: values the map holds outside the style's data, set through
// the state API (`MapModel.setFeatureState`, `setGlobalStateProperty`) and read from the
// evaluation context.

/// `["feature-state", key]`: the feature's state value for `key` (null when unset). Reads the
/// feature, so it is never folded and only data-driven paint properties accept it.
final class FeatureStateNode: Node, @unchecked Sendable {
    /// The key when written as a literal string (no evaluation per feature).
    let name: String?
    let key: Node
    init(key: Node) {
        self.key = key
        if let literal = key as? LiteralNode, case .string(let s) = literal.value { name = s } else { name = nil }
        super.init([key], readsFeature: true)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        if c.featureState.isEmpty { return .null }
        let k = try name ?? key.string(c, &f)
        return c.featureState[k] ?? .null
    }
}

/// `["global-state", name]`: the style's global state property `name` (its value set by
/// `setGlobalStateProperty`, else the root `state` member's default, else null). Depends on
/// neither the zoom nor the feature, but is never folded: the state changes after parsing.
final class GlobalStateNode: Node, @unchecked Sendable {
    let name: String
    init(_ name: String) {
        self.name = name
        super.init([])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        c.globalState[name] ?? .null
    }
    override var isConstantExpression: Bool { false }
}

extension ExpressionParser {
    /// `feature-state` (one string argument, literal or computed) and `global-state` (one
    /// literal string), as MapLibre parses them.
    func parseState(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        if op == .featureState {
            try checkArity(items, 1...1, ctx)
            let key = try parse(items[1], ctx.argument(1, .string))
            return Typed(node: FeatureStateNode(key: key.node), type: .value)
        }
        try checkArity(items, 1...1, ctx)
        guard case .string(let name) = items[1] else {
            throw fail("\(ctx.path)[1]", "global state property must be a string literal, found \(items[1].compactText)")
        }
        return Typed(node: GlobalStateNode(name), type: .value)
    }
}

extension Node {
    /// Whether `self` or a node under it satisfies `test`.
    func containsNode(where test: (Node) -> Bool) -> Bool {
        if test(self) { return true }
        return children.contains { $0.containsNode(where: test) }
    }
}

extension StyleExpression {
    /// Whether the expression reads the feature's state (`feature-state`).
    public var readsFeatureState: Bool { node.containsNode { $0 is FeatureStateNode } }

    /// Whether the expression reads the style's global state (`global-state`).
    public var readsGlobalState: Bool { node.containsNode { $0 is GlobalStateNode } }

    /// MapLibre's rule: `feature-state` only in paint properties, never in layout properties or
    /// filters (`what`: "layout properties" or "filters").
    func rejectFeatureState(_ path: String, in what: String) throws {
        if readsFeatureState {
            throw StyleError("\(path): \"feature-state\" data expressions are not supported with \(what)")
        }
    }
}
