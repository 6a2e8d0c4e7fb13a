import Foundation

/// The map's light presets (Mapbox Standard's `lightPreset`): an ambient and a directional light.
///
/// Night and day follow Mapbox Standard (see SEMANTICS.md). Dusk and dawn are nightmap's own
/// values in the same model: a dim violet or warm ambient with a low sun.
public enum LightPreset: String, CaseIterable, Sendable {
    case day, dusk, night, dawn

    public struct Light: Sendable {
        public let color: Color
        public let intensity: Double
    }

    public var ambient: Light {
        switch self {
        case .night: return Light(color: .hsl(217, 1, 0.11), intensity: 0.5)
        case .day: return Light(color: .white, intensity: 0.8)
        case .dusk: return Light(color: .hsl(281, 0.6, 0.42), intensity: 0.45)
        case .dawn: return Light(color: .hsl(26, 0.8, 0.72), intensity: 0.55)
        }
    }

    /// The directional light at `zoom`, and its polar angle in degrees.
    public func directional(zoom: Double) -> (light: Light, polar: Double) {
        switch self {
        case .night:
            // Off below zoom 12, rising to 0.5 at zoom 14.
            let i = 0.5 * min(max((zoom - 12) / 2, 0), 1)
            return (Light(color: .hsl(0, 0, 0.29), intensity: i), 20)
        case .day: return (Light(color: .white, intensity: 0.2), 30)
        case .dusk: return (Light(color: .hsl(24, 0.9, 0.68), intensity: 0.35), 70)
        case .dawn: return (Light(color: .hsl(40, 0.9, 0.8), intensity: 0.35), 70)
        }
    }

    /// The light a flat, upward-facing surface receives, in sRGB: linear light = sRGB^2.2 x
    /// intensity, summed (the directional part by cos(polar)), then back to sRGB.
    public func groundRadiance(zoom: Double) -> Color {
        let a = ambient, (d, polar) = directional(zoom: zoom)
        let k = cos(polar * Double.pi / 180)
        func lin(_ v: Double) -> Double { pow(v, 2.2) }
        func channel(_ ac: Double, _ dc: Double) -> Double {
            min(1, pow(lin(ac) * a.intensity + lin(dc) * d.intensity * k, 1 / 2.2))
        }
        return Color(r: channel(a.color.r, d.color.r), g: channel(a.color.g, d.color.g), b: channel(a.color.b, d.color.b))
    }

    /// The preset after this one (`l` cycles day -> dusk -> night -> dawn -> day).
    public var next: LightPreset {
        let all = LightPreset.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

extension Color {
    /// A colour from hue (degrees), saturation and lightness in [0, 1].
    public static func hsl(_ h: Double, _ s: Double, _ l: Double) -> Color {
        let c = (1 - abs(2 * l - 1)) * s
        let hp = (h.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch hp {
        case ..<1: (r, g, b) = (c, x, 0)
        case ..<2: (r, g, b) = (x, c, 0)
        case ..<3: (r, g, b) = (0, c, x)
        case ..<4: (r, g, b) = (0, x, c)
        case ..<5: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = l - c / 2
        return Color(r: r + m, g: g + m, b: b + m)
    }

    /// The colour a layer with `emissive` strength shows under `radiance`:
    /// mix(c x radiance, c, emissive), alpha unchanged.
    public func lit(by radiance: Color, emissive: Double) -> Color {
        let e = min(max(emissive, 0), 1)
        func ch(_ c: Double, _ r: Double) -> Double { c * r + (c - c * r) * e }
        return Color(r: ch(r, radiance.r), g: ch(g, radiance.g), b: ch(b, radiance.b), a: a)
    }
}
