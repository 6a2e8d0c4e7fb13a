/// A document paint property on its way to a new value (MapLibre Native's `Transitioning`).
///
/// Until `begin` it shows its prior; between `begin` and `end` it moves from the prior's value
/// *at that instant* to the new one along cubic-bezier(0.25, 0.1, 0.25, 1); from `end` on it is
/// the new value. The prior may itself still be transitioning, so a change mid-way continues
/// from the value shown at that moment. Both ends are property values, evaluated for the frame's
/// zoom: a zoom function keeps following the zoom during the transition.
///
/// Numbers, colours and number arrays of one length interpolate. A value that reads the feature
/// shows at once (as in MapLibre Native, which does not transition data-driven values), and so
/// does one that cannot be interpolated (a string, a dash array of another length).
///
/// It is the map's one transition engine: the light preset's ground radiance eases through it
/// too (``MapModel/setLight(_:at:)``).
public final class PaintTransition: Sendable {
    /// The value transitioned to; nil: the specification default.
    public let value: PropertyValue?
    public let prior: PaintTransition?
    public let begin: Double
    public let end: Double

    /// A value that is simply there.
    public init(constant value: PropertyValue?) {
        self.value = value; prior = nil; begin = -.infinity; end = -.infinity
    }

    private init(value: PropertyValue?, prior: PaintTransition, begin: Double, end: Double) {
        self.value = value; self.prior = prior; self.begin = begin; self.end = end
    }

    /// `self` changed at `now` to `value` with `options`: a chain that has ended is dropped (only
    /// its value is kept); a transition of no length and no delay takes effect at once.
    public func retargeted(to value: PropertyValue?, options: TransitionOptions, now: Double) -> PaintTransition {
        if options.duration == 0 && options.delay == 0 { return PaintTransition(constant: value) }
        let from = isRunning(at: now) ? self : PaintTransition(constant: self.value)
        let begin = now + options.delay
        return PaintTransition(value: value, prior: from, begin: begin, end: begin + options.duration)
    }

    /// Whether a value of the chain changes with the zoom.
    public var isZoomDependent: Bool { (value?.isZoomDependent ?? false) || (prior?.isZoomDependent ?? false) }
    /// Whether a value of the chain reads the feature.
    public var isFeatureDependent: Bool { (value?.isFeatureDependent ?? false) || (prior?.isFeatureDependent ?? false) }

    /// True until this transition (and every prior one it starts from) has ended.
    public func isRunning(at now: Double) -> Bool { prior != nil && now < end }

    /// The value at `context.time`, for `context`'s zoom and feature; `fallback` is the
    /// specification default.
    public func evaluate(_ context: EvaluationContext, fallback: StyleValue) -> StyleValue {
        let target = value?.evaluate(context) ?? fallback
        guard let prior, context.time < end, !(value?.isFeatureDependent ?? false) else { return target }
        let from = prior.evaluate(context, fallback: fallback)
        if context.time < begin { return from }
        let t = Easing.ease.value((context.time - begin) / (end - begin))
        return Self.interpolate(from, target, t)
    }

    /// `t` of the way from `a` to `b`: numbers and number arrays element by element, colours in
    /// straight RGBA; anything else is `b`.
    static func interpolate(_ a: StyleValue, _ b: StyleValue, _ t: Double) -> StyleValue {
        switch (a, b) {
        case let (.number(x), .number(y)):
            return .number(x + (y - x) * t)
        case let (.color(x), .color(y)):
            return .color(x.mixed(with: y, t))
        case let (.array(x), .array(y)) where x.count == y.count:
            var out: [StyleValue] = []
            out.reserveCapacity(x.count)
            for (p, q) in zip(x, y) {
                guard case let .number(u) = p, case let .number(v) = q else { return b }
                out.append(.number(u + (v - u) * t))
            }
            return .array(out)
        default:
            return b
        }
    }
}
