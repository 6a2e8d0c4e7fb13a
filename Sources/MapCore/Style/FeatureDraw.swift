import Raster
/// Paint of a circle layer, evaluated for one feature, with the specification's defaults.
public struct CirclePaint: Equatable, Sendable {
    /// Pixels.
    public var radius: Double = 5
    public var color: Color = .black
    /// The fraction of the radius over which the circle fades out.
    public var blur: Double = 0
    public var opacity: Double = 1
    public var strokeWidth: Double = 0
    public var strokeColor: Color = .black
    public var strokeOpacity: Double = 1
    /// `circle-pitch-alignment` map: on a pitched map the disc lies in the map's plane (else it
    /// faces the viewer); `circle-pitch-scale` map: it shrinks with depth (else keeps its size).
    public var pitchesWithMap = false
    public var scalesWithMap = true
    public init() {}
}

/// An icon from a sprite sheet: its pixels, the pixel ratio they were drawn for, and whether the
/// image is a signed distance field (`sdf: true`: alpha holds distance, coloured by `icon-color`).
/// An icon fitted to its text (`icon-text-fit`) may say how it stretches: zones that take up
/// the extra length (the rest keeps its pixel size), the content box that spans the text, and
/// how each axis keeps the content's aspect ratio. All in the image's pixels.
public final class SpriteIcon: Sendable {
    /// The part of the image that spans the text (`content`: x1, y1, x2, y2).
    public struct Content: Sendable, Equatable {
        public let x1: Double, y1: Double, x2: Double, y2: Double
        public init(x1: Double, y1: Double, x2: Double, y2: Double) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }
    }
    public let name: String
    public let image: Pixmap
    public let pixelRatio: Double
    public let sdf: Bool
    /// `stretchX`, `stretchY`: the zones that stretch, in order and apart; nil: not stretchable
    /// along that axis (a fitted icon is then scaled as a whole, unless the other axis has zones).
    public let stretchX: [ClosedRange<Double>]?
    public let stretchY: [ClosedRange<Double>]?
    public let content: Content?
    public let textFitWidth: TextFit
    public let textFitHeight: TextFit
    public init(name: String, image: Pixmap, pixelRatio: Double, sdf: Bool,
                stretchX: [ClosedRange<Double>]? = nil, stretchY: [ClosedRange<Double>]? = nil, content: Content? = nil,
                textFitWidth: TextFit = .stretchOrShrink, textFitHeight: TextFit = .stretchOrShrink) {
        self.name = name; self.image = image; self.pixelRatio = pixelRatio; self.sdf = sdf
        self.stretchX = stretchX; self.stretchY = stretchY; self.content = content
        self.textFitWidth = textFitWidth; self.textFitHeight = textFitHeight
    }
    /// Size in CSS pixels at icon-size 1.
    public var width: Double { Double(image.width) / pixelRatio }
    public var height: Double { Double(image.height) / pixelRatio }
}

/// A sprite sheet's icons by name.
public final class SpriteSheet: Sendable {
    public let icons: [String: SpriteIcon]
    public init(icons: [String: SpriteIcon]) { self.icons = icons }
}

/// Paint and layout of one icon, evaluated for one feature; lengths in device pixels.
public struct IconPaint: Equatable, Sendable {
    public var icon: SpriteIcon
    /// Scale from the icon's own pixels to the screen's.
    public var scale: Double
    /// Degrees clockwise.
    public var rotate: Double = 0
    public var anchor: IconAnchor = .center
    /// Device pixels, applied before rotation as the specification says (x right, y down).
    public var offset: (x: Double, y: Double) = (0, 0)
    public var opacity: Double = 1
    /// SDF icons only.
    public var color: Color = .black
    public var haloColor: Color = Color(r: 0, g: 0, b: 0, a: 0)
    public var haloWidth: Double = 0
    public var haloBlur: Double = 0
    /// `icon-rotation-alignment` is `map` (or `auto` along lines): the icon turns with the map at
    /// a bearing; otherwise it stays upright on screen.
    public var rotatesWithMap: Bool = false
    /// Bilinear sampling (scaled or rotated icons); exact pixels otherwise.
    public var smooth: Bool = false
    /// `icon-size` and the screen's pixel ratio (SDF edges are sharpened by both).
    public var size: Double = 1
    public var pixelRatio: Double = 1
    /// An icon fitted to its text (`icon-text-fit`): how its image lies over the fitted box
    /// (device pixels from the point, before the turn); `scale`, `anchor` and `offset` then
    /// play no part. Nil: the whole image at `scale`, placed by `anchor` and `offset`.
    public var slices: IconSlices?

    public init(icon: SpriteIcon, scale: Double) { self.icon = icon; self.scale = scale }

    public static func == (a: IconPaint, b: IconPaint) -> Bool {
        a.icon === b.icon && a.scale == b.scale && a.rotate == b.rotate && a.anchor == b.anchor
            && a.offset.x == b.offset.x && a.offset.y == b.offset.y && a.opacity == b.opacity && a.color == b.color
            && a.rotatesWithMap == b.rotatesWithMap && a.haloColor == b.haloColor && a.haloWidth == b.haloWidth && a.haloBlur == b.haloBlur && a.smooth == b.smooth && a.size == b.size && a.pixelRatio == b.pixelRatio
            && a.slices == b.slices
    }
}

/// Paint and layout of one vector icon (a style image drawn from paths), evaluated for one
/// feature; lengths in device pixels.
public struct VectorIconPaint: Equatable, Sendable {
    public var icon: VectorIcon
    /// Device pixels per unit of the icon's box (`icon-size` times the pixel ratio).
    public var scale: Double
    /// Degrees clockwise.
    public var rotate: Double = 0
    public var anchor: IconAnchor = .center
    /// Device pixels, turned with the icon (x right, y down).
    public var offset: (x: Double, y: Double) = (0, 0)
    public var opacity: Double = 1
    /// Per-channel factor from the light: mix(radiance, 1, emissive strength).
    public var light: Color = .white
    /// `icon-rotation-alignment` map: the icon turns with the map (its rotation is from north).
    public var rotatesWithMap = false

    public init(icon: VectorIcon, scale: Double) { self.icon = icon; self.scale = scale }

    /// The icon's reach from its point, in device pixels, at any rotation.
    public var reach: Double {
        (icon.width * icon.width + icon.height * icon.height).squareRoot() * scale + abs(offset.x) + abs(offset.y)
    }

    public static func == (a: VectorIconPaint, b: VectorIconPaint) -> Bool {
        a.icon === b.icon && a.scale == b.scale && a.rotate == b.rotate && a.anchor == b.anchor && a.offset.x == b.offset.x
            && a.offset.y == b.offset.y && a.opacity == b.opacity && a.light == b.light && a.rotatesWithMap == b.rotatesWithMap
    }
}

/// A style-document layer's features, each with its own evaluated paint (`Paint`: the layer
/// kind's), in draw order: the frame description of a data-driven layer. Screen lengths are
/// device pixels.
public struct FeatureDraw<Paint: Equatable & Sendable>: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public let paint: Paint
        public let geometry: FeatureGeometry
        public init(paint: Paint, geometry: FeatureGeometry) { self.paint = paint; self.geometry = geometry }
        public static func == (a: Item, b: Item) -> Bool { a.paint == b.paint && a.geometry === b.geometry }
    }

    public let items: [Item]
    /// The layer's `*-translate`, in device pixels along the map's axes (a `viewport` anchor's
    /// offset already turned back by the bearing).
    public let translate: (x: Double, y: Double)
    /// The zoom of the tiles the reference engines would cut this data into (the integer zoom,
    /// at most the source's maximum): dash patterns restart where a line enters each tile (with
    /// its 128/512 buffer), as theirs do. Nil: one pattern along the whole line.
    public let tileZoom: Int?

    public init(items: [Item], translate: (x: Double, y: Double) = (0, 0), tileZoom: Int? = nil) {
        self.items = items; self.translate = translate; self.tileZoom = tileZoom
    }

    public static func == (a: FeatureDraw, b: FeatureDraw) -> Bool {
        a.items == b.items && a.translate.x == b.translate.x && a.translate.y == b.translate.y && a.tileZoom == b.tileZoom
    }
}
