import Foundation

/// Legacy `ref` layers (style documents before v8's final form, such as Mapbox Bright v9): a
/// layer with `"ref": "other"` takes its type, source, source-layer, zoom range, filter and
/// layout from the layer `other` and keeps only its own id and paint, as MapLibre Native's
/// parser and GL JS's `deref` resolve it. A reference to a layer that is itself a reference is
/// followed; one to no layer, or round in a circle, leaves that layer out with one line saying
/// why.
enum LegacyLayerRefs {
    /// The members a reference takes from the layer it names.
    static let taken = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]

    /// `layers` with every reference resolved; nil where a layer is left out.
    static func resolve(_ layers: [JSON], problems: inout [String]) -> [JSON?] {
        guard layers.contains(where: { ref($0) != nil }) else { return layers }
        var byID: [String: JSON] = [:]
        for l in layers {
            if case let .object(o) = l, case let .string(id)? = o["id"], byID[id] == nil { byID[id] = l }
        }
        return layers.enumerated().map { i, l in
            guard ref(l) != nil else { return l }
            switch resolved(l, byID, depth: 0) {
            case let .success(json): return json
            case let .failure(f):
                problems.append("layers[\(i)].ref: \(f.why); layer\(idText(l).isEmpty ? "" : idText(l)) skipped")
                return nil
            }
        }
    }

    /// ` "id"` of a layer object with a string id, else "".
    static func idText(_ layer: JSON) -> String {
        if case let .object(o) = layer, case let .string(id)? = o["id"] { return " \"\(id)\"" }
        return ""
    }

    private static func ref(_ layer: JSON) -> JSON? {
        if case let .object(o) = layer { return o["ref"] }
        return nil
    }

    private struct Failure: Error { let why: String }

    private static func resolved(_ layer: JSON, _ byID: [String: JSON], depth: Int) -> Result<JSON, Failure> {
        guard case let .object(o) = layer, let r = o["ref"] else { return .success(layer) }
        guard case let .string(target) = r else { return .failure(Failure(why: "expected a layer id (a string), found \(r.compactText)")) }
        guard depth < 32 else { return .failure(Failure(why: "references go round in a circle")) }
        guard let parent = byID[target] else { return .failure(Failure(why: "no layer \"\(target)\"")) }
        let base: JSON
        switch resolved(parent, byID, depth: depth + 1) {
        case let .success(json): base = json
        case let .failure(f): return .failure(f.why.hasPrefix("references") ? f : Failure(why: "layer \"\(target)\": \(f.why)"))
        }
        guard case let .object(p) = base else { return .failure(Failure(why: "layer \"\(target)\" is not an object")) }
        var entries = o.entries.filter { $0.key != "ref" && !taken.contains($0.key) }
        for key in taken {
            if let v = p[key] { entries.append((key: key, value: v)) }
        }
        return .success(.object(JSONObject(entries)))
    }
}
