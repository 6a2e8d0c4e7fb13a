import Foundation

/// What the camera shows: a centre, a zoom and a bearing (pitch is always 0 in nightmap).
public struct CameraState: Equatable, Sendable {
    public var center: LngLat
    public var zoom: Double
    /// Degrees clockwise from north of the direction that points up on screen (MapLibre's
    /// convention: bearing 30 turns the map 30 degrees counter-clockwise), in (-180, 180].
    public var bearing: Double {
        didSet { bearing = Self.normalized(bearing) }
    }

    public init(center: LngLat, zoom: Double, bearing: Double = 0) {
        self.center = center; self.zoom = zoom; self.bearing = Self.normalized(bearing)
    }

    /// `degrees` in (-180, 180] (NaN and infinities: 0).
    public static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        if degrees > -180 && degrees <= 180 { return degrees }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d <= -180 { d += 360 } else if d > 180 { d -= 360 }
        return d
    }
}

/// A viewport size in pixels; both sides are at least 1.
public struct ViewportSize: Equatable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public init(width: Int, height: Int) { self.width = max(1, width); self.height = max(1, height) }
    public var description: String { "\(width)x\(height)" }
}
