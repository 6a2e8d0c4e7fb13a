/// How a paint property change is animated: the specification's `transition` object.
public struct TransitionOptions: Equatable, Sendable {
    /// Seconds.
    public var duration: Double
    /// Seconds before the change starts.
    public var delay: Double

    public init(duration: Double = 0.3, delay: Double = 0) {
        self.duration = max(0, duration.isFinite ? duration : 0)
        self.delay = max(0, delay.isFinite ? delay : 0)
    }

    /// The specification's default: 300 ms, no delay.
    public static let `default` = TransitionOptions()
}

/// A property value on its way to a target (MapLibre's transitioning property value).
///
/// Until `begin` it shows its prior; between `begin` and `end` it moves from the prior's value
/// *at that instant* to the target along cubic-bezier(0.25, 0.1, 0.25, 1); from `end` on it is the
/// target. The prior may itself still be transitioning, so retargeting mid-way continues smoothly
/// from the value shown at the moment of the change.
public final class TransitioningValue: Sendable {
    public let target: PaintValue
    public let prior: TransitioningValue?
    public let begin: Double
    public let end: Double

    /// A value that is simply there, with no transition.
    public init(constant: PaintValue) {
        target = constant; prior = nil; begin = -.infinity; end = -.infinity
    }

    init(target: PaintValue, prior: TransitioningValue, begin: Double, end: Double) {
        self.target = target; self.prior = prior; self.begin = begin; self.end = end
    }

    /// `self` retargeted at instant `now` to `value` with `options`. A finished chain is dropped
    /// (its value is constant); a zero-length transition without delay takes effect at once.
    public func retargeted(to value: PaintValue, options: TransitionOptions, now: Double) -> TransitioningValue {
        // (A constant is its own value at any instant: no copy of it is made.)
        let from = isRunning(at: now) || prior == nil ? self : TransitioningValue(constant: self.value(at: now))
        if options.duration == 0 && options.delay == 0 { return TransitioningValue(constant: value) }
        let begin = now + options.delay
        return TransitioningValue(target: value, prior: from, begin: begin, end: begin + options.duration)
    }

    /// True until the transition (and every prior one it starts from) has ended.
    public func isRunning(at now: Double) -> Bool { prior != nil && now < end }

    public func value(at now: Double) -> PaintValue {
        guard let prior, now < end else { return target }
        let from = prior.value(at: now)
        if now < begin { return from }
        let t = (now - begin) / (end - begin)
        return PaintValue.interpolate(from, target, Easing.ease.value(t))
    }
}
