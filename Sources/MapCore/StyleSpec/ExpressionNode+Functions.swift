import Foundation

// Nodes with fixed signatures: type assertions and conversions, `typeof`, math, strings,
// arrays and colours. Their JavaScript-flavoured semantics live in `Values`.

/// `number`, `string`, `boolean`, `object`, `array`: the first argument of the type.
final class AssertionNode: Node, @unchecked Sendable {
    let type: ValueType
    init(_ type: ValueType, _ args: [Node]) {
        self.type = type
        super.init(args)
    }
    override var isAnnotation: Bool { true }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        var last = StyleValue.null
        for node in children {
            last = try node.evaluate(c, &f)
            let fits: Bool
            switch (type, last) {
            case (.number, .number), (.string, .string), (.boolean, .bool), (.object, .object): fits = true
            case (.number, _), (.string, _), (.boolean, _), (.object, _): fits = false
            default: fits = type.accepts(last.valueType)
            }
            if fits { return last }
        }
        throw StyleError("expected \(type), found \(last.compactText)")
    }
}

/// `to-number`, `to-string`, `to-boolean`, `to-color` (by the target type), and the implicit
/// coercion of an untyped value where formatted text is expected.
final class CoercionNode: Node, @unchecked Sendable {
    let type: ValueType
    init(_ type: ValueType, _ args: [Node]) {
        self.type = type
        super.init(args)
    }
    override var isAnnotation: Bool { true }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        switch type {
        case .boolean:
            guard let node = children.first else { return .bool(false) }
            return .bool(Values.truthy(try node.evaluate(c, &f)))
        case .number:
            var last = StyleValue.null
            for node in children {
                last = try node.evaluate(c, &f)
                if case .null = last { return .number(0) }
                let n = Values.jsNumber(last)
                if !n.isNaN { return .number(n) }
            }
            throw StyleError("could not convert \(last.compactText) to number")
        case .color:
            var last = StyleValue.null
            var problem: String?
            for node in children {
                last = try node.evaluate(c, &f)
                switch Values.color(from: last) {
                case .success(let color): return .color(color)
                case .failure(let error): problem = error.description
                }
            }
            throw StyleError(problem ?? "expected color, found \(last.compactText)")
        case .formatted:
            // Formatted text passes through, so `["coalesce", ["get", "label"], ["format", ...]]`
            // keeps its sections (MapLibre flattens it to plain text here); anything else is
            // text of one plain section, which stays a string.
            guard let node = children.first else { return .string("") }
            let value = try node.evaluate(c, &f)
            if case .formatted = value { return value }
            return .string(value.toStringText)
        default:
            guard let node = children.first else { return .string("") }
            return .string(try node.evaluate(c, &f).toStringText)
        }
    }
}

final class TypeOfNode: Node, @unchecked Sendable {
    init(_ arg: Node) { super.init([arg]) }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        guard let node = children.first else { return .string("null") }
        return .string(try node.evaluate(c, &f).valueType.description)
    }
}

/// The numeric operators.
final class MathNode: Node, @unchecked Sendable {
    enum Op: Sendable {
        case add, multiply, min, max
        case subtract, divide, remainder, power
        case negate, sqrt, abs, floor, ceil, round, ln, log10, log2, sin, cos, tan, asin, acos, atan
    }
    let op: Op
    init(_ op: Op, _ args: [Node]) {
        self.op = op
        super.init(args)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        switch op {
        case .add:
            var sum = 0.0
            for node in children { sum += try node.number(c, &f) }
            return .number(sum)
        case .multiply:
            var product = 1.0
            for node in children { product *= try node.number(c, &f) }
            return .number(product)
        case .min, .max:
            // Math.min / Math.max: NaN wins, no arguments give +/-Infinity.
            var result = op == .min ? Double.infinity : -Double.infinity
            for node in children {
                let v = try node.number(c, &f)
                result = v.isNaN || result.isNaN ? .nan : (op == .min ? Swift.min(result, v) : Swift.max(result, v))
            }
            return .number(result)
        case .subtract, .divide, .remainder, .power:
            guard children.count == 2 else { return .null }
            let a = try children[0].number(c, &f), b = try children[1].number(c, &f)
            return .number(Values.binary(op, a, b))
        default:
            guard let node = children.first else { return .null }
            return .number(Values.unary(op, try node.number(c, &f)))
        }
    }
}

/// `length`, `at`, `in`, `index-of` and `slice`.
final class CollectionNode: Node, @unchecked Sendable {
    enum Op: Sendable { case length, at, contains, indexOf, slice }
    let op: Op
    init(_ op: Op, _ args: [Node]) {
        self.op = op
        super.init(args)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let args = children
        guard let first = args.first else { return .null }
        switch op {
        case .length:
            return try Values.length(first.evaluate(c, &f))
        case .at:
            guard args.count == 2 else { return .null }
            let index = try first.number(c, &f)
            return try Values.at(index, args[1].evaluate(c, &f))
        case .contains:
            guard args.count == 2 else { return .null }
            let needle = try first.evaluate(c, &f)
            return .bool(try Values.contains(needle, args[1].evaluate(c, &f)))
        case .indexOf:
            guard args.count >= 2 else { return .null }
            let needle = try first.evaluate(c, &f)
            let haystack = try args[1].evaluate(c, &f)
            let from = try args.count > 2 ? args[2].number(c, &f) : nil
            return .number(try Values.indexOf(needle, haystack, from: from))
        case .slice:
            guard args.count >= 2 else { return .null }
            let input = try first.evaluate(c, &f)
            let begin = try args[1].number(c, &f)
            let end = try args.count > 2 ? args[2].number(c, &f) : nil
            return try Values.slice(input, begin, end)
        }
    }
}

/// `concat`, `upcase` and `downcase`.
final class TextNode: Node, @unchecked Sendable {
    enum Op: Sendable { case concat, upcase, downcase }
    let op: Op
    init(_ op: Op, _ args: [Node]) {
        self.op = op
        super.init(args)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        switch op {
        case .concat:
            var text = ""
            for node in children { text += try node.evaluate(c, &f).toStringText }
            return .string(text)
        case .upcase, .downcase:
            guard let node = children.first else { return .null }
            let text = try node.string(c, &f)
            return .string(op == .upcase ? text.uppercased() : text.lowercased())
        }
    }
}

/// `rgb`/`rgba` (three or four number children) and `to-rgba` (one colour child).
final class ColorNode: Node, @unchecked Sendable {
    let toComponents: Bool
    init(toComponents: Bool, _ args: [Node]) {
        self.toComponents = toComponents
        super.init(args)
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        if toComponents {
            guard let node = children.first, case .color(let color) = try node.evaluate(c, &f) else {
                throw StyleError("expected a color")
            }
            return .array([.number(color.r * 255), .number(color.g * 255), .number(color.b * 255), .number(color.a)])
        }
        var components: [Double] = []
        for node in children { components.append(try node.number(c, &f)) }
        guard components.count >= 3 else { return .null }
        return .color(try Values.rgba(components[0], components[1], components[2], components.count > 3 ? components[3] : nil))
    }
}
