import Foundation

/// A style-document layer inside the map's style: its definition and the paint properties on
/// their way to a new value (both immutable; a change makes a new `StyledLayer`), evaluated for
/// each frame by `drawLayer`.
///
/// Making the layer resolves its properties by name once: their values (and transitions) are
/// kept in arrays in the order of the type's `PaintProperty` and `LayoutProperty` cases, which
/// evaluation reads by index (`StyledLayer+Properties.swift`).
public final class StyledLayer: Sendable {
    public let definition: LayerDefinition
    /// Paint properties changed with a transition, by name (a finished one may stay until the
    /// property changes again: it evaluates to its value).
    public let transitions: [String: PaintTransition]
    /// When the last of `transitions` ends (-infinity: none).
    public let transitionsEnd: Double
    /// The layer type's paint and layout properties.
    let paintTable: LayerPropertyTable, layoutTable: LayerPropertyTable
    /// `definition.paint` by index in `paintTable` (nil: unset, the default).
    let paintValues: [PropertyValue?]
    /// `transitions` by index in `paintTable`; empty when there are none.
    let paintTransitions: [PaintTransition?]
    /// `definition.layout` by index in `layoutTable`.
    let layoutValues: [PropertyValue?]

    /// The line dash array when it depends on nothing (made once, not per frame), else nil.
    let constantDashes: [Double]?
    /// Whether what the layer draws can change with the zoom: a zoom-dependent property or
    /// filter, dashes and fill patterns (laid out per tile zoom), symbols along lines (spaced in
    /// pixels), or a zoom function in a transition.
    let dependsOnZoom: Bool
    /// Whether a symbol's icon or text can change with the zoom (a zoom function among the
    /// layer's properties, or anchors spaced along lines in pixels); else they are kept in
    /// `symbolMemo` while only the zoom changes.
    let symbolsReadZoom: Bool
    let symbolMemo = SymbolMemo()
    /// Whether every feature draws with one paint: no filter, nothing read from a feature, and
    /// only properties the geometry-set path draws (`LayerProperty.drawsAlike`). A tiled
    /// source's features are then drawn as one geometry set (`TileFrame.geometry`), as fast as
    /// an embedded one.
    let drawsAlike: Bool
    /// Whether a paint or layout property reads the feature: else every feature of a layer drawn
    /// feature by feature gets the paint evaluated for the first (a filter may still read them).
    let paintReadsFeatures: Bool
    /// A heatmap layer's colour ramp (`StyledLayer+Heatmap.swift`); nil for other types.
    let heatmapRamp: HeatmapRamp?
    /// Whether a property or the filter reads the global state, and the state's values and
    /// version the layer was made for (`Style.bindGlobalState`; -1: none yet).
    let readsGlobalState: Bool
    let globalState: [String: StyleValue], globalStateVersion: Int
    /// Whether a paint property reads the feature state.
    let readsFeatureState: Bool

    public init(_ definition: LayerDefinition, transitions: [String: PaintTransition] = [:], globalState: GlobalState? = nil) {
        self.definition = definition
        self.transitions = transitions
        self.globalState = globalState?.values ?? [:]
        globalStateVersion = globalState?.version ?? -1
        let expressions = (Array(definition.paint.values) + Array(definition.layout.values)).compactMap(\.expression)
            + transitions.values.flatMap(\.expressions)
        readsGlobalState = (definition.filter?.readsGlobalState ?? false) || (definition.visibilityExpression?.readsGlobalState ?? false)
            || expressions.contains { $0.readsGlobalState }
        readsFeatureState = expressions.contains { $0.readsFeatureState }
        transitionsEnd = transitions.values.lazy.map(\.end).max() ?? -.infinity
        let paintTable = StyleProperties.paint(definition.type), layoutTable = StyleProperties.layout(definition.type)
        self.paintTable = paintTable
        self.layoutTable = layoutTable
        func byIndex<Value>(_ named: [String: Value], _ table: LayerPropertyTable) -> [Value?] {
            var values = [Value?](repeating: nil, count: table.count)
            // (Parsing and `setPaint`/`setLayout` accept only the type's names; another in a
            // definition made by hand is never read, as before.)
            for (name, value) in named { if let i = table.index(of: name) { values[i] = value } }
            return values
        }
        let paintValues = byIndex(definition.paint, paintTable), layoutValues = byIndex(definition.layout, layoutTable)
        let paintTransitions = transitions.isEmpty ? [] : byIndex(transitions, paintTable)
        self.paintValues = paintValues
        self.layoutValues = layoutValues
        self.paintTransitions = paintTransitions

        let symbolsAlongLines = definition.type == .symbol && layoutValues[SymbolLayoutProperty.placement.rawValue] != nil
        let values = Array(definition.paint.values) + Array(definition.layout.values)
        let zoomedTransition = transitions.values.contains { $0.isZoomDependent }
        dependsOnZoom = symbolsAlongLines || zoomedTransition || definition.filter != nil || values.contains { $0.isZoomDependent }
            || (definition.type == .line && paintValues[LinePaintProperty.dasharray.rawValue] != nil)
            || (definition.type == .fill && paintValues[FillPaintProperty.pattern.rawValue] != nil)
        symbolsReadZoom = symbolsAlongLines || zoomedTransition || values.contains { $0.isZoomDependent }
        heatmapRamp = Self.heatmapRamp(definition, paintValues)
        paintReadsFeatures = values.contains { $0.isFeatureDependent } || transitions.values.contains { $0.isFeatureDependent }
        drawsAlike = definition.filter == nil && !values.contains { $0.isFeatureDependent }
            && layoutValues.indices.allSatisfy { layoutValues[$0] == nil || layoutTable.drawsAlike[$0] }
            && paintValues.indices.allSatisfy { paintValues[$0] == nil || paintTable.drawsAlike[$0] }
            && !(definition.type == .fill && paintValues[FillPaintProperty.antialias.rawValue]?.constant == .bool(false))
        let dashes = LinePaintProperty.dasharray.rawValue
        if definition.type == .line && (paintTransitions.isEmpty || paintTransitions[dashes] == nil) {
            let value = paintValues[dashes] == nil ? paintTable.defaults[dashes] : paintValues[dashes]?.constant
            constantDashes = value.map { ($0.asNumbers ?? []).map { $0.isNaN ? 0 : max($0, 0) } }
        } else {
            constantDashes = nil
        }
    }

    /// True while a paint property is on its way to a new value at `now`.
    public func isTransitioning(at now: Double) -> Bool { now < transitionsEnd }

    /// The layer with paint property `name` set to `json` at instant `now`, animated from the
    /// value shown then by the property's own `<name>-transition` or else `styleTransition`
    /// (properties the specification does not transition change at once).
    public func settingPaint(_ name: String, _ json: JSON, now: Double, styleTransition: TransitionOptions) throws -> StyledLayer {
        var d = definition
        try d.setPaint(name, json)
        var running = transitions
        if let spec = paintTable.byName[name], spec.transition, !(d.paint[name]?.isFeatureDependent ?? false) {
            let prior = running[name] ?? PaintTransition(constant: definition.paint[name])
            let t = prior.retargeted(to: d.paint[name], options: d.transitions[name] ?? styleTransition, now: now)
            running[name] = t.prior == nil ? nil : t
        } else {
            running[name] = nil     // (a value read from the feature shows at once, as in MapLibre Native)
        }
        return StyledLayer(d, transitions: running, globalState: boundGlobalState)
    }

    /// The layer with another definition (layout, filter, zoom range), its transitions kept.
    public func with(_ change: (inout LayerDefinition) throws -> Void) rethrows -> StyledLayer {
        var d = definition
        try change(&d)
        return StyledLayer(d, transitions: transitions, globalState: boundGlobalState)
    }
}
