import MapCore

/// The render-test harness's state operations, as MapLibre's harness applies them:
/// `["setFeatureState", {source, sourceLayer?, id}, {key: value...}]`,
/// `["removeFeatureState", {source, sourceLayer?, id?}, key?]` and
/// `["setGlobalStateProperty", name, value]`.
extension RenderTestOperations {
    func applyState(_ name: String, _ args: [JSON], to model: inout MapModel) throws {
        func target() throws -> (source: String, layer: String?, id: StyleValue?) {
            guard case let .object(o)? = args.first, case let .string(source)? = o["source"] else {
                throw RenderTestError("argument 1: expected {\"source\": ..., \"sourceLayer\": ..., \"id\": ...}")
            }
            var layer: String?
            if let l = o["sourceLayer"] {
                guard case let .string(s) = l else { throw RenderTestError("argument 1: sourceLayer: expected a string") }
                layer = s
            }
            return (source, layer, o["id"].map(StyleValue.init(json:)))
        }
        switch name {
        case "setFeatureState":
            let t = try target()
            guard let id = t.id else { throw RenderTestError("argument 1: the feature id must be given") }
            guard args.count > 1, case let .object(o) = args[1] else { throw RenderTestError("argument 2: expected an object of state values") }
            var state: [String: StyleValue] = [:]
            for (key, value) in o.entries { state[key] = StyleValue(json: value) }
            try model.setFeatureState(source: t.source, sourceLayer: t.layer, id: id, state: state)
        case "removeFeatureState":
            let t = try target()
            var key: String?
            if args.count > 1, args[1] != .null {
                guard case let .string(k) = args[1] else { throw RenderTestError("argument 2: expected a state key") }
                key = k
            }
            try model.removeFeatureState(source: t.source, sourceLayer: t.layer, id: t.id, key: key)
        default:
            guard case let .string(property)? = args.first else { throw RenderTestError("argument 1: expected a string") }
            model.setGlobalStateProperty(property, args.count > 1 ? StyleValue(json: args[1]) : .null)
        }
    }
}
