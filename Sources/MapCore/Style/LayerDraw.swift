import Raster

/// What one layer of a frame draws, by the layer's kind: each case carries exactly what that
/// kind needs, evaluated for the instant (colours lit, lengths in device pixels).
public enum LayerDraw: Equatable, Sendable {
    /// A colour over the whole frame.
    case background(color: Color, opacity: Double)
    case fill(FillDraw)
    case line(LineDraw)
    case circle(FeatureDraw<CirclePaint>)
    case raster(RasterDraw)
    case symbol(SymbolDraw)
    case heatmap(HeatmapDraw)
    case hillshade(HillshadeDraw)
    case colorRelief(ColorReliefDraw)
    case fillExtrusion(FillExtrusionDraw)
}

/// What a fill or line layer draws: one paint for a whole geometry set (a tiled layer whose
/// features all draw alike: the fast path), or each feature with its own paint.
public enum ShapesDraw<Paint: Equatable & Sendable, FeaturePaint: Equatable & Sendable>: Equatable, Sendable {
    case uniform(GeometrySet, Paint)
    case features(FeatureDraw<FeaturePaint>)

    /// (Geometry sets are the same when they are the same object: they never change.)
    public static func == (a: ShapesDraw, b: ShapesDraw) -> Bool {
        switch (a, b) {
        case let (.uniform(g, p), .uniform(h, q)): return g === h && p == q
        case let (.features(f), .features(g)): return f == g
        default: return false
        }
    }
}

/// A fill layer's polygons.
public typealias FillDraw = ShapesDraw<FillPaint, FeatureFillPaint>
/// A line layer's lines.
public typealias LineDraw = ShapesDraw<LinePaint, LinePaint>

/// A fill feature's paint: the fill, its `fill-outline-color` (nil: none set) and whether its
/// edges are anti-aliased (`fill-antialias`).
public struct FeatureFillPaint: Equatable, Sendable {
    public var fill: FillPaint
    public var outline: Color?
    public var antialias: Bool
    public init(fill: FillPaint, outline: Color? = nil, antialias: Bool = true) {
        self.fill = fill; self.outline = outline; self.antialias = antialias
    }
}

/// A raster layer's images: an image source's current frame, or a tiled source's tiles (each an
/// image in its square), with the layer's paint.
public struct RasterDraw: Equatable, Sendable {
    public let paint: RasterPaint
    public let image: FrameDescription.ImageDraw?
    public let tiles: [FrameDescription.ImageDraw]
    public init(paint: RasterPaint, image: FrameDescription.ImageDraw? = nil, tiles: [FrameDescription.ImageDraw] = []) {
        self.paint = paint; self.image = image; self.tiles = tiles
    }
}
