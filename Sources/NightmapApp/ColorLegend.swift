import MapCore

/// A colour scale shown top left (the radar's reflectivity): bins of colour from their lower
/// value to the next bin's (the last to `upTo`), drawn left to right, with ticks labelled in `unit`.
public struct ColorLegend: Equatable, Sendable {
    public struct Bin: Equatable, Sendable {
        public var from: Double
        public var color: Color
        public init(from: Double, color: Color) { self.from = from; self.color = color }
    }
    public var bins: [Bin]
    public var upTo: Double
    public var ticks: [Double]
    public var unit: String
    /// The map area whose colours it explains: shown only while some of it is in view (nil: always).
    public var area: LngLatBounds?
    public init(bins: [Bin], upTo: Double, ticks: [Double], unit: String, area: LngLatBounds? = nil) {
        self.bins = bins; self.upTo = upTo; self.ticks = ticks; self.unit = unit; self.area = area
    }
    public var from: Double { bins.first?.from ?? upTo }
}
