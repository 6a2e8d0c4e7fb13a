import Foundation

// Comparison and decision nodes: `==` ... `>=`, `all`, `any`, `!`, `match`, `case`,
// `coalesce` and `step`.

enum CompareOp: Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    var symbol: String {
        switch self {
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }

    var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// A comparison; `checked` when both operands are untyped and an ordering needs a run-time
/// check that both are numbers or both strings.
final class CompareNode: Node, @unchecked Sendable {
    let op: CompareOp
    let lhs: Node
    let rhs: Node
    let checked: Bool
    init(_ op: CompareOp, _ lhs: Node, _ rhs: Node, checked: Bool) {
        self.op = op
        self.lhs = lhs
        self.rhs = rhs
        self.checked = checked
        super.init([lhs, rhs])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let a = try lhs.evaluate(c, &f)
        let b = try rhs.evaluate(c, &f)
        return .bool(try Values.compare(op, a, b))
    }
}

/// `all`, `any` (short-circuiting) and `!`.
final class LogicNode: Node, @unchecked Sendable {
    enum Kind { case all, any, not }
    let kind: Kind
    init(_ kind: Kind, _ args: [Node]) {
        self.kind = kind
        super.init(args)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        switch kind {
        case .all:
            for node in children {
                if try !node.boolean(c, &f) { return .bool(false) }
            }
            return .bool(true)
        case .any:
            for node in children {
                if try node.boolean(c, &f) { return .bool(true) }
            }
            return .bool(false)
        case .not:
            guard let node = children.first else { return .bool(true) }
            return .bool(try !node.boolean(c, &f))
        }
    }
}

/// `match` on number labels (`numberCases`) or string labels (`stringCases`): the output at
/// the label's index, else `otherwise`. An input of the other type takes `otherwise`.
final class MatchNode: Node, @unchecked Sendable {
    let input: Node
    let numberCases: [Double: Int]?
    let stringCases: [String: Int]?
    let outputs: [Node]
    let otherwise: Node
    init(input: Node, numberCases: [Double: Int]?, stringCases: [String: Int]?, outputs: [Node], otherwise: Node) {
        self.input = input
        self.numberCases = numberCases
        self.stringCases = stringCases
        self.outputs = outputs
        self.otherwise = otherwise
        super.init([input] + outputs + [otherwise])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let index: Int?
        switch try input.evaluate(c, &f) {
        case .number(let n): index = numberCases?[n]
        case .string(let s): index = stringCases?[s]
        default: index = nil
        }
        if let index, index < outputs.count { return try outputs[index].evaluate(c, &f) }
        return try otherwise.evaluate(c, &f)
    }
}

/// `case`: the output of the first true condition, else `otherwise`.
final class CaseNode: Node, @unchecked Sendable {
    let conditions: [Node]
    let outputs: [Node]
    let otherwise: Node
    init(conditions: [Node], outputs: [Node], otherwise: Node) {
        self.conditions = conditions
        self.outputs = outputs
        self.otherwise = otherwise
        var all: [Node] = []
        for (condition, output) in zip(conditions, outputs) { all += [condition, output] }
        super.init(all + [otherwise])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        for i in 0..<Swift.min(conditions.count, outputs.count) {
            if try conditions[i].boolean(c, &f) { return try outputs[i].evaluate(c, &f) }
        }
        return try otherwise.evaluate(c, &f)
    }
}

/// `coalesce`: the first non-null argument value.
final class CoalesceNode: Node, @unchecked Sendable {
    let hasImages: Bool
    init(_ args: [Node]) { hasImages = args.contains { $0 is ImageNode }; super.init(args) }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        if hasImages { return try ImageNode.coalesce(children, c, &f) }
        for node in children {
            let value = try node.evaluate(c, &f)
            if case .null = value { continue }
            return value
        }
        return .null
    }
}

/// `step`: the output of the last label <= input (the first label is -infinity).
final class StepNode: Node, @unchecked Sendable {
    let input: Node
    let labels: [Double]
    let outputs: [Node]
    init(input: Node, labels: [Double], outputs: [Node]) {
        self.input = input
        self.labels = labels
        self.outputs = outputs
        super.init([input] + outputs)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let value = try input.number(c, &f)
        let index = try Values.stopIndex(labels, value)
        guard index < outputs.count else { return .null }
        return try outputs[index].evaluate(c, &f)
    }
}
