/// An icon drawn from vector paths (no bitmap): filled shapes in a `width` x `height` box,
/// y down, as SVG draws them. Paths use absolute move/line/cubic/quadratic/close commands and circles.
public final class VectorIcon: Sendable {
    public enum Command: Equatable, Sendable {
        case move(Double, Double)
        case line(Double, Double)
        case cubic(Double, Double, Double, Double, Double, Double)
        case quad(Double, Double, Double, Double)
        /// A whole circle: centre and radius (drawn as the renderer draws circles, not as curves).
        case circle(Double, Double, Double)
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
public enum IconAnchor: String, Sendable, Hashable, CaseIterable {
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
