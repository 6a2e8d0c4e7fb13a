import Foundation

/// The style's `sky`: the colours above the horizon of a pitched map and how they blend into
/// it. Each property may follow the zoom (a zoom `interpolate` or `step`).
///
/// A style without `sky` shows none (MapLibre draws it transparent: the map's clear colour
/// shows above the horizon); `"sky": {}` shows the specification's defaults (a blue sky white at
/// the horizon). Fog and the globe's atmosphere are read for completeness; fog needs terrain,
/// which nightmap does not draw, and the atmosphere needs the globe.
public struct Sky: Sendable {
    enum Property: String, CaseIterable {
        case skyColor = "sky-color", horizonColor = "horizon-color", fogColor = "fog-color"
        case fogGroundBlend = "fog-ground-blend", horizonFogBlend = "horizon-fog-blend"
        case skyHorizonBlend = "sky-horizon-blend", atmosphereBlend = "atmosphere-blend"

        var spec: PropertySpec {
            typealias S = StyleProperties
            switch self {
            case .skyColor: return S.color(rawValue, "#88C6FC", .zoom)
            case .horizonColor, .fogColor: return S.color(rawValue, "#ffffff", .zoom)
            case .fogGroundBlend: return S.number(rawValue, 0.5, min: 0, max: 1, .zoom)
            case .horizonFogBlend, .skyHorizonBlend, .atmosphereBlend: return S.number(rawValue, 0.8, min: 0, max: 1, .zoom)
            }
        }
    }

    let values: [Property: PropertyValue]

    /// Reads a `sky` object; a property that cannot be read is named in `problems` and takes
    /// its default, unknown members are named and ignored. Not an object: nil, named.
    public static func read(_ json: JSON, problems: inout [String]) -> Sky? {
        guard case let .object(o) = json else {
            problems.append("sky: expected object, found \(json.typeName); ignored")
            return nil
        }
        var values: [Property: PropertyValue] = [:]
        for (key, value) in o.entries {
            guard let p = Property(rawValue: key) else {
                problems.append("sky.\(key): unknown property; ignored")
                continue
            }
            do {
                values[p] = try PropertyValue(json: value, spec: p.spec, path: "sky.\(key)")
            } catch {
                problems.append("\(error); the default is used")
            }
        }
        return Sky(values: values)
    }

    /// How strongly the globe's atmosphere shows at `zoom` (`atmosphere-blend`).
    public func atmosphereBlend(zoom: Double) -> Double {
        if case let .number(n)? = values[.atmosphereBlend]?.evaluate(EvaluationContext(zoom: zoom)) { return min(max(n, 0), 1) }
        return 0.8
    }

    /// The sky at `zoom` (the style's zoom).
    public func draw(zoom: Double) -> SkyDraw {
        let context = EvaluationContext(zoom: zoom)
        func value(_ p: Property) -> StyleValue { values[p]?.evaluate(context) ?? p.spec.defaultValue }
        func color(_ p: Property) -> Color { if case let .color(c) = value(p) { return c } else { return .white } }
        func number(_ p: Property) -> Double { if case let .number(n) = value(p) { return n } else { return 0 } }
        return SkyDraw(skyColor: color(.skyColor), horizonColor: color(.horizonColor), skyHorizonBlend: number(.skyHorizonBlend))
    }
}

/// The sky of one frame: the colour high up, the colour at the horizon, and how far above the
/// horizon they blend (`sky-horizon-blend`, a fraction of half the view's height).
public struct SkyDraw: Equatable, Sendable {
    public var skyColor: Color, horizonColor: Color, skyHorizonBlend: Double
    public init(skyColor: Color, horizonColor: Color, skyHorizonBlend: Double) {
        self.skyColor = skyColor; self.horizonColor = horizonColor; self.skyHorizonBlend = skyHorizonBlend
    }
}
