/// Line ends, as the style specification names them.
public enum LineCap: String, Sendable, Equatable, CaseIterable { case butt, round, square }
/// Line joins, as the style specification names them.
public enum LineJoin: String, Sendable, Equatable, CaseIterable { case miter, bevel, round }

/// Paint of a line layer, with the specification's defaults.
public struct LinePaint: Equatable, Sendable {
    public var color: Color = .black
    public var width: Double = 1
    public var opacity: Double = 1
    public var cap: LineCap = .butt
    public var join: LineJoin = .miter
    public var miterLimit: Double = 2
    /// Dash and gap lengths in line widths; empty for solid.
    public var dasharray: [Double] = []
    public init(color: Color = .black, width: Double = 1, opacity: Double = 1, cap: LineCap = .butt,
                join: LineJoin = .miter, miterLimit: Double = 2, dasharray: [Double] = []) {
        self.color = color; self.width = width; self.opacity = opacity; self.cap = cap
        self.join = join; self.miterLimit = miterLimit; self.dasharray = dasharray
    }
}

/// Paint of a fill layer, with the specification's defaults.
public struct FillPaint: Equatable, Sendable {
    public var color: Color = .black
    public var opacity: Double = 1
    public init(color: Color = .black, opacity: Double = 1) { self.color = color; self.opacity = opacity }
}

/// What a layer draws.
public enum LayerPaint: Equatable, Sendable {
    case background(color: Color, opacity: Double)
    case fill(FillPaint)
    case line(LinePaint)

    public var typeName: String {
        switch self {
        case .background: return "background"
        case .fill: return "fill"
        case .line: return "line"
        }
    }
}

/// A style layer: plain data naming its source and paint.
public struct Layer: Equatable, Sendable {
    public var id: String
    /// The source id; nil for backgrounds.
    public var source: String?
    public var minZoom: Double
    public var maxZoom: Double
    public var visible: Bool
    public var paint: LayerPaint

    public init(id: String, source: String? = nil, minZoom: Double = 0, maxZoom: Double = 24,
                visible: Bool = true, paint: LayerPaint) {
        self.id = id; self.source = source; self.minZoom = minZoom; self.maxZoom = maxZoom
        self.visible = visible; self.paint = paint
    }

    /// Drawn at `zoom` (the specification's [minzoom, maxzoom) range).
    public func isShown(atZoom zoom: Double) -> Bool { visible && zoom >= minZoom && zoom < maxZoom }
}

/// Sources and layers in draw order.
public struct Style: Sendable {
    public var sources: [String: GeometrySet]
    public var layers: [Layer]
    public init(sources: [String: GeometrySet] = [:], layers: [Layer] = []) {
        self.sources = sources; self.layers = layers
    }
}
