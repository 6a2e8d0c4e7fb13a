import Foundation

/// `["elevation"]`: the terrain's elevation in metres where a color-relief layer draws, the
/// input of its `color-relief-color` ramp, and valid nowhere else.
final class ElevationNode: Node, @unchecked Sendable {
    /// The property that may read it.
    static let property = "color-relief-color"

    init() { super.init([], readsFeature: true) }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { .number(c.elevation) }

    /// Whether `node` or a node under it is `["elevation"]`.
    static func appears(in node: Node) -> Bool { node is ElevationNode || node.children.contains(where: appears(in:)) }

    /// Refuses `["elevation"]` outside `color-relief-color`.
    static func check(_ e: StyleExpression, spec: PropertySpec, path: String) throws {
        if spec.name != property, appears(in: e.node) {
            throw StyleError("\(path): \"elevation\" expression may only be used with \(property)")
        }
    }
}

extension StyleExpression {
    /// For a `color-relief-color` written as an `interpolate` over `["elevation"]` (as MapLibre
    /// reads it), each stop's elevation with its colour; nil for anything else.
    public func elevationStops() -> [(elevation: Double, color: Color)]? {
        guard let curve = node as? InterpolateNode, curve.input is ElevationNode else { return nil }
        var out: [(Double, Color)] = []
        for label in curve.labels {
            var c = EvaluationContext(zoom: 0)
            c.elevation = label
            guard case let .color(color)? = try? evaluate(c) else { return nil }
            out.append((label, color))
        }
        return out
    }
}
