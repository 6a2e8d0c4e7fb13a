import Foundation

/// What the camera shows: a centre, a zoom, a bearing, a pitch and the field of view (MapLibre's
/// camera without roll or elevation).
public struct CameraState: Equatable, Sendable {
    public var center: LngLat
    public var zoom: Double
    /// Degrees clockwise from north of the direction that points up on screen (MapLibre's
    /// convention: bearing 30 turns the map 30 degrees counter-clockwise), in (-180, 180].
    public var bearing: Double {
        didSet { bearing = Self.normalized(bearing) }
    }

    /// Degrees the camera tilts from looking straight down towards the horizon, 0...85 (the
    /// bounds' `maxPitch` limits it further; non-finite: 0).
    public var pitch: Double {
        didSet { pitch = Self.pitchInRange(pitch) }
    }
    /// The vertical field of view in degrees, 0.1...150 (MapLibre's `setVerticalFieldOfView`;
    /// non-finite: the default). It matters only where the view is pitched or something has height.
    public var fieldOfView: Double {
        didSet { fieldOfView = Self.fieldOfViewInRange(fieldOfView) }
    }

    /// MapLibre's default vertical field of view, 2 atan(0.375) in degrees (36.87).
    public static let defaultFieldOfView = PerspectiveTransform.defaultFieldOfView * 180 / Double.pi
    /// The steepest pitch nightmap draws (MapLibre's default limit is 60: `CameraBounds.maxPitch`).
    public static let steepestPitch = 85.0

    public init(center: LngLat, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                fieldOfView: Double = CameraState.defaultFieldOfView) {
        self.center = center; self.zoom = zoom; self.bearing = Self.normalized(bearing)
        self.pitch = Self.pitchInRange(pitch)
        self.fieldOfView = Self.fieldOfViewInRange(fieldOfView)
    }

    /// This camera at another centre and zoom, keeping its bearing, pitch and field of view.
    public func moved(center: LngLat, zoom: Double) -> CameraState {
        var c = self
        c.center = center; c.zoom = zoom
        return c
    }

    static func pitchInRange(_ p: Double) -> Double { p.isFinite ? min(max(p, 0), steepestPitch) : 0 }
    static func fieldOfViewInRange(_ f: Double) -> Double { f.isFinite ? min(max(f, 0.1), 150) : defaultFieldOfView }

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
