import Foundation

/// A compiled expression node: an immutable tree of final classes, one per operation, with
/// arguments already parsed, typed and (where constant) folded.
///
/// Evaluation is a virtual call per node reading its own stored fields; the context is passed
/// down as a borrowed parameter, so walking the tree copies nothing and looks nothing up by name.
class Node: @unchecked Sendable {
    /// The sub-expressions, in argument order (a `var`'s bound expression belongs to its `let`).
    let children: [Node]
    /// Nothing in this subtree reads the feature.
    let isFeatureConstant: Bool
    /// No `["zoom"]` in this subtree.
    let isZoomConstant: Bool

    init(_ children: [Node], readsFeature: Bool = false, readsZoom: Bool = false) {
        self.children = children
        self.isFeatureConstant = !readsFeature && children.allSatisfy(\.isFeatureConstant)
        self.isZoomConstant = !readsZoom && children.allSatisfy(\.isZoomConstant)
    }

    /// The node's value; every subclass overrides this.
    func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { .null }

    /// Assertions and coercions, which constant folding looks through.
    var isAnnotation: Bool { false }

    func number(_ c: EvaluationContext, _ f: inout Frame) throws -> Double {
        let value = try evaluate(c, &f)
        guard case .number(let n) = value else { throw StyleError("expected number, found \(value.compactText)") }
        return n
    }

    func string(_ c: EvaluationContext, _ f: inout Frame) throws -> String {
        let value = try evaluate(c, &f)
        guard case .string(let text) = value else { throw StyleError("expected string, found \(value.compactText)") }
        return text
    }

    func boolean(_ c: EvaluationContext, _ f: inout Frame) throws -> Bool {
        let value = try evaluate(c, &f)
        guard case .bool(let b) = value else { throw StyleError("expected boolean, found \(value.compactText)") }
        return b
    }

    /// MapLibre's `isExpressionConstant`: whether parsing may evaluate this node once and
    /// replace it by a literal. Type annotations look through their arguments, other nodes
    /// need literal arguments; nothing that reads the zoom or the feature is constant.
    var isConstantExpression: Bool {
        if let variable = self as? VariableNode { return variable.bound.isConstantExpression }
        let argumentsConstant = isAnnotation
            ? children.allSatisfy(\.isConstantExpression)
            : children.allSatisfy { $0 is LiteralNode }
        return argumentsConstant && isFeatureConstant && isZoomConstant
    }

    /// MapLibre's `findZoomCurve`: the one `step`/`interpolate` whose input is `["zoom"]`,
    /// allowed at the top or inside `let` bodies and `coalesce` arguments only. Each child is
    /// visited once.
    func findZoomCurve() -> Result<Node?, StyleError> {
        var childCurves: [Node?] = []
        for child in children {
            switch child.findZoomCurve() {
            case .failure(let e): return .failure(e)
            case .success(let curve): childCurves.append(curve)
            }
        }
        var result: Node?
        var source: Int?
        if let node = self as? LetNode {
            source = node.children.count - 1
            result = childCurves.last ?? nil
        } else if self is CoalesceNode, let i = childCurves.firstIndex(where: { $0 != nil }) {
            source = i
            result = childCurves[i]
        } else if let step = self as? StepNode, step.input is ZoomNode {
            result = self
        } else if let interpolate = self as? InterpolateNode, interpolate.input is ZoomNode {
            result = self
        }
        for (i, curve) in childCurves.enumerated() where curve != nil {
            if result == nil {
                return .failure(StyleError("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression"))
            }
            if i != source {
                return .failure(StyleError("only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression"))
            }
        }
        return .success(result)
    }
}

/// The mutable part of one evaluation: the values of `let` bindings already computed (each
/// binding is evaluated at most once per evaluation).
struct Frame {
    var slots: [StyleValue?]

    init(slotCount: Int) {
        slots = slotCount == 0 ? [] : Array(repeating: nil, count: slotCount)
    }
}

// MARK: Values and lookups

final class LiteralNode: Node, @unchecked Sendable {
    let value: StyleValue
    init(_ value: StyleValue) {
        self.value = value
        super.init([])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { value }
}

/// `["get", "name"]` with a literal name.
final class PropertyNode: Node, @unchecked Sendable {
    let name: String
    init(_ name: String) {
        self.name = name
        super.init([], readsFeature: true)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        c.feature?.properties[name] ?? .null
    }
}

/// `get` with a computed name or from an object.
final class GetNode: Node, @unchecked Sendable {
    let key: Node
    let object: Node?
    init(_ key: Node, _ object: Node?) {
        self.key = key
        self.object = object
        super.init(object.map { [key, $0] } ?? [key], readsFeature: object == nil)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let name = try key.string(c, &f)
        guard let object else { return c.feature?.properties[name] ?? .null }
        guard case .object(let members) = try object.evaluate(c, &f) else { return .null }
        return members[name] ?? .null
    }
}

/// `has`, with a literal name (`key` nil) or a computed one, on the feature or an object.
final class HasNode: Node, @unchecked Sendable {
    let name: String
    let key: Node?
    let object: Node?
    init(name: String = "", key: Node?, object: Node?) {
        self.name = name
        self.key = key
        self.object = object
        super.init([key, object].compactMap { $0 }, readsFeature: object == nil)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let name = try key?.string(c, &f) ?? self.name
        guard let object else { return .bool(c.feature?.properties[name] != nil) }
        guard case .object(let members) = try object.evaluate(c, &f) else { return .bool(false) }
        return .bool(members[name] != nil)
    }
}

final class ZoomNode: Node, @unchecked Sendable {
    init() { super.init([], readsZoom: true) }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { .number(c.zoom) }
}

/// `id`, `geometry-type` and `properties`.
final class FeatureNode: Node, @unchecked Sendable {
    enum Part { case id, geometryType, properties }
    let part: Part
    init(_ part: Part) {
        self.part = part
        super.init([], readsFeature: true)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        guard let feature = c.feature else { return part == .properties ? .object([:]) : .null }
        switch part {
        case .id: return feature.id ?? .null
        case .geometryType: return .string(feature.geometryType)
        case .properties: return .object(feature.properties.dictionary)
        }
    }
}

/// `let`: bindings (children before the last) and the body (the last child).
final class LetNode: Node, @unchecked Sendable {
    let body: Node
    init(bindings: [Node], body: Node) {
        self.body = body
        super.init(bindings + [body])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { try body.evaluate(c, &f) }
}

/// `var`: the value of the binding in `slot`, computed from `bound` on first use.
final class VariableNode: Node, @unchecked Sendable {
    let slot: Int
    let bound: Node
    init(slot: Int, bound: Node) {
        self.slot = slot
        self.bound = bound
        super.init([])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        guard slot < f.slots.count else { return try bound.evaluate(c, &f) }
        if let cached = f.slots[slot] { return cached }
        let value = try bound.evaluate(c, &f)
        f.slots[slot] = value
        return value
    }
}
