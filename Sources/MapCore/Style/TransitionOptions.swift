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
