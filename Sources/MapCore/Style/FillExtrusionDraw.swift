import Foundation

/// What a fill-extrusion layer draws: each polygon feature raised from its base to its height
/// (metres), roofs and walls shaded by the style's light (see `FillExtrusionRenderLayer`).
public struct FillExtrusionDraw: Equatable, Sendable {
    /// The features and their paint; `translate` in device pixels along the map's axes.
    public let features: FeatureDraw<FillExtrusionPaint>
    /// `fill-extrusion-opacity`, in [0, 1]: below 1 each pixel shows the layer's nearest surface
    /// once, at this opacity.
    public let opacity: Double
    /// `fill-extrusion-vertical-gradient`: walls darken towards their foot.
    public let verticalGradient: Bool
    /// The style's light for this frame (its direction turned for the bearing).
    public let light: ExtrusionLight
    /// The style's zoom (patterns on walls rise by 2^floor(zoom) / 65536 tile pixels a metre).
    public let zoom: Double
    /// A GeoJSON source's tile buffer, in units of 8192 a tile (its `buffer` x 16).
    public let tileBuffer: Double
    /// A vector source's features are cut to tiles of this zoom (and joined again): their edges
    /// along those tiles' sides are cuts, which get no wall (nil: none).
    public let cutZoom: Int?

    public init(features: FeatureDraw<FillExtrusionPaint>, opacity: Double, verticalGradient: Bool = true, light: ExtrusionLight = ExtrusionLight(),
                zoom: Double = 0, tileBuffer: Double = 2048, cutZoom: Int? = nil) {
        self.features = features; self.opacity = opacity; self.verticalGradient = verticalGradient; self.light = light; self.zoom = zoom
        self.tileBuffer = tileBuffer; self.cutZoom = cutZoom
    }

    /// The same features under another light.
    public func lit(by light: ExtrusionLight) -> FillExtrusionDraw {
        FillExtrusionDraw(features: features, opacity: opacity, verticalGradient: verticalGradient, light: light, zoom: zoom,
                          tileBuffer: tileBuffer, cutZoom: cutZoom)
    }
}

/// A fill-extrusion feature's paint.
public struct FillExtrusionPaint: Equatable, Sendable {
    /// The colour's red, green and blue premultiplied by its alpha (as MapLibre's expressions
    /// keep colours), the alpha itself not used: rgba(100, 100, 100, 0.2) draws dark and opaque.
    public var color: Color
    /// Metres above the ground, both at least 0.
    public var height: Double
    public var base: Double
    /// `fill-extrusion-pattern`: the image roofs and walls show instead of the colour (its
    /// `pixelsPerWorld` at the integer zoom).
    public var pattern: FillPattern?
    public init(color: Color = .black, height: Double = 0, base: Double = 0, pattern: FillPattern? = nil) {
        self.color = color; self.height = height; self.base = base; self.pattern = pattern
    }
}

/// The style's `light` evaluated for a frame: the direction towards it (x east, y south, z up,
/// not of unit length: MapLibre's cartesian of [radial, azimuthal, polar]), its colour and
/// intensity.
public struct ExtrusionLight: Equatable, Sendable {
    public var x: Double, y: Double, z: Double
    public var color: Color
    public var intensity: Double
    /// The specification's default light: [1.15, 210, 30], white, 0.5.
    public init(x: Double = 0.2875, y: Double = -0.4979646071760521, z: Double = 0.9959292143521045, color: Color = .white, intensity: Double = 0.5) {
        self.x = x; self.y = y; self.z = z; self.color = color; self.intensity = intensity
    }

    /// The light at `position` [radial, azimuthal, polar] (degrees), as MapLibre turns it into
    /// cartesian: azimuth + 90 degrees about z, polar from z.
    public init(position r: Double, _ azimuth: Double, _ polar: Double, color: Color, intensity: Double) {
        let a = (azimuth + 90) * Double.pi / 180, p = polar * Double.pi / 180
        self.init(x: r * cos(a) * sin(p), y: r * sin(a) * sin(p), z: r * cos(p), color: color, intensity: intensity)
    }

    /// This light turned about z by `degrees` (an anchor to the viewport turns it by the bearing).
    public func turned(by degrees: Double) -> ExtrusionLight {
        guard degrees != 0 else { return self }
        let r = degrees * Double.pi / 180, c = cos(r), s = sin(r)
        var l = self
        l.x = c * x - s * y
        l.y = s * x + c * y
        return l
    }
}
