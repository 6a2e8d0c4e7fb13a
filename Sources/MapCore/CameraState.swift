import Foundation

/// What the camera shows: a centre and a zoom (bearing and pitch are always 0 in nightmap).
public struct CameraState: Equatable, Sendable {
    public var center: LngLat
    public var zoom: Double
    public init(center: LngLat, zoom: Double) { self.center = center; self.zoom = zoom }
}

/// A viewport size in pixels; both sides are at least 1.
public struct ViewportSize: Equatable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public init(width: Int, height: Int) { self.width = max(1, width); self.height = max(1, height) }
    public var description: String { "\(width)x\(height)" }
}

/// The camera projected for one viewport: converts between screen pixels and the map.
public struct ViewTransform: Equatable, Sendable {
    public let camera: CameraState
    public let size: ViewportSize
    /// World size in pixels at the camera's zoom.
    public let worldSize: Double
    /// The centre in world pixels.
    public let centerPixel: MercatorPoint

    public init(camera: CameraState, size: ViewportSize) {
        self.camera = camera
        self.size = size
        worldSize = WebMercator.worldSize(zoom: camera.zoom)
        let m = WebMercator.project(camera.center)
        centerPixel = MercatorPoint(x: m.x * worldSize, y: m.y * worldSize)
    }

    /// Screen position of a normalised Mercator point (no wrapping).
    @inlinable public func screen(_ m: MercatorPoint) -> (x: Double, y: Double) {
        (m.x * worldSize - centerPixel.x + Double(size.width) / 2,
         m.y * worldSize - centerPixel.y + Double(size.height) / 2)
    }

    public func screen(_ p: LngLat) -> (x: Double, y: Double) { screen(WebMercator.project(p)) }

    /// The normalised Mercator point under a screen position.
    public func mercator(x: Double, y: Double) -> MercatorPoint {
        MercatorPoint(x: (x - Double(size.width) / 2 + centerPixel.x) / worldSize,
                      y: (y - Double(size.height) / 2 + centerPixel.y) / worldSize)
    }

    /// The position under a screen point.
    public func lngLat(x: Double, y: Double) -> LngLat { WebMercator.unproject(mercator(x: x, y: y)) }

    /// The visible area in normalised Mercator units (x may extend past [0, 1] when wrapping).
    public var visibleMercator: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let a = mercator(x: 0, y: 0), b = mercator(x: Double(size.width), y: Double(size.height))
        return (a.x, a.y, b.x, b.y)
    }
}
