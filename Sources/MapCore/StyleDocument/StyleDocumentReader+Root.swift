import Foundation

extension StyleDocumentReader {
    /// The root members of the specification; any other is named and ignored.
    static let rootMembers: Set<String> = [
        "version", "name", "metadata", "center", "centerAltitude", "zoom", "bearing", "pitch", "roll", "light", "sky",
        "projection", "terrain", "sources", "sprite", "glyphs", "font-faces", "transition", "layers", "state",
    ]

    /// Names, once each, the root members nightmap reads but does not draw yet, and members
    /// the specification does not have.
    mutating func rootMembers(_ root: JSONObject) {
        for key in root.keys where !Self.rootMembers.contains(key) { problems.append("\(key): unknown member; ignored") }
        if root["terrain"] != nil { problems.append("terrain: the relief is not drawn yet (nightmap draws the ground flat)") }
        if case let .number(r)? = root["roll"], r != 0 { problems.append("roll: \(JSON.number(r).compactText) is not drawn yet; ignored") }
    }

    /// The `sprite` member: a URL (the `default` sprite) or an array of `{"id", "url"}` with
    /// distinct ids. A bad entry is named and left out; the others load.
    mutating func sprites(_ json: JSON) -> [SpriteSource] {
        switch json {
        case let .string(url):
            return [SpriteSource(url: url)]
        case let .array(items):
            var out: [SpriteSource] = []
            for (i, item) in items.enumerated() {
                guard case let .object(o) = item, case let .string(id)? = o["id"], case let .string(url)? = o["url"] else {
                    problems.append("sprite[\(i)]: expected {\"id\": string, \"url\": string}, found \(item.compactText); left out")
                    continue
                }
                guard !out.contains(where: { $0.id == id }) else {
                    problems.append("sprite[\(i)].id: duplicate sprite id \"\(id)\"; left out")
                    continue
                }
                out.append(SpriteSource(id: id, url: url))
            }
            return out
        default:
            problems.append("sprite: expected a URL or an array of {id, url}, found \(json.typeName); no sprite")
            return []
        }
    }
}
