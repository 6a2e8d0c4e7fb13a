import Foundation

/// The style's `projection`: how much of the globe it shows at each zoom, MapLibre's
/// "globeness" (1: the globe, "vertical-perspective"; 0: Web Mercator; between: the one blending
/// into the other, `GlobeTransform.project(_:blending:globeness:)`).
///
/// Its `type` is a projection definition (style spec `projectionDefinition`): "mercator",
/// "vertical-perspective", "globe" (the globe up to zoom 11 blending into Mercator by zoom 12), a
/// transition `[from, to, t]`, or a zoom `interpolate` or `step` of those. A transition's
/// globeness is its ends' mixed by t, which is how MapLibre mixes them (`globe_projection.ts`), so
/// each definition is read as a number expression of the zoom.
public struct Projection: Sendable {
    /// The globeness as the zoom's function.
    let globeness: PropertyValue

    /// Web Mercator at every zoom.
    public static let mercator = Projection(globeness: PropertyValue(spec: spec))

    static let spec = StyleProperties.number("type", 0, min: 0, max: 1, .zoom)

    /// MapLibre's "globe": the globe to zoom 11, blending into Web Mercator by zoom 12.
    public static let globe: Projection = {
        var problems: [String] = []
        return read(.object(JSONObject([(key: "type", value: .string("globe"))])), problems: &problems) ?? .mercator
    }()

    /// MapLibre's globe: `["interpolate", ["linear"], ["zoom"], 11, "vertical-perspective", 12, "mercator"]`.
    static let globeDefinition: JSON = .array([.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")]),
                                     .number(11), .string("vertical-perspective"), .number(12), .string("mercator")])

    /// How much of the globe shows at `zoom`, 0...1.
    public func globeness(zoom: Double) -> Double {
        guard case let .number(g) = globeness.evaluate(EvaluationContext(zoom: zoom)) else { return 0 }
        return min(max(g, 0), 1)
    }

    /// Reads a `projection` object; a `type` that cannot be read is named in `problems` and
    /// Mercator is drawn, unknown members are named and ignored. Not an object: nil, named.
    public static func read(_ json: JSON, problems: inout [String]) -> Projection? {
        guard case let .object(o) = json else {
            problems.append("projection: expected object, found \(json.typeName); Web Mercator is drawn")
            return nil
        }
        for key in o.keys where key != "type" { problems.append("projection.\(key): unknown property; ignored") }
        guard let type = o["type"] else { return .mercator }
        do {
            let numeric = try globenessExpression(type == .string("globe") ? globeDefinition : type, path: "projection.type")
            return Projection(globeness: try PropertyValue(json: numeric, spec: spec, path: "projection.type"))
        } catch {
            problems.append("\(error); Web Mercator is drawn")
            return .mercator
        }
    }

    /// `definition` with each projection replaced by its globeness: names by 0 or 1, a
    /// transition `[from, to, t]` by its ends' mixed; the stops of an `interpolate` or `step`
    /// likewise (their inputs left as they are).
    static func globenessExpression(_ definition: JSON, path: String) throws -> JSON {
        func name(_ s: String, _ path: String) throws -> Double {
            switch s {
            case "mercator": return 0
            case "vertical-perspective": return 1
            default: throw StyleError("\(path): unknown projection \"\(s)\" (expected \"mercator\", \"vertical-perspective\" or \"globe\")")
            }
        }
        func value(_ v: JSON, _ path: String) throws -> JSON {
            switch v {
            case let .string(s):
                return .number(try name(s, path))
            case let .array(a) where a.count == 3:
                guard case let .string(from) = a[0], case let .string(to) = a[1], case let .number(t) = a[2] else { break }
                guard (0...1).contains(t) else { throw StyleError("\(path)[2]: transition \(JSON.number(t).compactText) outside 0...1") }
                let f = try name(from, "\(path)[0]"), e = try name(to, "\(path)[1]")
                return .number(f + (e - f) * t)
            default: break
            }
            throw StyleError("\(path): expected a projection name or [from, to, t], found \(v.compactText)")
        }
        guard case let .array(a) = definition, case let .string(op)? = a.first, op == "interpolate" || op == "step" else {
            return try value(definition, path)
        }
        // interpolate: [op, type, input, z, v, ...] (outputs at 4, 6, ...); step: [op, input, v0, z, v, ...] (2, 4, ...).
        var out = a
        for i in stride(from: op == "interpolate" ? 4 : 2, to: a.count, by: 2) { out[i] = try value(a[i], "\(path)[\(i)]") }
        return .array(out)
    }
}
