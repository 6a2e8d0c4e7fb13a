import Foundation

extension StyleDocumentReader {
    /// The root `state` member (`{"name": {"default": value}}`, the defaults `global-state`
    /// reads) and each source's `promoteId`. A member of the wrong shape is a warning and left
    /// out: the map draws without it.
    mutating func readState(_ root: JSONObject, into doc: inout StyleDocument) {
        if let state = root["state"] {
            if case let .object(properties) = state {
                for (name, property) in properties.entries {
                    guard case let .object(o) = property else {
                        doc.warnings.append("state.\(name): expected an object with a default, found \(property.compactText)")
                        continue
                    }
                    doc.state[name] = o["default"].map(StyleValue.init(json:)) ?? .null
                }
            } else {
                doc.warnings.append("state: expected object, found \(state.typeName)")
            }
        }
        guard case let .object(sources)? = root["sources"] else { return }
        for (id, source) in sources.entries {
            do {
                if let promote = try PromoteId(sourceJSON: source, path: "sources.\(id)") { doc.promoteIds[id] = promote }
            } catch {
                doc.warnings.append("\(error)")
            }
        }
    }
}

extension Style {
    /// The document's global state defaults and the sources' `promoteId`s.
    mutating func adoptState(of document: StyleDocument) {
        globalState = GlobalState(defaults: document.state)
        light = document.light
        featureStates.promoteIds = document.promoteIds
        bindGlobalState()
    }
}
