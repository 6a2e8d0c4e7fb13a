/// An icon drawn from vector paths (no bitmap): filled shapes in a `width` x `height` box,
/// y down, as SVG draws them. Paths use absolute move/line/cubic/quadratic/close commands.
public final class VectorIcon: Sendable {
    public enum Command: Equatable, Sendable {
        case move(Double, Double)
        case line(Double, Double)
        case cubic(Double, Double, Double, Double, Double, Double)
        case quad(Double, Double, Double, Double)
        case close
    }

    /// One filled shape (non-zero fill).
    public struct Shape: Sendable {
        public let color: Color
        public let commands: [Command]
        public init(color: Color, commands: [Command]) { self.color = color; self.commands = commands }
    }

    public let name: String
    public let width: Double
    public let height: Double
    public let shapes: [Shape]

    public init(name: String, width: Double, height: Double, shapes: [Shape]) {
        self.name = name; self.width = width; self.height = height; self.shapes = shapes
    }
}

/// Where an icon sits relative to its point (the specification's `icon-anchor`).
public enum IconAnchor: String, Sendable, Equatable, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The anchor's position in the icon box, as fractions of width and height.
    public var fraction: (x: Double, y: Double) {
        switch self {
        case .center: return (0.5, 0.5)
        case .left: return (0, 0.5)
        case .right: return (1, 0.5)
        case .top: return (0.5, 0)
        case .bottom: return (0.5, 1)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }
}

/// Paint and layout of a symbol (icon) layer, with the specification's defaults.
public struct SymbolPaint: Equatable, Sendable {
    /// The icon's name in the style's icons (`icon-image`).
    public var iconImage: String = ""
    public var iconSize: Double = 1
    /// Degrees clockwise (map-aligned: 0 points north).
    public var iconRotate: Double = 0
    public var iconAnchor: IconAnchor = .center
    public var iconOpacity: Double = 1
    public var emissiveStrength: Double = 0
    /// Adds each feature's `bearing` to `iconRotate` (as `icon-rotate: ["get", "bearing"]` would).
    public var rotateWithBearing: Bool = false
    /// Draws a small arrow at the window's edge, pointing to a feature that is out of sight.
    public var edgeMarker: Bool = false

    public init(iconImage: String, iconSize: Double = 1, iconRotate: Double = 0, iconAnchor: IconAnchor = .center,
                iconOpacity: Double = 1, emissiveStrength: Double = 0, rotateWithBearing: Bool = false, edgeMarker: Bool = false) {
        self.iconImage = iconImage; self.iconSize = iconSize; self.iconRotate = iconRotate; self.iconAnchor = iconAnchor
        self.iconOpacity = iconOpacity; self.emissiveStrength = emissiveStrength; self.rotateWithBearing = rotateWithBearing
        self.edgeMarker = edgeMarker
    }
}

/// A GeoJSON-like point source updated in place (`updateGeoJSONSource` with a Point feature).
public struct PointFeature: Equatable, Sendable {
    public var position: LngLat
    /// Degrees clockwise from north, used when the layer rotates icons by the feature's bearing.
    public var bearing: Double
    public init(position: LngLat, bearing: Double = 0) { self.position = position; self.bearing = bearing }
}
