import Foundation

/// The style's global state (`global-state` expressions): the root `state` member's defaults
/// and the values `setGlobalStateProperty` set over them, with a version that changes with
/// every change (layers reading the state are made again for it: `Style.bindGlobalState`).
public struct GlobalState: Sendable {
    /// The `state` member's defaults by property name.
    public private(set) var defaults: [String: StyleValue]
    /// What expressions read: the values set, over the defaults.
    public private(set) var values: [String: StyleValue]
    /// Counts changes (0: the defaults as read).
    public private(set) var version = 0

    public init(defaults: [String: StyleValue] = [:]) {
        self.defaults = defaults
        values = defaults
    }

    /// Sets property `name`; null restores its default (none: no value). Whether it changed.
    @discardableResult
    public mutating func set(_ name: String, _ value: StyleValue) -> Bool {
        let new = value == .null ? defaults[name] : value
        guard values[name] != new else { return false }
        values[name] = new
        version &+= 1
        return true
    }
}

extension Style {
    /// Makes every layer that reads the global state (in a property or its filter) read its
    /// current values, where it does not yet: a new layer object, so everything drawn from the
    /// layer before (its features, its symbols) is evaluated again, layout included.
    mutating func bindGlobalState() {
        let state = globalState
        for i in layers.indices {
            let s = layers[i].styled
            guard s.readsGlobalState, s.globalStateVersion != state.version else { continue }
            var d = s.definition
            if let v = d.visibilityExpression {
                d.visible = LayerDefinition.visibility(v, state.values)
                layers[i].visible = d.visible
            }
            layers[i].styled = StyledLayer(d, transitions: s.transitions, globalState: state)
        }
    }
}

extension GlobalState {
    /// The state with these values and version (a layer's, handed on to the layer made from it).
    init(bound values: [String: StyleValue], version: Int) {
        defaults = [:]
        self.values = values
        self.version = version
    }
}

extension PaintTransition {
    /// The expressions of the chain's values.
    var expressions: [StyleExpression] {
        var out: [StyleExpression] = []
        var t: PaintTransition? = self
        while let step = t {
            if let e = step.value?.expression { out.append(e) }
            t = step.prior
        }
        return out
    }
}

extension LayerDefinition {
    /// `visibility` as an expression: of the global state only (MapLibre's rule), `"none"`
    /// hides the layer and any other value shows it.
    mutating func setVisibilityExpression(_ json: JSON, path: String) throws {
        let e = try StyleExpression.parse(json, path: path, expected: .string)
        if e.isFeatureDependent || e.isZoomDependent {
            throw StyleError("\(path): a visibility expression may read the global state only")
        }
        visibilityExpression = e
        visible = Self.visibility(e, [:])
    }

    /// Whether the expression shows the layer with the global state `values`.
    static func visibility(_ e: StyleExpression, _ values: [String: StyleValue]) -> Bool {
        var c = EvaluationContext(zoom: 0)
        c.globalState = values
        return (try? e.evaluate(c)) != .string("none")
    }
}

extension Filter {
    /// Whether the filter reads the global state.
    var readsGlobalState: Bool {
        if case .expression(let e) = root { return e.readsGlobalState }
        return false
    }
}
