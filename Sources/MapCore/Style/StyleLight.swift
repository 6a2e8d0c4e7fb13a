import Foundation

/// The style's root `light` (style specification v8): where the light that shades
/// fill-extrusion layers stands, its colour and intensity. Each member may be a zoom expression;
/// a bad one is named and left at its default.
public struct StyleLight: Sendable {
    public var anchor: PropertyValue
    public var position: PropertyValue
    public var color: PropertyValue
    public var intensity: PropertyValue

    static let anchorSpec = StyleProperties.spec("anchor", .enumeration(["map", "viewport"]), default: .string("viewport"), .zoom, layout: false)
    static let positionSpec = StyleProperties.spec("position", .numberArray(count: 3),
                                                   default: .array([.number(1.15), .number(210), .number(30)]), .zoom,
                                                   interpolated: true, transition: true, layout: false)
    static let colorSpec = StyleProperties.color("color", "#ffffff", .zoom)
    static let intensitySpec = StyleProperties.number("intensity", 0.5, min: 0, max: 1, .zoom)

    /// The specification's default light.
    public init() {
        anchor = PropertyValue(spec: Self.anchorSpec); position = PropertyValue(spec: Self.positionSpec)
        color = PropertyValue(spec: Self.colorSpec); intensity = PropertyValue(spec: Self.intensitySpec)
    }

    /// The light `json` describes; `problems` gets one line for each member that is wrong (left
    /// at its default) or unknown (ignored), with its path (`light.intensity: ...`).
    public init(json: JSON, path: String = "light", problems: inout [String]) {
        self.init()
        guard case let .object(o) = json else {
            problems.append("\(path): expected object, found \(json.typeName); the default light")
            return
        }
        for (key, value) in o.entries {
            let spec: PropertySpec
            switch key {
            case "anchor": spec = Self.anchorSpec
            case "position": spec = Self.positionSpec
            case "color": spec = Self.colorSpec
            case "intensity": spec = Self.intensitySpec
            default: problems.append("\(path).\(key): unknown member; ignored"); continue
            }
            do {
                let v = try PropertyValue(json: value, spec: spec, path: "\(path).\(key)")
                switch key {
                case "anchor": anchor = v
                case "position": position = v
                case "color": color = v
                default: intensity = v
                }
            } catch {
                problems.append("\(error); left at its default")
            }
        }
    }

    /// The light's position at `zoom`: [radial, azimuthal, polar] (the default where it is bad).
    public func lightPosition(zoom: Double) -> [Double] {
        let p = position.evaluate(EvaluationContext(zoom: zoom)).asNumbers ?? [1.15, 210, 30]
        return p.count == 3 && p.allSatisfy(\.isFinite) ? p : [1.15, 210, 30]
    }

    /// Whether the light turns with the map (`anchor: map`) rather than staying with the viewport.
    public func isAnchoredToMap(zoom: Double) -> Bool {
        anchor.evaluate(EvaluationContext(zoom: zoom)).asString == "map"
    }

    /// The light at `zoom`, its direction turned by `bearing` (degrees) when anchored to the
    /// viewport (MapLibre's default).
    public func evaluate(zoom: Double, bearing: Double) -> ExtrusionLight {
        let c = EvaluationContext(zoom: zoom)
        let p = position.evaluate(c).asNumbers ?? [1.15, 210, 30]
        let q = p.count == 3 && p.allSatisfy(\.isFinite) ? p : [1.15, 210, 30]
        let light = ExtrusionLight(position: q[0], q[1], q[2], color: color.evaluate(c).asColor ?? .white,
                                   intensity: min(max(intensity.evaluate(c).asNumber ?? 0.5, 0), 1))
        return isAnchoredToMap(zoom: zoom) ? light : light.turned(by: bearing)
    }
}
