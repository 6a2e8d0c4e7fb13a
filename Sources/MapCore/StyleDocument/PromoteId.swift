import Foundation

/// A source's `promoteId`: the feature property that serves as the feature's id for
/// `feature-state`, one name for all its layers or one per source layer.
public enum PromoteId: Sendable, Equatable {
    case property(String)
    case perLayer([String: String])

    /// The property named for source layer `layer` (nil: the feature's own id).
    public func property(forLayer layer: String?) -> String? {
        switch self {
        case .property(let name): return name
        case .perLayer(let names): return layer.flatMap { names[$0] }
        }
    }

    /// The `promoteId` of a source's JSON (nil when it has none); a value of another type is an
    /// error naming `path`.
    public init?(sourceJSON json: JSON, path: String) throws {
        guard case .object(let o) = json, let value = o["promoteId"] else { return nil }
        switch value {
        case .string(let name):
            self = .property(name)
        case .object(let members):
            var names: [String: String] = [:]
            for entry in members.entries {
                guard case .string(let name) = entry.value else {
                    throw StyleError("\(path).promoteId.\(entry.key): expected string, found \(entry.value.compactText)")
                }
                names[entry.key] = name
            }
            self = .perLayer(names)
        default:
            throw StyleError("\(path).promoteId: expected a property name or an object of them by source layer, found \(value.compactText)")
        }
    }
}
