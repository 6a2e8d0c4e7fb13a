import Foundation

/// A path through space over the globe (an orbit), drawn where the camera sees it: in front of
/// the Earth, or beside it, never through it. Points are places over the ground at a height; a
/// point in the Earth's shadow is drawn in `shadowColor`. `head`, the body now, is a dot with a
/// thin line down to the ground under it. Drawn on the globe only (Web Mercator has no height).
public struct SpacePath: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var position: LngLat
        /// Metres above the ground.
        public var altitude: Double
        /// Whether the Sun shines on it (false: in the Earth's shadow).
        public var lit: Bool
        public init(position: LngLat, altitude: Double, lit: Bool) {
            self.position = position; self.altitude = altitude; self.lit = lit
        }

        /// The point on the scale of the unit sphere (MapLibre's elevated point: the surface
        /// point times 1 + altitude / the Earth's radius).
        public var unitVector: SIMD3<Double> {
            GlobeTransform.surface(position) * (1 + altitude / SpacePath.earthRadius)
        }
    }

    /// MapLibre's Earth radius, metres.
    public static let earthRadius = 6_371_008.8

    public var points: [Point]
    /// Already lit; the part in the shadow and the part in the sunlight.
    public var color: Color, shadowColor: Color
    /// Device pixels.
    public var width: Double
    public var head: Point?

    public init(points: [Point], color: Color, shadowColor: Color, width: Double, head: Point? = nil) {
        self.points = points; self.color = color; self.shadowColor = shadowColor; self.width = width; self.head = head
    }

    /// Whether a point `altitude` metres over `position` is in the Earth's shadow when the Sun is
    /// over `subsolar` (the Earth's cylinder of shadow: behind the Earth from the Sun, within its
    /// radius of the line through the Sun).
    public static func inShadow(_ position: LngLat, altitude: Double, subsolar: LngLat) -> Bool {
        let r = GlobeTransform.surface(position) * (1 + altitude / earthRadius)
        let s = GlobeTransform.surface(subsolar)
        let along = (r * s).sum()
        guard along < 0 else { return false }
        let off = r - s * along
        return (off * off).sum() < 1
    }
}

extension GlobeTransform {
    /// Whether point `p` (on the unit sphere's scale, on or above the sphere) is hidden by the
    /// Earth: the line from the camera to it meets the sphere first.
    public func isHidden(_ p: SIMD3<Double>) -> Bool {
        let d = p - camera
        let a = (d * d).sum(), b = 2 * (camera * d).sum(), c = (camera * camera).sum() - 1
        let disc = b * b - 4 * a * c
        guard a > 0, disc > 0 else { return false }
        let t = (-b - disc.squareRoot()) / (2 * a)
        return t > 0 && t < 1 - 1e-9
    }
}
