import Foundation

/// The camera projected for one viewport: converts between screen pixels and the map.
///
/// World pixels (normalised Mercator times `worldSize`) reach the screen by a translation that
/// puts the centre in the middle of the viewport and, at a bearing, a rotation about that middle
/// (the map turns counter-clockwise by the bearing). At bearing 0 every conversion is the plain
/// scale and translation, computed exactly as without rotation. A pitched camera adds MapLibre's
/// perspective (`perspective`): conversions then go through it, to and from the ground.
public struct ViewTransform: Equatable, Sendable {
    public let camera: CameraState
    public let size: ViewportSize
    /// World size in pixels at the camera's zoom.
    public let worldSize: Double
    /// The centre in world pixels.
    public let centerPixel: MercatorPoint
    /// cos and sin of the bearing (1 and 0 at bearing 0).
    public let cosBearing: Double, sinBearing: Double
    /// The pitched camera's projection; nil at pitch 0, where the flat conversions are exact for
    /// the ground (layers with height make their own from `camera`).
    public let perspective: PerspectiveTransform?
    /// How much of the globe shows (MapLibre's globeness: 0 Web Mercator, 1 the globe, between
    /// the one blending into the other).
    public let globeness: Double
    /// The globe's camera while any of it shows (nil in Web Mercator; `perspective` is then nil).
    public let globe: GlobeTransform?
    /// Blending the globe into Mercator (globeness below 1): the Mercator camera.
    public let globeBlend: PerspectiveTransform?

    /// `globeness`: how much of the globe the projection shows at the camera's zoom
    /// (`Projection.globeness(zoom:)`; 0, the default, is Web Mercator).
    public init(camera: CameraState, size: ViewportSize, globeness: Double = 0) {
        self.camera = camera
        self.size = size
        worldSize = WebMercator.worldSize(zoom: camera.zoom)
        let m = WebMercator.project(camera.center)
        centerPixel = MercatorPoint(x: m.x * worldSize, y: m.y * worldSize)
        let r = camera.bearing * Double.pi / 180
        cosBearing = camera.bearing == 0 ? 1 : cos(r)
        sinBearing = camera.bearing == 0 ? 0 : sin(r)
        let g = globeness.isFinite ? min(max(globeness, 0), 1) : 0
        self.globeness = g
        if g > 0 {
            globe = GlobeTransform(center: camera.center, zoom: camera.zoom, pitch: camera.pitch, bearing: camera.bearing,
                                   width: size.width, height: size.height, fieldOfView: camera.fieldOfView * Double.pi / 180)
            globeBlend = g < 1 ? Self.perspective(camera, size) : nil
            perspective = nil
        } else {
            globe = nil
            globeBlend = nil
            perspective = camera.pitch == 0 ? nil : Self.perspective(camera, size)
        }
    }

    /// The camera's perspective at any pitch (pitch 0 included: what has height needs it).
    public static func perspective(_ camera: CameraState, _ size: ViewportSize) -> PerspectiveTransform {
        PerspectiveTransform(center: camera.center, zoom: camera.zoom, pitch: camera.pitch, bearing: camera.bearing,
                             width: size.width, height: size.height,
                             fieldOfView: camera.fieldOfView * Double.pi / 180)
    }

    /// Two views are the same when their cameras and sizes are.
    public static func == (a: ViewTransform, b: ViewTransform) -> Bool {
        a.camera == b.camera && a.size == b.size && a.globeness == b.globeness
    }

    /// Whether the camera is pitched (the ground is drawn in perspective).
    @inlinable public var isPitched: Bool { perspective != nil }

    /// Whether the map is north-up (the axis-aligned fast paths apply).
    @inlinable public var isNorthUp: Bool { camera.bearing == 0 }

    /// A world-pixel offset from the centre turned onto the screen's axes.
    @inlinable public func rotated(_ dx: Double, _ dy: Double) -> (x: Double, y: Double) {
        if isNorthUp { return (dx, dy) }
        return (dx * cosBearing + dy * sinBearing, -dx * sinBearing + dy * cosBearing)
    }

    /// A screen offset from the viewport's middle turned onto the world's axes (inverse of `rotated`).
    @inlinable public func unrotated(_ dx: Double, _ dy: Double) -> (x: Double, y: Double) {
        if isNorthUp { return (dx, dy) }
        return (dx * cosBearing - dy * sinBearing, dx * sinBearing + dy * cosBearing)
    }

    /// Screen position of a normalised Mercator point (no wrapping).
    @inlinable public func screen(_ m: MercatorPoint) -> (x: Double, y: Double) {
        if let g = globe { return globeScreen(g, m) }
        if let p = perspective {
            let s = p.project(m)
            // (Behind the camera: far below the view, where the ground behind it would be.)
            if s.w <= p.near / 2 { return (Double(size.width) / 2, Double(size.height) + 1e6) }
            return (s.x, s.y)
        }
        if isNorthUp {
            return (m.x * worldSize - centerPixel.x + Double(size.width) / 2,
                    m.y * worldSize - centerPixel.y + Double(size.height) / 2)
        }
        let r = rotated(m.x * worldSize - centerPixel.x, m.y * worldSize - centerPixel.y)
        return (r.x + Double(size.width) / 2, r.y + Double(size.height) / 2)
    }

    public func screen(_ p: LngLat) -> (x: Double, y: Double) { screen(WebMercator.project(p)) }

    /// Screen position of the world copy of `m` nearest the viewport's centre.
    public func nearestScreen(_ m: MercatorPoint) -> (x: Double, y: Double) {
        if globe != nil { return screen(m) }
        if isNorthUp {
            var s = screen(m)
            s.x -= ((s.x - Double(size.width) / 2) / worldSize).rounded() * worldSize
            return s
        }
        let centre = centerPixel.x / worldSize
        var q = m
        let off = q.x - centre
        if abs(off) >= 0.5 { q.x -= off.rounded() }
        return screen(q)
    }

    public func nearestScreen(_ p: LngLat) -> (x: Double, y: Double) { nearestScreen(WebMercator.project(p)) }

    /// The normalised Mercator point under a screen position (pitched: the ground under it, or
    /// for a point at or above the horizon the ground just below the horizon in its column).
    public func mercator(x: Double, y: Double) -> MercatorPoint {
        if let g = globe { return globeMercator(g, x: x, y: y) }
        if let p = perspective {
            let lowest = p.groundTopY + 1
            if let m = p.unproject(x: x, y: max(y, lowest)) { return m }
        }
        let r = unrotated(x - Double(size.width) / 2, y - Double(size.height) / 2)
        return MercatorPoint(x: (r.x + centerPixel.x) / worldSize, y: (r.y + centerPixel.y) / worldSize)
    }

    /// The position under a screen point.
    public func lngLat(x: Double, y: Double) -> LngLat { WebMercator.unproject(mercator(x: x, y: y)) }

    /// The visible area in normalised Mercator units (x may extend past [0, 1] when wrapping):
    /// the box holding the four corners of the (rotated) viewport.
    public var visibleMercator: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let w = Double(size.width), h = Double(size.height)
        if let g = globe { return g.seenMercatorBox }
        if let p = perspective { return p.groundBox(top: 0, bottom: h) }
        if isNorthUp {
            let a = mercator(x: 0, y: 0), b = mercator(x: w, y: h)
            return (a.x, a.y, b.x, b.y)
        }
        let a = mercator(x: 0, y: 0), b = mercator(x: w, y: 0), c = mercator(x: w, y: h), d = mercator(x: 0, y: h)
        return (min(a.x, b.x, c.x, d.x), min(a.y, b.y, c.y, d.y), max(a.x, b.x, c.x, d.x), max(a.y, b.y, c.y, d.y))
    }

    /// Half the width and height of the box, in world axes, that holds the rotated viewport.
    public static func rotatedHalfExtents(width w: Double, height h: Double, bearing: Double) -> (x: Double, y: Double) {
        if bearing == 0 { return (w / 2, h / 2) }
        let r = bearing * Double.pi / 180
        let c = abs(cos(r)), s = abs(sin(r))
        return ((w * c + h * s) / 2, (w * s + h * c) / 2)
    }
}
