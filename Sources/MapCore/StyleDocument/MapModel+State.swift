/// The state API, as MapLibre has it: a feature's state (`feature-state` in paint properties)
/// and the style's global state (`global-state` anywhere). A change draws in the next `frame()`
/// at once (state values do not transition).
extension MapModel {
    /// Merges `state` into the state of feature `id` of `source` (and, for a vector source, its
    /// `sourceLayer`); keys not named keep their values. The id is the feature's id, or the
    /// value of its source's `promoteId` property; numbers and strings that read as the same
    /// number are the same id.
    public mutating func setFeatureState(source: String, sourceLayer: String? = nil, id: StyleValue,
                                         state: [String: StyleValue]) throws {
        try checkStateTarget(source, sourceLayer)
        guard let key = FeatureStateID(id) else { throw StyleError("sources.\(source): a feature id is a number or a string, found \(id.compactText)") }
        mutateStyle { $0.featureStates.set(source: source, sourceLayer: sourceLayer, id: key, state) }
    }

    /// Removes `key` from feature `id`'s state, or (no key) its whole state, or (no id) the
    /// states of every feature of the source (its `sourceLayer` for a vector source).
    public mutating func removeFeatureState(source: String, sourceLayer: String? = nil, id: StyleValue? = nil,
                                            key: String? = nil) throws {
        try checkStateTarget(source, sourceLayer)
        var featureID: FeatureStateID?
        if let id {
            guard let k = FeatureStateID(id) else { throw StyleError("sources.\(source): a feature id is a number or a string, found \(id.compactText)") }
            featureID = k
        } else if key != nil {
            throw StyleError("sources.\(source): a feature id is required to remove its state's key \"\(key ?? "")\"")
        }
        mutateStyle { $0.featureStates.remove(source: source, sourceLayer: sourceLayer, id: featureID, key: key) }
    }

    /// The state of feature `id` (empty: none).
    public func featureState(source: String, sourceLayer: String? = nil, id: StyleValue) throws -> [String: StyleValue] {
        try checkStateTarget(source, sourceLayer)
        guard let key = FeatureStateID(id) else { throw StyleError("sources.\(source): a feature id is a number or a string, found \(id.compactText)") }
        return style.featureStates.state(source: source, sourceLayer: sourceLayer, id: key)
    }

    /// Sets the global state property `name` (`global-state`); null restores the default of
    /// the style's `state` member (none: null). Layers reading it are evaluated again, layout
    /// and filter included.
    public mutating func setGlobalStateProperty(_ name: String, _ value: StyleValue) {
        guard style.globalState.values[name] != (value == .null ? style.globalState.defaults[name] : value) else { return }
        mutateStyle { _ = $0.globalState.set(name, value) }
    }

    /// The global state expressions read now: the values set over the `state` defaults.
    public var globalState: [String: StyleValue] { style.globalState.values }

    /// MapLibre's checks of a feature-state target: the source exists and has features, and a
    /// source layer is given for a vector source and not for a GeoJSON one.
    private func checkStateTarget(_ source: String, _ sourceLayer: String?) throws {
        switch style.sources[source] {
        case nil:
            throw StyleError("sources.\(source): no such source")
        case .geojson?:
            if sourceLayer != nil { throw StyleError("sources.\(source): a GeoJSON source has no source layers (sourceLayer must not be given)") }
        case .tiles(let t)? where t.kind == .vector:
            if sourceLayer == nil { throw StyleError("sources.\(source): the sourceLayer must be given for a vector source") }
        case .tiles?, .image?:
            throw StyleError("sources.\(source): a \(style.sources[source]?.typeName ?? "") source has no features to hold state")
        }
    }
}
