import Raster

/// Reading the layer's properties for an evaluation context, by typed key: an index into the
/// arrays the layer resolved when it was made, no name looked up.
extension StyledLayer {
    /// A paint property's value for `context` (at `context.time` while it transitions), or the
    /// specification default when unset.
    @inline(__always)
    func paint<P: PaintProperty>(_ property: P, _ context: EvaluationContext) -> StyleValue {
        assert(P.layerType == definition.type, "\(property) read from a \(definition.type) layer")
        return paint(at: property.rawValue, context)
    }

    /// The paint property at index `i` of `paintTable`.
    @inline(__always)
    private func paint(at i: Int, _ context: EvaluationContext) -> StyleValue {
        // (The context is copied only for a layer that reads the global state.)
        readsGlobalState ? paintEvaluated(at: i, bound(context)) : paintEvaluated(at: i, context)
    }

    @inline(__always)
    private func paintEvaluated(at i: Int, _ context: EvaluationContext) -> StyleValue {
        if !paintTransitions.isEmpty, let t = paintTransitions[i] {
            return t.evaluate(context, fallback: paintTable.defaults[i])
        }
        if let v = paintValues[i] { return v.evaluate(context) }
        return paintTable.defaults[i]
    }

    /// A layout property's value for `context`, or the specification default when unset.
    @inline(__always)
    func layout<P: LayoutProperty>(_ property: P, _ context: EvaluationContext) -> StyleValue {
        assert(P.layerType == definition.type, "\(property) read from a \(definition.type) layer")
        let i = property.rawValue
        if let v = layoutValues[i] { return readsGlobalState ? v.evaluate(bound(context)) : v.evaluate(context) }
        return layoutTable.defaults[i]
    }

    /// A paint property's value at `zoom` and instant `now`, for a feature without properties
    /// (the style API's, by name: `.null` for a name the layer type does not have).
    public func paintValue(_ name: String, zoom: Double, now: Double) -> StyleValue {
        guard let i = paintTable.index(of: name) else { return .null }
        return paint(at: i, EvaluationContext(zoom: zoom, time: now))
    }

    func number<P: PaintProperty>(_ property: P, _ c: EvaluationContext) -> Double { paint(property, c).asNumber ?? 0 }
    func number<P: LayoutProperty>(_ property: P, _ c: EvaluationContext) -> Double { layout(property, c).asNumber ?? 0 }

    func color<P: PaintProperty>(_ property: P, _ c: EvaluationContext) -> Color { paint(property, c).asColor ?? .black }

    func string<P: PaintProperty>(_ property: P, _ c: EvaluationContext) -> String { paint(property, c).asString ?? "" }
    func string<P: LayoutProperty>(_ property: P, _ c: EvaluationContext) -> String { layout(property, c).asString ?? "" }

    /// A two-number property (`*-translate`, `icon-offset`), read without making an array.
    func pair<P: PaintProperty>(_ property: P, _ c: EvaluationContext) -> (Double, Double) { Self.pair(paint(property, c)) }
    func pair<P: LayoutProperty>(_ property: P, _ c: EvaluationContext) -> (Double, Double) { Self.pair(layout(property, c)) }

    private static func pair(_ v: StyleValue) -> (Double, Double) {
        guard case let .array(a) = v, a.count == 2, let x = a[0].asNumber, let y = a[1].asNumber else { return (0, 0) }
        return (x, y)
    }

    /// True when a paint property is set (rather than left to its default).
    func isSet<P: PaintProperty>(_ property: P) -> Bool {
        paintValues[property.rawValue] != nil || (!paintTransitions.isEmpty && paintTransitions[property.rawValue] != nil)
    }

    /// True when a layout property is set (rather than left to its default).
    func isSet<P: LayoutProperty>(_ property: P) -> Bool { layoutValues[property.rawValue] != nil }
}
