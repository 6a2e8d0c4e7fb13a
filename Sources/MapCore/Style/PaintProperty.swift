/// Why a run-time style change was refused; one line, naming the layer and property.
public struct StyleError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The transitionable paint properties by their specification names: reading and writing
/// them on a layer's typed paint, with type and range checks.
public enum PaintProperty {
    /// A property's allowed numeric range (specification minimum and maximum).
    static func range(_ name: String) -> ClosedRange<Double>? {
        switch name {
        case "raster-contrast", "raster-saturation": return -1...1
        case "raster-hue-rotate": return -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        case "raster-brightness-min", "raster-brightness-max": return 0...1
        case _ where name.hasSuffix("-opacity"): return 0...1
        default: return 0...Double.greatestFiniteMagnitude
        }
    }

    /// The property's current target value, nil when the layer has no such property.
    /// (`raster-fade-duration` is in milliseconds, as in the specification.)
    public static func get(_ name: String, of paint: LayerPaint) -> PaintValue? {
        switch (paint, name) {
        case let (.background(c, _), "background-color"): return .color(c)
        case let (.background(_, o), "background-opacity"): return .number(o)
        case let (.fill(f), "fill-color"): return .color(f.color)
        case let (.fill(f), "fill-opacity"): return .number(f.opacity)
        case let (.fill(f), "fill-emissive-strength"): return .number(f.emissiveStrength)
        case let (.line(l), "line-color"): return .color(l.color)
        case let (.line(l), "line-width"): return .number(l.width)
        case let (.line(l), "line-opacity"): return .number(l.opacity)
        case let (.line(l), "line-gap-width"): return .number(l.gapWidth)
        case let (.line(l), "line-blur"): return .number(l.blur)
        case let (.line(l), "line-dasharray"): return .numbers(l.dasharray)
        case let (.line(l), "line-emissive-strength"): return .number(l.emissiveStrength)
        case let (.raster(r), "raster-opacity"): return .number(r.opacity)
        case let (.raster(r), "raster-fade-duration"): return .number(r.fadeDuration * 1000)
        case let (.raster(r), "raster-brightness-min"): return .number(r.brightnessMin)
        case let (.raster(r), "raster-brightness-max"): return .number(r.brightnessMax)
        case let (.raster(r), "raster-contrast"): return .number(r.contrast)
        case let (.raster(r), "raster-saturation"): return .number(r.saturation)
        case let (.raster(r), "raster-hue-rotate"): return .number(r.hueRotate)
        case let (.raster(r), "raster-emissive-strength"): return .number(r.emissiveStrength)
        default: return nil
        }
    }

    /// Writes `value` (already checked by `validate`) into `paint`. Interpolated values may
    /// overshoot slightly, so ranges are clamped here as the renderer expects.
    public static func set(_ name: String, _ value: PaintValue, in paint: inout LayerPaint) {
        let r = range(name) ?? 0...1
        switch (paint, value) {
        case let (.background(_, o), .color(v)) where name == "background-color": paint = .background(color: v, opacity: o)
        case let (.background(c, _), .number(v)) where name == "background-opacity": paint = .background(color: c, opacity: clamp(v, r))
        case (.fill(var f), .color(let v)) where name == "fill-color": f.color = v; paint = .fill(f)
        case (.fill(var f), .number(let v)):
            switch name {
            case "fill-opacity": f.opacity = clamp(v, r)
            case "fill-emissive-strength": f.emissiveStrength = clamp(v, r)
            default: return
            }
            paint = .fill(f)
        case (.line(var l), .color(let v)) where name == "line-color": l.color = v; paint = .line(l)
        case (.line(var l), .numbers(let a)) where name == "line-dasharray": l.dasharray = a.map { max(0, $0) }; paint = .line(l)
        case (.line(var l), .number(let v)):
            switch name {
            case "line-width": l.width = clamp(v, r)
            case "line-opacity": l.opacity = clamp(v, r)
            case "line-gap-width": l.gapWidth = clamp(v, r)
            case "line-blur": l.blur = clamp(v, r)
            case "line-emissive-strength": l.emissiveStrength = clamp(v, r)
            default: return
            }
            paint = .line(l)
        case (.raster(var p), .number(let v)):
            let v = clamp(v, r)
            switch name {
            case "raster-opacity": p.opacity = v
            case "raster-fade-duration": p.fadeDuration = v / 1000
            case "raster-brightness-min": p.brightnessMin = v
            case "raster-brightness-max": p.brightnessMax = v
            case "raster-contrast": p.contrast = v
            case "raster-saturation": p.saturation = v
            case "raster-hue-rotate": p.hueRotate = v
            case "raster-emissive-strength": p.emissiveStrength = v
            default: return
            }
            paint = .raster(p)
        default:
            break
        }
    }

    /// Checks that `value` suits property `name` of `layer`.
    public static func validate(_ name: String, _ value: PaintValue, layer: Layer) throws {
        // (Spelled out only for an error: a valid change, such as one of an animation's
        // many, makes no string.)
        var path: String { "layers.\(layer.id).paint.\(name)" }
        guard let current = get(name, of: layer.paint) else {
            throw StyleError("\(path): unknown property for a \(layer.paint.typeName) layer")
        }
        guard current.kindName == value.kindName else {
            throw StyleError("\(path): expected \(current.kindName), found \(value.kindName) \(value)")
        }
        switch value {
        case let .number(v):
            let r = range(name) ?? 0...1
            guard v.isFinite else { throw StyleError("\(path): \(v) is not a finite number") }
            guard r.contains(v) else {
                throw StyleError(r.upperBound < 1e300 ? "\(path): \(v) is outside \(r.lowerBound)...\(r.upperBound)"
                                                      : "\(path): \(v) is below \(r.lowerBound)")
            }
        case let .numbers(a):
            guard a.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                throw StyleError("\(path): every element must be a finite number >= 0")
            }
        case let .color(c):
            guard [c.r, c.g, c.b, c.a].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
                throw StyleError("\(path): colour components out of range")
            }
        }
    }

    private static func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
}
