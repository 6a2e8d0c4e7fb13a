import Foundation

/// `interpolate`, `interpolate-hcl` and `interpolate-lab`: the curve between two stops and the
/// mixing of numbers, number arrays and colours.
///
/// Colours mix as MapLibre 5 mixes them: in RGB with straight (un-premultiplied) components
/// and alpha interpolated alongside, or through CIE LAB or HCL (D65), alpha linearly.

/// How `interpolate` maps its input between two stops, and in which colour space it mixes.
struct Interpolation: Sendable {
    enum Curve: Sendable {
        case linear
        case exponential(Double)
        case cubicBezier(UnitBezier)
    }

    enum Space: Sendable { case rgb, hcl, lab }

    var curve: Curve
    var space: Space
}

/// `interpolate`: the outputs of the two labels around the input, mixed.
final class InterpolateNode: Node, @unchecked Sendable {
    let interpolation: Interpolation
    let input: Node
    let labels: [Double]
    let outputs: [Node]
    init(_ interpolation: Interpolation, input: Node, labels: [Double], outputs: [Node]) {
        self.interpolation = interpolation
        self.input = input
        self.labels = labels
        self.outputs = outputs
        super.init([input] + outputs)
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let value = try input.number(c, &f)
        let count = Swift.min(labels.count, outputs.count)
        guard count > 0 else { return .null }
        if count == 1 || value <= labels[0] { return try outputs[0].evaluate(c, &f) }
        if value >= labels[count - 1] { return try outputs[count - 1].evaluate(c, &f) }
        let index = Swift.min(try Values.stopIndex(labels, value), count - 2)
        let t = interpolation.factor(value, lower: labels[index], upper: labels[index + 1])
        let lower = try outputs[index].evaluate(c, &f)
        let upper = try outputs[index + 1].evaluate(c, &f)
        return try Interpolation.mix(lower, upper, t, space: interpolation.space)
    }
}

extension Interpolation {
    /// The position of `input` between the stops, 0...1 (beyond for cubic-bezier curves whose
    /// control points overshoot).
    func factor(_ input: Double, lower: Double, upper: Double) -> Double {
        switch curve {
        case .linear: return Interpolation.exponentialFactor(input, base: 1, lower: lower, upper: upper)
        case .exponential(let base): return Interpolation.exponentialFactor(input, base: base, lower: lower, upper: upper)
        case .cubicBezier(let bezier): return bezier.solve(Interpolation.exponentialFactor(input, base: 1, lower: lower, upper: upper))
        }
    }

    /// (base^(x - lower) - 1) / (base^(upper - lower) - 1), or the linear ratio for base 1.
    static func exponentialFactor(_ input: Double, base: Double, lower: Double, upper: Double) -> Double {
        let difference = upper - lower
        let progress = input - lower
        if difference == 0 { return 0 }
        if base == 1 { return progress / difference }
        return (Foundation.pow(base, progress) - 1) / (Foundation.pow(base, difference) - 1)
    }

    /// `a` + (`b` - `a`) * `t` for numbers, number arrays of equal length and colours.
    static func mix(_ a: StyleValue, _ b: StyleValue, _ t: Double, space: Space) throws -> StyleValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + t * (y - x))
        case (.color(let x), .color(let y)):
            return .color(mixColor(x, y, t, space: space))
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            var out: [StyleValue] = []
            out.reserveCapacity(xs.count)
            for (x, y) in zip(xs, ys) {
                guard case .number(let p) = x, case .number(let q) = y else {
                    throw StyleError("cannot interpolate \(a.compactText) and \(b.compactText)")
                }
                out.append(.number(p + t * (q - p)))
            }
            return .array(out)
        default:
            throw StyleError("cannot interpolate \(a.compactText) and \(b.compactText)")
        }
    }

    static func mixColor(_ from: Color, _ to: Color, _ t: Double, space: Space) -> Color {
        func lerp(_ x: Double, _ y: Double) -> Double { x + t * (y - x) }
        switch space {
        case .rgb:
            return from.mixed(with: to, t)
        case .lab:
            let p = ColorSpaces.lab(from), q = ColorSpaces.lab(to)
            return ColorSpaces.color(lab: (lerp(p.l, q.l), lerp(p.a, q.a), lerp(p.b, q.b)), alpha: lerp(from.a, to.a))
        case .hcl:
            let p = ColorSpaces.hcl(from), q = ColorSpaces.hcl(to)
            var hue = Double.nan
            var chroma: Double?
            if !p.h.isNaN && !q.h.isNaN {
                var dh = q.h - p.h
                if q.h > p.h && dh > 180 { dh -= 360 } else if q.h < p.h && p.h - q.h > 180 { dh += 360 }
                hue = p.h + t * dh
            } else if !p.h.isNaN {
                hue = p.h
                if q.l == 1 || q.l == 0 { chroma = p.c }
            } else if !q.h.isNaN {
                hue = q.h
                if p.l == 1 || p.l == 0 { chroma = q.c }
            }
            return ColorSpaces.color(hcl: (hue, chroma ?? lerp(p.c, q.c), lerp(p.l, q.l)), alpha: lerp(from.a, to.a))
        }
    }
}

/// sRGB to and from CIE LAB and HCL (D65), as MapLibre converts for colour interpolation.
enum ColorSpaces {
    static let xn = 0.950470, yn = 1.0, zn = 1.088830
    static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

    static func lab(_ c: Color) -> (l: Double, a: Double, b: Double) {
        let r = toLinear(c.r), g = toLinear(c.g), b = toLinear(c.b)
        let x = xyzToLab((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / xn)
        let y = xyzToLab((0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / yn)
        let z = xyzToLab((0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / zn)
        let l = 116 * y - 16
        return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z))
    }

    static func color(lab: (l: Double, a: Double, b: Double), alpha: Double) -> Color {
        var y = (lab.l + 16) / 116
        var x = lab.a.isNaN ? y : y + lab.a / 500
        var z = lab.b.isNaN ? y : y - lab.b / 200
        y = yn * labToXYZ(y)
        x = xn * labToXYZ(x)
        z = zn * labToXYZ(z)
        return Color(r: toSRGB(3.2404542 * x - 1.5371385 * y - 0.4985314 * z),
                     g: toSRGB(-0.9692660 * x + 1.8760108 * y + 0.0415560 * z),
                     b: toSRGB(0.0556434 * x - 0.2040259 * y + 1.0572252 * z), a: alpha)
    }

    /// Hue in degrees (NaN for greys), chroma, lightness.
    static func hcl(_ c: Color) -> (h: Double, c: Double, l: Double) {
        let p = lab(c)
        let chroma = (p.a * p.a + p.b * p.b).squareRoot()
        var hue = Double.nan
        if (chroma * 10000).rounded() != 0 {
            hue = (atan2(p.b, p.a) * 180 / .pi).truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
        }
        return (hue, chroma, p.l)
    }

    static func color(hcl: (h: Double, c: Double, l: Double), alpha: Double) -> Color {
        let h = hcl.h.isNaN ? 0 : hcl.h * .pi / 180
        return color(lab: (hcl.l, cos(h) * hcl.c, sin(h) * hcl.c), alpha: alpha)
    }

    static func toLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func xyzToLab(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }
    static func labToXYZ(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }

    static func toSRGB(_ v: Double) -> Double {
        let x = v <= 0.00304 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return x < 0 ? 0 : x > 1 ? 1 : x
    }
}
