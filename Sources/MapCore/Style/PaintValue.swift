/// A paint property's value: the kinds the style specification's paint properties take.
public enum PaintValue: Equatable, Sendable, CustomStringConvertible {
    case number(Double)
    case color(Color)
    case numbers([Double])

    public var kindName: String {
        switch self {
        case .number: return "number"
        case .color: return "color"
        case .numbers: return "array"
        }
    }

    public var description: String {
        switch self {
        case let .number(v): return "\(v)"
        case let .color(c): return "rgba(\(c.r * 255), \(c.g * 255), \(c.b * 255), \(c.a))"
        case let .numbers(a): return "\(a)"
        }
    }

    /// The value `t` of the way from `a` to `b`, as the specification interpolates: numbers
    /// linearly, colours linearly in premultiplied RGBA (as MapLibre's `Color` does), arrays of
    /// equal length element by element. Values that cannot be interpolated (different kinds,
    /// arrays of different lengths) take the target at once.
    public static func interpolate(_ a: PaintValue, _ b: PaintValue, _ t: Double) -> PaintValue {
        switch (a, b) {
        case let (.number(x), .number(y)):
            return .number(x + (y - x) * t)
        case let (.color(x), .color(y)):
            let pa = (x.r * x.a, x.g * x.a, x.b * x.a), pb = (y.r * y.a, y.g * y.a, y.b * y.a)
            let alpha = x.a + (y.a - x.a) * t
            guard alpha > 0 else { return .color(Color(r: 0, g: 0, b: 0, a: 0)) }
            return .color(Color(r: (pa.0 + (pb.0 - pa.0) * t) / alpha,
                                g: (pa.1 + (pb.1 - pa.1) * t) / alpha,
                                b: (pa.2 + (pb.2 - pa.2) * t) / alpha, a: alpha))
        case let (.numbers(x), .numbers(y)) where x.count == y.count:
            return .numbers(zip(x, y).map { $0 + ($1 - $0) * t })
        default:
            return b
        }
    }
}
