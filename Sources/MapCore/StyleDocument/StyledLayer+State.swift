import Foundation

// What a layer reads of the map's state: the global state it was made for (its properties and
// filter) and its features' states.

extension StyledLayer {
    /// `context` with the global state this layer was made for.
    @inline(__always)
    func bound(_ context: EvaluationContext) -> EvaluationContext {
        var c = context
        c.globalState = globalState
        return c
    }

    /// Whether `feature` passes the layer's filter (none: all do) at `zoom`.
    @inline(__always)
    func passesFilter(_ feature: EvaluationFeature, zoom: Double) -> Bool {
        guard let f = definition.filter else { return true }
        return f.matches(feature, zoom: zoom, globalState: globalState)
    }

    /// The context a feature's paint is evaluated in: its state from `style` when the layer's
    /// paint reads it.
    func featureContext(_ feature: EvaluationFeature, _ style: Style, _ e: StyleEvaluation) -> EvaluationContext {
        var c = EvaluationContext(zoom: e.zoom, feature: feature, time: e.now)
        if readsFeatureState, let states = featureStates(style) { c.featureState = states.state(of: feature) }
        return c
    }

    /// The states of the layer's source layer (nil: none, or the layer reads none).
    func featureStates(_ style: Style) -> FeatureStates.LayerStates? {
        guard readsFeatureState else { return nil }
        return style.featureStates.layer(source: definition.source, sourceLayer: definition.sourceLayer,
                                         geojson: style.geojson(definition.source) != nil)
    }

    /// The version of the feature states this layer reads (0: it reads none).
    func featureStateVersion(_ style: Style) -> Int {
        readsFeatureState ? style.featureStates.version(of: definition.source) : 0
    }
}

extension StyledLayer {
    /// The global state the layer was made for, to make a changed layer for it too.
    var boundGlobalState: GlobalState? {
        globalStateVersion < 0 ? nil : GlobalState(bound: globalState, version: globalStateVersion)
    }
}
