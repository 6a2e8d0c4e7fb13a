import Foundation

/// A feature id as feature state is keyed by it: MapLibre keys state by `String(id)` and finds
/// a feature's state through the id as a number when it reads as one (up to 2^53 - 1) and
/// through the string otherwise, so `1`, `"1"` and `"1.0"` are the same feature, and
/// `"9007199254740993"` is not `"9007199254740992"`.
public enum FeatureStateID: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case string(String)

    static let maxSafeInteger = 9_007_199_254_740_991.0

    /// The key of an id given to the state API or read from a promoted property: a number, a
    /// string, or a boolean (as 0 or 1); nil for anything else.
    public init?(_ value: StyleValue) {
        switch value {
        case .number(let n): self.init(number: n)
        case .string(let s): self.init(string: s)
        case .bool(let b): self = .number(b ? 1 : 0)
        default: return nil
        }
    }

    init?(number n: Double) {
        guard !n.isNaN else { return nil }
        self = n <= Self.maxSafeInteger ? .number(n == 0 ? 0 : n) : .string(JSNumber.format(n))
    }

    init(string s: String) {
        let n = JSNumber.parse(s)
        self = !n.isNaN && n <= Self.maxSafeInteger ? .number(n == 0 ? 0 : n) : .string(s)
    }

    /// A GeoJSON feature's own id as MapLibre's GeoJSON tiles carry it: a number as it is, a
    /// string by its leading integer (JavaScript's `parseInt`, so `"12abc"` is 12; none: no id).
    static func geojson(_ value: StyleValue?) -> FeatureStateID? {
        switch value {
        case .number(let n)?: return FeatureStateID(number: n)
        case .string(let s)?: return parseInt(s).flatMap { FeatureStateID(number: $0) }
        default: return nil
        }
    }

    /// JavaScript's `parseInt(s, 10)`: leading white space, a sign, then decimal digits up to
    /// the first other character; nil when there are none.
    static func parseInt(_ s: String) -> Double? {
        var scalars = Substring(s).unicodeScalars.drop(while: JSNumber.isJSWhitespace)[...]
        var sign = 1.0
        if let c = scalars.first, c == "+" || c == "-" {
            sign = c == "-" ? -1 : 1
            scalars = scalars.dropFirst()
        }
        var value = 0.0, digits = 0
        for c in scalars {
            guard c.value >= 48, c.value <= 57 else { break }
            value = value * 10 + Double(c.value - 48)
            digits += 1
        }
        return digits == 0 ? nil : sign * value
    }

    public var description: String {
        switch self {
        case .number(let n): return JSNumber.format(n)
        case .string(let s): return s
        }
    }
}

/// The feature states of the map's sources (`setFeatureState`), by source, source layer (""
/// for GeoJSON sources) and feature id, with each source's `promoteId` and a version per source
/// that changes with every change to its states: what was drawn from a source's states is kept
/// while its version stays.
public struct FeatureStates: Sendable {
    public typealias State = [String: StyleValue]
    private var states: [String: [String: [FeatureStateID: State]]] = [:]
    private var versions: [String: Int] = [:]
    /// Counts all changes: a source's version is the count at its last change (a source removed
    /// and added again never returns to an earlier version).
    private var changes = 0
    /// `promoteId` by source id.
    public var promoteIds: [String: PromoteId] = [:]

    public init() {}

    /// The version of `source`'s states (0 before any change).
    public func version(of source: String?) -> Int { source.flatMap { versions[$0] } ?? 0 }

    private mutating func changed(_ source: String) {
        changes &+= 1
        versions[source] = changes
    }

    /// Merges `state` into the feature's (keys not named keep their values).
    public mutating func set(source: String, sourceLayer: String?, id: FeatureStateID, _ state: State) {
        states[source, default: [:]][sourceLayer ?? "", default: [:]][id, default: [:]].merge(state) { _, new in new }
        changed(source)
    }

    /// Removes one key of a feature's state (`key`), a feature's state (`id`, no key), or the
    /// states of every feature of the source layer (neither).
    public mutating func remove(source: String, sourceLayer: String?, id: FeatureStateID?, key: String?) {
        let layer = sourceLayer ?? ""
        guard states[source]?[layer] != nil else { return }
        if let id {
            if let key {
                states[source]?[layer]?[id]?[key] = nil
            } else {
                states[source]?[layer]?[id] = nil
            }
        } else {
            states[source]?[layer] = nil
        }
        changed(source)
    }

    /// Forgets a source's states and `promoteId` (the source was removed).
    public mutating func removeSource(_ source: String) {
        if states.removeValue(forKey: source) != nil { changed(source) }
        promoteIds[source] = nil
    }

    /// The state of one feature, by the id given to the API (empty: none).
    public func state(source: String, sourceLayer: String?, id: FeatureStateID) -> State {
        states[source]?[sourceLayer ?? ""]?[id] ?? [:]
    }

    /// The states of a source layer (nil: none), with how its features' ids are found, for
    /// evaluating its features one by one.
    func layer(source: String?, sourceLayer: String?, geojson: Bool) -> LayerStates? {
        guard let source, let byID = states[source]?[geojson ? "" : sourceLayer ?? ""], !byID.isEmpty else { return nil }
        return LayerStates(byID: byID, promote: promoteIds[source]?.property(forLayer: sourceLayer), geojson: geojson)
    }

    /// A source layer's states and the rule that finds a feature's id.
    struct LayerStates {
        let byID: [FeatureStateID: State]
        /// The promoted property, nil: the feature's id.
        let promote: String?
        /// GeoJSON features' string ids are read as MapLibre's GeoJSON tiles read them.
        let geojson: Bool

        /// The state of `feature` (empty: none).
        func state(of feature: EvaluationFeature) -> State {
            let id: FeatureStateID?
            if let promote {
                id = feature.properties[promote].flatMap(FeatureStateID.init)
            } else if geojson {
                id = FeatureStateID.geojson(feature.id)
            } else {
                id = feature.id.flatMap(FeatureStateID.init)
            }
            return id.flatMap { byID[$0] } ?? [:]
        }
    }
}
