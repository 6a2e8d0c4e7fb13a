import Foundation

/// Parsing of the decision and curve operators: `all`, `any`, `!`, `match`, `case`,
/// `coalesce`, `step` and the `interpolate` family.
extension ExpressionParser {
    func parseControl(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        switch op {
        case .all, .any:
            var nodes: [Node] = []
            for i in 1..<items.count { nodes.append(try parse(items[i], ctx.argument(i, .boolean)).node) }
            return Typed(node: LogicNode(op == .all ? .all : .any, nodes), type: .boolean)
        case .not:
            try checkArity(items, 1...1, ctx)
            return Typed(node: LogicNode(.not, [try parse(items[1], ctx.argument(1, .boolean)).node]), type: .boolean)
        case .match:
            return try parseMatch(items, ctx)
        case .case:
            return try parseCase(items, ctx)
        case .coalesce:
            return try parseCoalesce(items, ctx)
        case .step:
            return try parseStep(items, ctx)
        default:
            return try parseInterpolate(op, items, ctx)
        }
    }

    func parseMatch(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 4...Int.max, ctx)
        guard items.count % 2 == 1 else { throw fail(ctx.path, "expected an even number of arguments") }
        var outputType = ctx.requiredOutput
        var labelType: ValueType?
        var numberCases: [Double: Int] = [:]
        var stringCases: [String: Int] = [:]
        var outputs: [Node] = []
        for i in stride(from: 2, to: items.count - 1, by: 2) {
            let labelPath = "\(ctx.path)[\(i)]"
            var labels = [items[i]]
            if case .array(let list) = items[i] { labels = list }
            guard !labels.isEmpty else { throw fail(labelPath, "expected at least one branch label") }
            for label in labels {
                switch label {
                case .number(let n):
                    guard abs(n) <= 9_007_199_254_740_991 else {
                        throw fail(labelPath, "branch labels must be integers no larger than 9007199254740991")
                    }
                    guard n.rounded(.down) == n else { throw fail(labelPath, "numeric branch labels must be integer values") }
                    if labelType == nil { labelType = .number }
                    guard labelType == .number else { throw fail(labelPath, "expected string, found \(label.compactText)") }
                    guard numberCases[n] == nil else { throw fail(labelPath, "branch labels must be unique") }
                    numberCases[n] = outputs.count
                case .string(let s):
                    if labelType == nil { labelType = .string }
                    guard labelType == .string else { throw fail(labelPath, "expected number, found \(label.compactText)") }
                    guard stringCases[s] == nil else { throw fail(labelPath, "branch labels must be unique") }
                    stringCases[s] = outputs.count
                default:
                    throw fail(labelPath, "branch labels must be numbers or strings, found \(label.compactText)")
                }
            }
            let output = try parse(items[i + 1], ctx.output(i + 1, outputType))
            outputType = outputType ?? output.type
            outputs.append(output.node)
        }
        let input = try parse(items[1], ctx.argument(1, .value))
        let last = items.count - 1
        let otherwise = try parse(items[last], ctx.output(last, outputType))
        let inputType = labelType ?? .value
        if input.type != .value && !inputType.accepts(input.type) {
            throw fail("\(ctx.path)[1]", "expected \(inputType), found \(found(items[1], input.type))")
        }
        let node = MatchNode(input: input.node, numberCases: inputType == .number ? numberCases : nil,
                             stringCases: inputType == .string ? stringCases : nil, outputs: outputs, otherwise: otherwise.node)
        return Typed(node: node, type: outputType ?? otherwise.type)
    }

    func parseCase(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 3...Int.max, ctx)
        guard items.count % 2 == 0 else { throw fail(ctx.path, "expected an odd number of arguments") }
        var outputType = ctx.requiredOutput
        var conditions: [Node] = [], outputs: [Node] = []
        for i in stride(from: 1, to: items.count - 1, by: 2) {
            conditions.append(try parse(items[i], ctx.argument(i, .boolean)).node)
            let output = try parse(items[i + 1], ctx.output(i + 1, outputType))
            outputType = outputType ?? output.type
            outputs.append(output.node)
        }
        let last = items.count - 1
        let otherwise = try parse(items[last], ctx.output(last, outputType))
        return Typed(node: CaseNode(conditions: conditions, outputs: outputs, otherwise: otherwise.node),
                     type: outputType ?? otherwise.type)
    }

    /// Arguments are parsed without inferred annotations so that a null does not fail before
    /// the next argument is tried; when one would have needed an annotation the whole
    /// `coalesce` is typed `value` and annotated by its parent instead.
    func parseCoalesce(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 1...Int.max, ctx)
        var outputType = ctx.requiredOutput
        var args: [Typed] = []
        for i in 1..<items.count {
            let arg = try parse(items[i], ctx.output(i, outputType), annotation: .omit)
            outputType = outputType ?? arg.type
            args.append(arg)
        }
        let needsAnnotation = ctx.expected.map { expected in args.contains { !expected.accepts($0.type) } } ?? false
        return Typed(node: CoalesceNode(args.map(\.node)), type: needsAnnotation ? .value : (outputType ?? .value))
    }

    func parseStep(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 4...Int.max, ctx)
        guard (items.count - 1) % 2 == 0 else { throw fail(ctx.path, "expected an even number of arguments") }
        let input = try parse(items[1], ctx.argument(1, .number))
        var outputType = ctx.requiredOutput
        var labels: [Double] = [], outputs: [Node] = []
        for i in stride(from: 1, to: items.count - 1, by: 2) {
            let label: Double
            if i == 1 {
                label = -.infinity
            } else {
                guard case .number(let n) = items[i] else {
                    throw fail("\(ctx.path)[\(i)]", "step inputs must be literal numbers, found \(items[i].compactText)")
                }
                guard let previous = labels.last, n > previous else {
                    throw fail("\(ctx.path)[\(i)]", "step inputs must be in strictly ascending order")
                }
                label = n
            }
            let output = try parse(items[i + 1], ctx.output(i + 1, outputType))
            outputType = outputType ?? output.type
            labels.append(label)
            outputs.append(output.node)
        }
        return Typed(node: StepNode(input: input.node, labels: labels, outputs: outputs), type: outputType ?? .value)
    }

    func parseInterpolate(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        let typePath = "\(ctx.path)[1]"
        guard items.count > 1, case .array(let spec) = items[1], let kind = spec.first else {
            throw fail(typePath, "expected an interpolation type: [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2]")
        }
        let curve: Interpolation.Curve
        switch kind {
        case .string("linear"):
            curve = .linear
        case .string("exponential"):
            guard spec.count > 1, case .number(let base) = spec[1] else {
                throw fail("\(typePath)[1]", "exponential interpolation requires a numeric base")
            }
            curve = .exponential(base)
        case .string("cubic-bezier"):
            let points = spec.dropFirst().compactMap { item -> Double? in
                if case .number(let n) = item, n >= 0, n <= 1 { return n }
                return nil
            }
            guard spec.count == 5, points.count == 4 else {
                throw fail(typePath, "cubic-bezier interpolation requires four numeric arguments with values between 0 and 1")
            }
            curve = .cubicBezier(UnitBezier(points[0], points[1], points[2], points[3]))
        default:
            throw fail("\(typePath)[0]", "unknown interpolation type \(kind.compactText)")
        }
        try checkArity(items, 4...Int.max, ctx)
        guard (items.count - 1) % 2 == 0 else { throw fail(ctx.path, "expected an even number of arguments") }
        let input = try parse(items[2], ctx.argument(2, .number))
        let space: Interpolation.Space = op == .interpolateHCL ? .hcl : op == .interpolateLab ? .lab : .rgb
        var outputType = space == .rgb ? ctx.requiredOutput : .color
        var labels: [Double] = [], outputs: [Node] = []
        for i in stride(from: 3, to: items.count, by: 2) {
            guard case .number(let label) = items[i] else {
                throw fail("\(ctx.path)[\(i)]", "interpolation inputs must be literal numbers, found \(items[i].compactText)")
            }
            if let previous = labels.last, label <= previous {
                throw fail("\(ctx.path)[\(i)]", "interpolation inputs must be in strictly ascending order")
            }
            let output = try parse(items[i + 1], ctx.output(i + 1, outputType))
            outputType = outputType ?? output.type
            labels.append(label)
            outputs.append(output.node)
        }
        let type = outputType ?? .value
        guard type.isInterpolatable else { throw fail(ctx.path, "type \(type) is not interpolatable") }
        return Typed(node: InterpolateNode(Interpolation(curve: curve, space: space), input: input.node, labels: labels, outputs: outputs),
                     type: type)
    }
}
