import Foundation
import Raster

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
    /// Draws two lines this many pixels apart (a casing) instead of one.
    public var gapWidth: Double = 0
    /// Pixels over which the line's edges fade out.
    public var blur: Double = 0
    /// Pixels the line is moved to the right of its direction (`line-offset`; negative: left).
    public var offset: Double = 0
    /// How much the layer ignores the light: 1 shows its colour as is, 0 lights it fully.
    public var emissiveStrength: Double = 0
    /// `line-gradient`: colours along the line by its progress instead of `color` (nil: none).
    public var gradient: LineGradient? = nil

    /// Lengths in device pixels for `ratio` of them per CSS pixel (dashes are in widths).
    public mutating func scale(by ratio: Double) {
        width *= ratio; gapWidth *= ratio; blur *= ratio; offset *= ratio
    }

    public init(color: Color = .black, width: Double = 1, opacity: Double = 1, cap: LineCap = .butt,
                join: LineJoin = .miter, miterLimit: Double = 2, dasharray: [Double] = [],
                gapWidth: Double = 0, blur: Double = 0, emissiveStrength: Double = 0, offset: Double = 0) {
        self.color = color; self.width = width; self.opacity = opacity; self.cap = cap
        self.join = join; self.miterLimit = miterLimit; self.dasharray = dasharray
        self.gapWidth = gapWidth; self.blur = blur; self.emissiveStrength = emissiveStrength; self.offset = offset
    }
}

/// Paint of a fill layer, with the specification's defaults.
public struct FillPaint: Equatable, Sendable {
    public var color: Color = .black
    public var opacity: Double = 1
    /// How much the layer ignores the light: 1 shows its colour as is, 0 lights it fully.
    public var emissiveStrength: Double = 0
    /// `fill-pattern`: an image repeated across the polygon instead of `color` (nil: none).
    public var pattern: FillPattern? = nil
    public init(color: Color = .black, opacity: Double = 1, emissiveStrength: Double = 0, pattern: FillPattern? = nil) {
        self.color = color; self.opacity = opacity; self.emissiveStrength = emissiveStrength; self.pattern = pattern
    }
}

/// A style image repeated over a fill (`fill-pattern`), laid out as the reference engines lay it
/// out: on a grid anchored at the world's top-left corner, at the image's own size in pixels of
/// the integer zoom below the camera's (between integer zooms it grows with the map).
public struct FillPattern: Equatable, Sendable {
    /// Premultiplied pixels.
    public let image: Pixmap
    /// Image pixels across one world width (normalised Web Mercator unit).
    public let pixelsPerWorld: Double

    /// `image` drawn for `imagePixelRatio` (image pixels per CSS pixel), at camera zoom `zoom`
    /// (without the screen's pixel ratio).
    public init(image: Pixmap, imagePixelRatio: Double, zoom: Double) {
        self.image = image
        let tileZoom = max(0, zoom.isFinite ? zoom.rounded(.down) : 0)
        pixelsPerWorld = 512 * exp2(tileZoom) * imagePixelRatio
    }

    public static func == (a: FillPattern, b: FillPattern) -> Bool { a.image === b.image && a.pixelsPerWorld == b.pixelsPerWorld }
}

/// Paint of a raster layer, with the specification's defaults.
public struct RasterPaint: Equatable, Sendable {
    public var opacity: Double = 1
    /// Seconds over which a new image cross-fades in (the specification's 300 ms by default).
    public var fadeDuration: Double = 0.3
    public var resampling: Resampling = .linear
    public var brightnessMin: Double = 0
    public var brightnessMax: Double = 1
    public var contrast: Double = 0
    public var saturation: Double = 0
    /// Degrees.
    public var hueRotate: Double = 0
    public var emissiveStrength: Double = 0

    public enum Resampling: String, Sendable, Equatable, CaseIterable { case linear, nearest }

    public init(opacity: Double = 1, fadeDuration: Double = 0.3, resampling: Resampling = .linear,
                brightnessMin: Double = 0, brightnessMax: Double = 1, contrast: Double = 0, saturation: Double = 0,
                hueRotate: Double = 0, emissiveStrength: Double = 0) {
        self.opacity = opacity; self.fadeDuration = fadeDuration; self.resampling = resampling
        self.brightnessMin = brightnessMin; self.brightnessMax = brightnessMax; self.contrast = contrast
        self.saturation = saturation; self.hueRotate = hueRotate; self.emissiveStrength = emissiveStrength
    }

    /// True when the colour adjustments leave every pixel as it is.
    public var hasNoAdjustments: Bool {
        brightnessMin == 0 && brightnessMax == 1 && contrast == 0 && saturation == 0 && hueRotate == 0
    }
}

/// A layer of the map's style: a style-document layer (its definition and running
/// transitions), with its id, source, zoom range and visibility at hand.
public struct Layer: Equatable, Sendable {
    public var id: String
    /// The source id; nil for backgrounds.
    public var source: String?
    public var minZoom: Double
    public var maxZoom: Double
    public var visible: Bool
    /// The document layer, evaluated for each frame.
    public var styled: StyledLayer

    public static func == (a: Layer, b: Layer) -> Bool {
        a.id == b.id && a.source == b.source && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.visible == b.visible
            && a.styled === b.styled
    }

    /// Drawn at `zoom` (the specification's [minzoom, maxzoom) range).
    /// A minzoom of 0 (the default) sets no lower bound: the layer shows at negative zooms too,
    /// as in the reference engines.
    public func isShown(atZoom zoom: Double) -> Bool { visible && (zoom >= minZoom || minZoom <= 0) && zoom < maxZoom }
}

/// Sources and layers in draw order, and the default transition.
public struct Style: Sendable {
    /// The sources by id.
    public var sources: [String: Source]
    /// Vector images by name (`icon-image` of symbol layers finds them when the sprite has no
    /// image of that name).
    public var icons: [String: VectorIcon] = [:] { didSet { imagesVersion &+= 1 } }
    /// Counts changes of `icons` (what was drawn with them is drawn again).
    public private(set) var imagesVersion = 0
    /// The font the overlay's text is set in.
    public var font: (any TextFont)?
    /// Where symbol layers' labels get their glyphs (the style's `glyphs` ranges, local fonts).
    public var glyphs: (any GlyphSource)?
    /// Arabic joining and right-to-left reordering of labels (nil: text in logical order).
    public var bidi: (any BidiShaper)?
    public var layers: [Layer]
    /// The sources' feature states (`feature-state`) and the style's global state (`global-state`).
    public var featureStates = FeatureStates(), globalState = GlobalState()
    /// The style's sprite (icons of style-document symbol layers).
    public var sprite: SpriteSheet?
    /// The style's `transition`: used by properties without their own.
    public var transition: TransitionOptions
    /// The style's `sky` (nil: none, transparent above the horizon).
    public var sky: Sky?
    /// The style's `projection` (nil: none given, Web Mercator).
    public var projection: Projection?
    /// The raster-dem source of the style's `terrain` (nil: none): its relief is not drawn, but
    /// on the globe the ground is drawn on its mesh (`surfaceMesh`).
    public var terrainSource: String?
    /// What of the style document could not be read or loaded and was left out, one line each
    /// (its JSON path or URL, what and why), in the order found; the rest is drawn.
    public var skipped: [String] = []
    /// The style's `light` (it shades fill-extrusion layers).
    public var light = StyleLight()

    public init(sources: [String: Source] = [:], layers: [Layer] = [], transition: TransitionOptions = .default) {
        self.sources = sources; self.layers = layers; self.transition = transition
    }

    /// The GeoJSON source `id`'s data (nil: none, or another kind).
    public func geojson(_ id: String?) -> GeoJSONData? {
        if let id, case let .geojson(d)? = sources[id] { return d }
        return nil
    }

    /// The image source `id`.
    public func image(_ id: String?) -> ImageSource? {
        if let id, case let .image(s)? = sources[id] { return s }
        return nil
    }

    /// The geometry of layer `sourceLayer` of vector source `id`.
    /// The tiled source `id`.
    public func tiles(_ id: String?) -> TileSet? {
        if let id, case let .tiles(t)? = sources[id] { return t }
        return nil
    }

    public func layerIndex(_ id: String) -> Int? { layers.firstIndex { $0.id == id } }
}
