import Foundation

/// What is drawn over the map in screen space: attribution, status line, scale bar, help.
public struct Overlay: Equatable, Sendable {
    public var attribution: String
    public var status: [StatusPart]
    public var help: [String]?
    /// The scale bar: its length in pixels and its label.
    public var scale: (pixels: Double, label: String)?
    public var font: (any TextFont)?
    /// Where the attribution, status and scale bar go (nil without a font: nothing is drawn).
    public var layout: OverlayLayout?
    /// The compass, shown while the map is not north-up: where it is and the bearing it shows.
    public var compass: (area: CompassArea, bearing: Double)?
    /// A row of marks above the status line, one per slot of a frame sequence (the radar's).
    public var timeline: Timeline?
    /// A colour scale with labelled ticks, top left (the radar's reflectivity).
    public var legend: Legend?

    public init(attribution: String, status: [StatusPart], help: [String]?, scale: (pixels: Double, label: String)?, font: (any TextFont)?,
                layout: OverlayLayout? = nil, compass: (area: CompassArea, bearing: Double)? = nil) {
        self.attribution = attribution; self.status = status; self.help = help; self.scale = scale; self.font = font
        self.layout = layout; self.compass = compass
    }

    /// The slots of a frame sequence: filled marks for those with a frame, hollow ones for
    /// those without, the one shown taller.
    public struct Timeline: Equatable, Sendable {
        public var filled: [Bool]
        public var current: Int?
        /// The map area whose frames it counts: shown only while some of it is in view (nil: always).
        public var area: LngLatBounds?
        public init(filled: [Bool], current: Int?, area: LngLatBounds? = nil) {
            self.filled = filled; self.current = current; self.area = area
        }
    }

    /// A colour scale: bins of colour from their lower value to the next bin's (the last to
    /// `upTo`), drawn left to right, with ticks labelled in `unit`.
    public struct Legend: Equatable, Sendable {
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

    public static func == (a: Overlay, b: Overlay) -> Bool {
        a.attribution == b.attribution && a.status == b.status && a.help == b.help && a.scale?.pixels == b.scale?.pixels
            && a.scale?.label == b.scale?.label && a.font === b.font && a.layout == b.layout
            && a.compass?.area == b.compass?.area && a.compass?.bearing == b.compass?.bearing
            && a.timeline == b.timeline && a.legend == b.legend
    }

    /// The overlay's light text and its dark halo (drawn at 0.9 opacity).
    public static let textColor = Color(rgb: 0xE6ECF4), haloColor = Color(rgb: 0x0B1016)

    /// The compass's disc: top right, 12 CSS pixels from the edges, 15 in radius.
    public static func compassArea(width: Double, pixelRatio: Double) -> CompassArea {
        let r = 15 * pixelRatio, inset = 12 * pixelRatio
        return CompassArea(x: width - inset - r, y: inset + r, radius: r)
    }

    /// A scale bar at most `maxPixels` long for `metresPerPixel`: 1, 2 or 5 times a power of ten
    /// in metres or kilometres (feet or miles when `imperial`).
    public static func scaleBar(metresPerPixel: Double, imperial: Bool, maxPixels: Double = 110) -> (pixels: Double, label: String)? {
        guard metresPerPixel > 0, metresPerPixel.isFinite else { return nil }
        let maxMetres = metresPerPixel * maxPixels
        // The large unit when at least one of it fits, else the small one (tuples, not arrays:
        // this runs every frame and should not allocate).
        let large: (metres: Double, name: String) = imperial ? (1609.344, "mi") : (1000, "km")
        let small: (metres: Double, name: String) = imperial ? (0.3048, "ft") : (1, "m")
        let unit = maxMetres >= large.metres ? large : small
        let limit = maxMetres / unit.metres
        var best = 0.0
        var p = pow(10, (log10(limit)).rounded(.down))
        for _ in 0..<2 {
            for m in 0..<3 {
                let v = (m == 0 ? 1.0 : m == 1 ? 2.0 : 5.0) * p
                if v <= limit { best = max(best, v) }
            }
            p /= 10
        }
        guard best > 0 else { return nil }
        let value = best >= 1 && best < 1e15 ? String(Int(best.rounded())) : String(format: "%g", best)
        return (best * unit.metres / metresPerPixel, "\(value) \(unit.name)")
    }
}

/// A disc on screen that takes clicks (the compass).
public struct CompassArea: Equatable, Sendable {
    public var x: Double, y: Double, radius: Double
    public init(x: Double, y: Double, radius: Double) { self.x = x; self.y = y; self.radius = radius }
    public func contains(x px: Double, y py: Double) -> Bool {
        (px - x) * (px - x) + (py - y) * (py - y) <= radius * radius
    }
}
