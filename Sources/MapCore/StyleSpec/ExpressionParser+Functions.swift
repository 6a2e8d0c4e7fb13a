import Foundation

/// Parsing of the operators with fixed signatures: type assertions and conversions, math,
/// strings, arrays and colours.
extension ExpressionParser {
    func parseFunction(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        switch op {
        case .number, .string, .boolean, .object, .array:
            return try parseAssertion(op, items, ctx)
        case .toNumber, .toColor:
            try checkArity(items, 1...Int.max, ctx)
            return Typed(node: CoercionNode(op == .toNumber ? .number : .color, try values(items, from: 1, ctx)),
                         type: op == .toNumber ? .number : .color)
        case .toString, .toBoolean:
            try checkArity(items, 1...1, ctx)
            return Typed(node: CoercionNode(op == .toString ? .string : .boolean, try values(items, from: 1, ctx)),
                         type: op == .toString ? .string : .boolean)
        case .typeOf:
            try checkArity(items, 1...1, ctx)
            return Typed(node: TypeOfNode(try parse(items[1], ctx.argument(1, .value)).node), type: .string)
        case .e, .pi, .ln2:
            try checkArity(items, 0...0, ctx)
            let value = op == .e ? M_E : op == .pi ? Double.pi : M_LN2
            return Typed(node: LiteralNode(.number(value)), type: .number)
        case .plus, .times, .min, .max:
            let args = try numbers(items, ctx)
            let variadic: MathNode.Op = op == .plus ? .add : op == .times ? .multiply : op == .min ? .min : .max
            return Typed(node: MathNode(variadic, args), type: .number)
        case .minus:
            try checkArity(items, 1...2, ctx)
            let args = try numbers(items, ctx)
            return Typed(node: MathNode(args.count == 1 ? .negate : .subtract, args), type: .number)
        case .divide, .remainder, .power:
            try checkArity(items, 2...2, ctx)
            let args = try numbers(items, ctx)
            let binary: MathNode.Op = op == .divide ? .divide : op == .remainder ? .remainder : .power
            return Typed(node: MathNode(binary, args), type: .number)
        case .sqrt, .abs, .floor, .ceil, .round, .ln, .log10, .log2, .sin, .cos, .tan, .asin, .acos, .atan:
            try checkArity(items, 1...1, ctx)
            return Typed(node: MathNode(unaryOp(op), try numbers(items, ctx)), type: .number)
        case .length:
            try checkArity(items, 1...1, ctx)
            let input = try parse(items[1], ctx.argument(1))
            switch input.type.kind {
            case .array, .string, .value: return Typed(node: CollectionNode(.length, [input.node]), type: .number)
            default: throw fail(ctx.path, "expected an argument of type string or array, found \(found(items[1], input.type))")
            }
        case .at:
            try checkArity(items, 2...2, ctx)
            let index = try parse(items[1], ctx.argument(1, .number))
            let array = try parse(items[2], ctx.argument(2, .array(ctx.expected ?? .value, nil)))
            guard case .array(let item, _) = array.type else {
                throw fail("\(ctx.path)[2]", "expected an array, found \(array.type)")
            }
            return Typed(node: CollectionNode(.at, [index.node, array.node]), type: item)
        case .in, .indexOf:
            try checkArity(items, op == .in ? 2...2 : 2...3, ctx)
            let needle = try parse(items[1], ctx.argument(1, .value))
            let haystack = try parse(items[2], ctx.argument(2, .value))
            switch needle.type.kind {
            case .boolean, .string, .number, .null, .value: break
            default: throw fail(ctx.path, "expected the first argument to be of type boolean, string, number or null, found \(needle.type)")
            }
            if op == .in { return Typed(node: CollectionNode(.contains, [needle.node, haystack.node]), type: .boolean) }
            let from = try items.count == 4 ? parse(items[3], ctx.argument(3, .number)).node : nil
            return Typed(node: CollectionNode(.indexOf, [needle.node, haystack.node] + (from.map { [$0] } ?? [])), type: .number)
        case .slice:
            try checkArity(items, 2...3, ctx)
            let input = try parse(items[1], ctx.argument(1, .value))
            let begin = try parse(items[2], ctx.argument(2, .number))
            let end = try items.count == 4 ? parse(items[3], ctx.argument(3, .number)).node : nil
            let type: ValueType
            switch input.type {
            case .array(let item, _): type = .array(item, nil)
            case .string, .value: type = input.type
            default: throw fail(ctx.path, "expected the first argument to be of type array or string, found \(input.type)")
            }
            return Typed(node: CollectionNode(.slice, [input.node, begin.node] + (end.map { [$0] } ?? [])), type: type)
        case .concat:
            return Typed(node: TextNode(.concat, try values(items, from: 1, ctx)), type: .string)
        case .upcase, .downcase:
            try checkArity(items, 1...1, ctx)
            let s = try parse(items[1], ctx.argument(1, .string)).node
            return Typed(node: TextNode(op == .upcase ? .upcase : .downcase, [s]), type: .string)
        case .rgb, .rgba:
            try checkArity(items, op == .rgb ? 3...3 : 4...4, ctx)
            let c = try numbers(items, ctx)
            return Typed(node: ColorNode(toComponents: false, c), type: .color)
        case .toRGBA:
            try checkArity(items, 1...1, ctx)
            return Typed(node: ColorNode(toComponents: true, [try parse(items[1], ctx.argument(1, .color)).node]), type: .array(.number, 4))
        default:
            throw fail("\(ctx.path)[0]", "unknown expression \"\(op.rawValue)\"")
        }
    }

    /// `number`, `string`, `boolean`, `object` and `array` (with optional item type and length).
    func parseAssertion(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 1...Int.max, ctx)
        var first = 1
        let type: ValueType
        switch op {
        case .number: type = .number
        case .string: type = .string
        case .boolean: type = .boolean
        case .object: type = .object
        default:
            var item = ValueType.value
            var count: Int?
            if items.count > 2 {
                switch items[1] {
                case .string("string"): item = .string
                case .string("number"): item = .number
                case .string("boolean"): item = .boolean
                default:
                    throw fail("\(ctx.path)[1]", "the item type argument of \"array\" must be one of string, number, boolean")
                }
                first = 2
            }
            if items.count > 3 {
                switch items[2] {
                case .null: break
                case .number(let n) where n >= 0 && n.rounded(.down) == n && n <= Double(Int32.max):
                    count = Int(n)
                default:
                    throw fail("\(ctx.path)[2]", "the length argument to \"array\" must be a positive integer literal")
                }
                first = 3
            }
            type = .array(item, count)
        }
        return Typed(node: AssertionNode(type, try values(items, from: first, ctx)), type: type)
    }

    /// Arguments `from...` parsed as untyped values.
    func values(_ items: [JSON], from first: Int, _ ctx: ParseContext) throws -> [Node] {
        guard first < items.count else { return [] }
        return try (first..<items.count).map { try parse(items[$0], ctx.argument($0, .value)).node }
    }

    /// All arguments parsed as numbers.
    func numbers(_ items: [JSON], _ ctx: ParseContext) throws -> [Node] {
        guard items.count > 1 else { return [] }
        return try (1..<items.count).map { try parse(items[$0], ctx.argument($0, .number)).node }
    }

    func unaryOp(_ op: Operator) -> MathNode.Op {
        switch op {
        case .sqrt: return .sqrt
        case .abs: return .abs
        case .floor: return .floor
        case .ceil: return .ceil
        case .round: return .round
        case .ln: return .ln
        case .log10: return .log10
        case .log2: return .log2
        case .sin: return .sin
        case .cos: return .cos
        case .tan: return .tan
        case .asin: return .asin
        case .acos: return .acos
        default: return .atan
        }
    }
}
