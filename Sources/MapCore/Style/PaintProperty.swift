/// Why a run-time style change was refused; one line, naming the layer and property.
public struct StyleError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The transitionable paint properties by their specification names: reading and writing
/// them on a layer's typed paint, with type and range checks.
public enum PaintProperty {
    /// Names a layer of this paint's type accepts.
    public static func names(for paint: LayerPaint) -> [String] {
        switch paint {
        case .background: return ["background-color", "background-opacity"]
        case .fill: return ["fill-color", "fill-opacity"]
        case .line: return ["line-color", "line-width", "line-opacity", "line-gap-width", "line-blur", "line-dasharray"]
        }
    }

    /// The property's current target value, nil when the layer has no such property.
    public static func get(_ name: String, of paint: LayerPaint) -> PaintValue? {
        switch (paint, name) {
        case let (.background(c, _), "background-color"): return .color(c)
        case let (.background(_, o), "background-opacity"): return .number(o)
        case let (.fill(f), "fill-color"): return .color(f.color)
        case let (.fill(f), "fill-opacity"): return .number(f.opacity)
        case let (.line(l), "line-color"): return .color(l.color)
        case let (.line(l), "line-width"): return .number(l.width)
        case let (.line(l), "line-opacity"): return .number(l.opacity)
        case let (.line(l), "line-gap-width"): return .number(l.gapWidth)
        case let (.line(l), "line-blur"): return .number(l.blur)
        case let (.line(l), "line-dasharray"): return .numbers(l.dasharray)
        default: return nil
        }
    }

    /// Writes `value` (already checked by `validate`) into `paint`. Interpolated values may
    /// overshoot slightly, so ranges are clamped here as the renderer expects.
    public static func set(_ name: String, _ value: PaintValue, in paint: inout LayerPaint) {
        switch (paint, name, value) {
        case let (.background(_, o), "background-color", .color(c)): paint = .background(color: c, opacity: o)
        case let (.background(c, _), "background-opacity", .number(v)): paint = .background(color: c, opacity: clamp01(v))
        case (.fill(var f), "fill-color", .color(let c)): f.color = c; paint = .fill(f)
        case (.fill(var f), "fill-opacity", .number(let v)): f.opacity = clamp01(v); paint = .fill(f)
        case (.line(var l), "line-color", .color(let c)): l.color = c; paint = .line(l)
        case (.line(var l), "line-width", .number(let v)): l.width = max(0, v); paint = .line(l)
        case (.line(var l), "line-opacity", .number(let v)): l.opacity = clamp01(v); paint = .line(l)
        case (.line(var l), "line-gap-width", .number(let v)): l.gapWidth = max(0, v); paint = .line(l)
        case (.line(var l), "line-blur", .number(let v)): l.blur = max(0, v); paint = .line(l)
        case (.line(var l), "line-dasharray", .numbers(let a)): l.dasharray = a.map { max(0, $0) }; paint = .line(l)
        default: break
        }
    }

    /// Checks that `value` suits property `name` of `layer`.
    public static func validate(_ name: String, _ value: PaintValue, layer: Layer) throws {
        guard let current = get(name, of: layer.paint) else {
            throw StyleError("layers.\(layer.id).paint.\(name): unknown property for a \(layer.paint.typeName) layer")
        }
        guard current.kindName == value.kindName else {
            throw StyleError("layers.\(layer.id).paint.\(name): expected \(current.kindName), found \(value.kindName) \(value)")
        }
        switch value {
        case let .number(v):
            guard v.isFinite, v >= 0 else { throw StyleError("layers.\(layer.id).paint.\(name): \(v) is not a finite number >= 0") }
            if name.hasSuffix("-opacity") && v > 1 { throw StyleError("layers.\(layer.id).paint.\(name): \(v) is above 1") }
        case let .numbers(a):
            guard a.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                throw StyleError("layers.\(layer.id).paint.\(name): every element must be a finite number >= 0")
            }
        case let .color(c):
            guard [c.r, c.g, c.b, c.a].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
                throw StyleError("layers.\(layer.id).paint.\(name): colour components out of range")
            }
        }
    }

    private static func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }
}
