import Foundation

/// Parsing of `within` and `distance`, whose argument is GeoJSON (not an expression).
extension ExpressionParser {
    func parseGeometryOperator(_ op: Operator, _ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        guard items.count == 2 else {
            throw fail(ctx.path, "\"\(op.rawValue)\" expression requires exactly one argument, but found \(items.count - 1) instead")
        }
        if op == .distance {
            guard let geometries = SimpleGeometry.read(items[1]) else {
                throw fail("\(ctx.path)[1]", "\"distance\" expression requires a valid GeoJSON object (a geometry, Feature or FeatureCollection)")
            }
            return Typed(node: DistanceNode(geometries: geometries), type: .number)
        }
        guard let polygons = withinPolygons(items[1]) else {
            throw fail("\(ctx.path)[1]", "\"within\" expression requires a valid GeoJSON object that contains polygon geometry type")
        }
        return Typed(node: WithinNode(polygons: polygons), type: .boolean)
    }

    /// The polygons of `within`'s argument: a Polygon or MultiPolygon, a Feature of one, or
    /// the polygons of a FeatureCollection's features (the others left out); nil when there
    /// are none.
    private func withinPolygons(_ json: JSON) -> [[[PlanePoint]]]? {
        guard case .object(let o) = json, case .string(let type)? = o["type"] else { return nil }
        func polygons(_ geometry: JSON?) -> [[[PlanePoint]]]? {
            guard case .object(let g)? = geometry, case .string(let kind)? = g["type"],
                  kind == "Polygon" || kind == "MultiPolygon", let parts = geometry.flatMap(SimpleGeometry.geometry) else { return nil }
            return parts.compactMap { if case .polygon(let rings) = $0 { return rings } else { return nil } }
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let features)? = o["features"] else { return nil }
            var out: [[[PlanePoint]]] = []
            for case .object(let feature) in features { out += polygons(feature["geometry"]) ?? [] }
            return out.isEmpty ? nil : out
        case "Feature":
            return polygons(o["geometry"])
        default:
            return polygons(json)
        }
    }
}
