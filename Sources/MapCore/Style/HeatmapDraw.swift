import Foundation
import Raster

/// What a heatmap layer draws: a Gaussian kernel for every point of its features (every vertex
/// of lines and polygons too, as MapLibre's circle bucket takes them), summed into a density,
/// which the colour ramp turns into colours (see `HeatmapRenderLayer`).
public struct HeatmapDraw: Equatable, Sendable {
    /// Each feature's weight and radius. Its `tileZoom`, when set, is the zoom of the tiles a
    /// vector source's lines and polygons were cut to (and joined again): their vertices on those
    /// tiles' edges are the cuts', which MapLibre's tiles do not have, and are left out.
    public let points: FeatureDraw<HeatmapPointPaint>
    /// `heatmap-intensity`: multiplies every weight.
    public let intensity: Double
    /// `heatmap-opacity`, in [0, 1].
    public let opacity: Double
    public let ramp: HeatmapRamp

    public init(points: FeatureDraw<HeatmapPointPaint>, intensity: Double, opacity: Double, ramp: HeatmapRamp) {
        self.points = points; self.intensity = intensity; self.opacity = opacity; self.ramp = ramp
    }

    public static func == (a: HeatmapDraw, b: HeatmapDraw) -> Bool {
        a.points == b.points && a.intensity == b.intensity && a.opacity == b.opacity && a.ramp === b.ramp
    }
}

/// A heatmap feature's paint: its weight and its kernel's radius in device pixels.
public struct HeatmapPointPaint: Equatable, Sendable {
    public var weight: Double
    public var radius: Double
    public init(weight: Double = 1, radius: Double = 30) { self.weight = weight; self.radius = radius }
}

/// A heatmap layer's `heatmap-color` as MapLibre uploads it: 256 colours, entry i the colour at
/// density i / 255, each kept as 8-bit straight RGBA (channels floored, as `renderColorRamp`
/// stores them) and premultiplied as the texture upload premultiplies them.
public final class HeatmapRamp: Sendable {
    public static let size = 256
    /// Premultiplied, packed as the pixmap's pixels (0xAARRGGBB).
    public let colors: [UInt32]

    /// `colors`: `size` entries (fewer are padded with transparent ones, more are cut).
    public init(colors: [UInt32]) {
        self.colors = colors.count == Self.size ? colors : Array((colors + Array(repeating: 0, count: Self.size)).prefix(Self.size))
    }

    /// The ramp of `color` (a value that may read `["heatmap-density"]`).
    public convenience init(_ color: PropertyValue) {
        var colors: [UInt32] = []
        colors.reserveCapacity(Self.size)
        for i in 0..<Self.size {
            var c = EvaluationContext(zoom: 0)
            c.heatmapDensity = Double(i) / Double(Self.size - 1)
            colors.append(Self.texel(color.evaluate(c).asColor))
        }
        self.init(colors: colors)
    }

    /// One entry: MapLibre computes each channel as floor(premultiplied x 255 / alpha) (0 where
    /// alpha is 0) and the alpha as floor(alpha x 255).
    static func texel(_ color: Color?) -> UInt32 {
        guard let c = color else { return 0 }
        let a = min(max(c.a, 0), 1)
        func channel(_ v: Double) -> UInt8 {
            let straight = (min(max(v, 0), 1) * a) * 255 / a
            return straight.isFinite ? UInt8(min(max(straight.rounded(.down), 0), 255)) : 0
        }
        let rgba = RGBA8(channel(c.r), channel(c.g), channel(c.b), UInt8((a * 255).rounded(.down)))
        return rgba.premultiplied.packed
    }

    /// The specification's default `heatmap-color`: transparent blue through royal blue, cyan,
    /// lime and yellow to red.
    public static let defaultColor: PropertyValue = {
        let json = JSON.array([
            .string("interpolate"), .array([.string("linear")]), .array([.string("heatmap-density")]),
            .number(0), .string("rgba(0, 0, 255, 0)"), .number(0.1), .string("royalblue"), .number(0.3), .string("cyan"),
            .number(0.5), .string("lime"), .number(0.7), .string("yellow"), .number(1), .string("red"),
        ])
        let spec = HeatmapPaintProperty.color.spec
        return (try? PropertyValue(json: json, spec: spec, path: spec.name)) ?? PropertyValue(spec: spec)
    }()

    /// The default ramp (made once).
    public static let standard = HeatmapRamp(defaultColor)
}
