import Foundation
import Raster

/// What evaluating a document layer needs from the map: the instant's zoom, the screen's pixel
/// ratio and the light, and the style's data.
public struct StyleEvaluation: Sendable {
    /// The zoom expressions see (the camera's, without the pixel ratio).
    public let zoom: Double
    public let pixelRatio: Double
    /// Ground radiance: colours are lit by it according to their emissive strength.
    public let light: Color
    /// The world's width in device pixels (collision boxes of icons are laid out in it).
    public let worldSize: Double
    /// The instant (seconds on the map's clock) transitions are evaluated at.
    public let now: Double
    /// What the window shows (nil: everything may be needed); layers drawn feature by feature
    /// evaluate only the features around it.
    public let visible: MercatorBox?
    /// The camera's bearing: icon collision boxes stand upright on screen.
    public let bearing: Double
    /// What the frame draws of the tiled sources (nil: none, or not resolved for a view).
    public let tiles: TileFrame?
    /// The camera is still: raster tiles are drawn with texels on the pixel grid, as the
    /// reference engines draw them then.
    public let still: Bool
    public init(zoom: Double, pixelRatio: Double, light: Color, worldSize: Double, now: Double = 0, visible: MercatorBox? = nil,
                bearing: Double = 0, tiles: TileFrame? = nil, still: Bool = true) {
        self.zoom = zoom; self.pixelRatio = pixelRatio; self.light = light; self.worldSize = worldSize; self.now = now
        self.visible = visible; self.bearing = bearing; self.tiles = tiles; self.still = still
    }

    /// The features layer `d` draws: its GeoJSON source's, or its source layer's of a tiled
    /// vector source in this frame's cover.
    func features(_ style: Style, _ d: LayerDefinition) -> GeoJSONData? {
        style.geojson(d.source).map { $0.tiles.drawn(zoom: zoom, visible: visible) ?? $0 } ?? tiles?.features(d.source, layer: d.sourceLayer)
    }

    /// The largest length (device pixels) evaluation hands the renderer: four world widths. Style
    /// values can be absurd (1e308) or infinite (["/", 1, 0]), and the renderer turns screen
    /// positions into integers; a stroke, circle, icon or offset beyond a few world widths covers
    /// (or leaves) the whole world just as one at the limit does.
    var lengthLimit: Double { worldSize.isFinite && worldSize > 0 ? 4 * worldSize : 2048 }

    /// `v` made finite and within +-`lengthLimit` (NaN: 0).
    func length(_ v: Double) -> Double {
        let limit = lengthLimit
        return v.isNaN ? 0 : min(max(v, -limit), limit)
    }
}

/// A miter limit the renderer can use: 1000 (the miter of a 179.9-degree turn) at most, as a
/// larger one only grows the margin every stroke is culled with. NaN: the default, 2.
@inline(__always) func boundedMiterLimit(_ m: Double) -> Double { m.isNaN ? 2 : min(m, 1000) }

/// A finite number, or `fallback`.
@inline(__always) func finite(_ v: Double, or fallback: Double = 0) -> Double { v.isFinite ? v : fallback }

/// An angle in degrees the renderer can turn into radians: infinite or NaN gives 0, and an
/// absurd one (times pi / 180, 1e308 would overflow) is taken modulo 360. Others are kept as
/// they are.
@inline(__always) func degrees(_ v: Double) -> Double {
    !v.isFinite ? 0 : abs(v) < 1e15 ? v : v.truncatingRemainder(dividingBy: 360)
}
