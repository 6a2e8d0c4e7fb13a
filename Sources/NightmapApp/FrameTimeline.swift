import MapCore

/// The slots of a frame sequence (the radar's), shown as a row of marks above the status line:
/// filled for those with a frame, hollow for those without, the one shown taller.
public struct FrameTimeline: Equatable, Sendable {
    public var filled: [Bool]
    public var current: Int?
    /// The map area whose frames it counts: shown only while some of it is in view (nil: always).
    public var area: LngLatBounds?
    public init(filled: [Bool], current: Int?, area: LngLatBounds? = nil) {
        self.filled = filled; self.current = current; self.area = area
    }
}
