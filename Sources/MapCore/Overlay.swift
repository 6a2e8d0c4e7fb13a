import Foundation
import Raster

/// What an app draws over the map in screen space (device pixels): items drawn in order over
/// the layers and markers, and the boxes symbols keep clear of (under the app's text and
/// panels). The engine draws each item as it says and knows nothing of what it shows.
public struct Overlay: Equatable, Sendable {
    public var items: [OverlayItem]
    public var keepClear: [FrameDescription.ScreenBox]
    public init(items: [OverlayItem] = [], keepClear: [FrameDescription.ScreenBox] = []) {
        self.items = items; self.keepClear = keepClear
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

    /// The compass's disc: top right, 12 CSS pixels from the edges, 15 in radius.
    public static func compassArea(width: Double, pixelRatio: Double) -> CompassArea {
        let r = 15 * pixelRatio, inset = 12 * pixelRatio
        return CompassArea(x: width - inset - r, y: inset + r, radius: r)
    }
}

/// One thing an overlay draws, in device pixels.
public enum OverlayItem: Equatable, Sendable {
    /// A line of text over its halo.
    case text(OverlayText)
    /// A box filled with a colour, its edge pixels by the area they cover.
    case box(FrameDescription.ScreenBox, PremultipliedColor)
    /// Closed polygons filled together under `rule` (a box with a hole: an outline).
    case shape([[Point]], PremultipliedColor, FillRule)
    /// An open polyline stroked.
    case stroke([Point], StrokeStyle, PremultipliedColor)
    /// A disc with a needle whose red half points north on screen, the other half in `color`.
    case compass(CompassArea, bearing: Double, color: PremultipliedColor)
}

/// Text drawn over its halo, the pen's baseline starting at (`x`, `baseline`).
public struct OverlayText: Equatable, Sendable {
    public var text: String
    public var x: Double, baseline: Double
    public var font: any TextFont
    public var size: Double, haloWidth: Double
    public var color: PremultipliedColor, halo: PremultipliedColor

    public init(_ text: String, x: Double, baseline: Double, font: any TextFont, size: Double, haloWidth: Double,
                color: PremultipliedColor, halo: PremultipliedColor) {
        self.text = text; self.x = x; self.baseline = baseline; self.font = font; self.size = size; self.haloWidth = haloWidth
        self.color = color; self.halo = halo
    }

    public static func == (a: OverlayText, b: OverlayText) -> Bool {
        a.text == b.text && a.x == b.x && a.baseline == b.baseline && a.font === b.font && a.size == b.size
            && a.haloWidth == b.haloWidth && a.color == b.color && a.halo == b.halo
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
