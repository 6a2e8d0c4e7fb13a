import Foundation

/// Parsing of `collator`, `resolved-locale`, `is-supported-script`, `image` and
/// `line-progress`, and of comparisons given a collator.
extension ExpressionParser {
    func parseTextOperator(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        switch op {
        case .collator:
            try checkArity(items, 1...1, ctx)
            guard case .object(let options) = items[1] else {
                throw fail("\(ctx.path)[1]", "collator options argument must be an object")
            }
            func option(_ name: String, _ type: ValueType) throws -> Node? {
                guard let json = options[name], json != .null else { return nil }
                return try parse(json, ParseContext(path: "\(ctx.path)[1].\(name)", expected: type, scope: ctx.scope)).node
            }
            let node = CollatorNode(caseSensitive: try option("case-sensitive", .boolean),
                                    diacriticSensitive: try option("diacritic-sensitive", .boolean),
                                    locale: try option("locale", .string))
            return Typed(node: node, type: .collator)
        case .resolvedLocale:
            try checkArity(items, 1...1, ctx)
            return Typed(node: ResolvedLocaleNode(try collator(items[1], ctx.argument(1))), type: .string)
        case .isSupportedScript:
            try checkArity(items, 1...1, ctx)
            return Typed(node: SupportedScriptNode(try parse(items[1], ctx.argument(1, .string)).node), type: .boolean)
        case .image:
            try checkArity(items, 1...1, ctx)
            return Typed(node: ImageNode(try parse(items[1], ctx.argument(1, .string)).node), type: .string)
        default:
            try checkArity(items, 0...0, ctx)
            return Typed(node: LineProgressNode(), type: .number)
        }
    }

    /// A collator argument: `["collator", ...]` or a variable bound to one.
    func collator(_ json: JSON, _ ctx: ParseContext) throws -> CollatorNode {
        let parsed = try parse(json, ParseContext(path: ctx.path, expected: nil, scope: ctx.scope))
        guard parsed.type == .collator, let node = CollatorNode.behind(parsed.node) else {
            throw fail(ctx.path, "expected collator, found \(found(json, parsed.type))")
        }
        return node
    }

    /// `[op, lhs, rhs, collator]`: strings (or untyped values) compared by the collator.
    func parseCollatedComparison(_ compare: CompareOp, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        let lhs = try parse(items[1], ctx.argument(1, .value))
        let rhs = try parse(items[2], ctx.argument(2, .value))
        let kinds: [ValueType.Kind] = [.string, .value]
        guard kinds.contains(lhs.type.kind) || kinds.contains(rhs.type.kind) else {
            throw fail(ctx.path, "cannot use collator to compare non-string types")
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            throw fail(ctx.path, "cannot compare types \(lhs.type) and \(rhs.type)")
        }
        let node = CollatedCompareNode(compare, lhs.node, rhs.node, collator: try collator(items[3], ctx.argument(3)))
        return Typed(node: node, type: .boolean)
    }
}

extension Node {
    /// Whether `["line-progress"]` appears in this subtree (it may only in `line-gradient`).
    var readsLineProgress: Bool {
        self is LineProgressNode || children.contains { $0.readsLineProgress }
    }

    /// Whether something in this subtree other than `line-progress` reads the feature.
    var readsFeatureBesidesLineProgress: Bool {
        if self is LineProgressNode || isFeatureConstant { return false }
        // Not feature-constant though its children are: the node itself reads the feature.
        if children.allSatisfy(\.isFeatureConstant) { return true }
        return children.contains { $0.readsFeatureBesidesLineProgress }
    }
}

/// Where `line-progress` may appear: only in `line-gradient`, whose expression may read nothing
/// else (no zoom, no feature data), as the style specification has it.
enum LineProgressRule {
    static func check(_ e: StyleExpression, _ spec: PropertySpec, _ path: String) throws {
        guard spec.name == "line-gradient" else {
            if e.node.readsLineProgress { throw StyleError("\(path): \"line-progress\" is only allowed in line-gradient") }
            return
        }
        if e.isZoomDependent { throw StyleError("\(path): zoom expressions not supported") }
        if e.node.readsFeatureBesidesLineProgress { throw StyleError("\(path): data expressions not supported") }
    }
}
