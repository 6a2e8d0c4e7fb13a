/// `["heatmap-density"]`: the kernel density at a heatmap pixel, the input of a heatmap layer's
/// `heatmap-color` ramp (MapLibre's `heatmapDensity` global). Anywhere else it is an error.
extension ExpressionParser {
    func parseHeatmapDensity(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        guard allowsHeatmapDensity else {
            throw fail(ctx.path, "\"heatmap-density\" may only be used in heatmap-color")
        }
        try checkArity(items, 0...0, ctx)
        return Typed(node: HeatmapDensityNode(), type: .number)
    }
}

/// The density the colour ramp is evaluated at (`EvaluationContext.heatmapDensity`); never
/// folded into a constant.
final class HeatmapDensityNode: Node, @unchecked Sendable {
    init() { super.init([]) }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { .number(c.heatmapDensity) }
    override var isConstantExpression: Bool { false }
}

extension Node {
    /// `["heatmap-density"]` appears in this subtree.
    var readsHeatmapDensity: Bool { self is HeatmapDensityNode || children.contains { $0.readsHeatmapDensity } }
}

extension StyleExpression {
    /// Whether the result depends on `["heatmap-density"]` (a heatmap's colour ramp).
    var readsHeatmapDensity: Bool { node.readsHeatmapDensity }
}
