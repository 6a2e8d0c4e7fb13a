import Foundation
import MapCore

/// A named starting point: camera (or a box to fit), camera bounds and timer (`--scene`).
public struct Scene: Equatable, Sendable {
    public let name: String
    public let camera: CameraState
    /// When set, the start camera shows this box, with `padding` pixels around it.
    public let fit: LngLatBounds?
    public let padding: Double
    public let bounds: CameraBounds
    public let timerStartsPlaying: Bool
    /// Starts in follow mode (the camera eases to the ISS once a second).
    public let followsIss: Bool
    /// The zoom follow mode eases to (nil: keep the zoom).
    public let followZoom: Double?
    /// Opens on the globe, whatever the style's projection (unless `--projection` says).
    public let opensOnGlobe: Bool

    public init(name: String, camera: CameraState, fit: LngLatBounds? = nil, padding: Double = 40,
                bounds: CameraBounds, timerStartsPlaying: Bool, followsIss: Bool = false, followZoom: Double? = nil,
                opensOnGlobe: Bool = false) {
        self.name = name; self.camera = camera; self.fit = fit; self.padding = padding
        self.bounds = bounds; self.timerStartsPlaying = timerStartsPlaying
        self.followsIss = followsIss; self.followZoom = followZoom; self.opensOnGlobe = opensOnGlobe
    }

    /// The scene names `--scene` accepts.
    public static let names = ["radar", "route", "iss", "streets"]

    /// The Mapbox live-data example on the globe: the whole Earth at zoom 2 (its disc two thirds
    /// of the window's height), then following the ISS at zoom 3, the globe turning under it.
    public static let iss = Scene(name: "iss", camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 2),
                                  bounds: CameraBounds(minZoom: 0, maxZoom: 8), timerStartsPlaying: true,
                                  followsIss: true, followZoom: 3, opensOnGlobe: true)

    /// The Mapbox weather example: US Northeast, zoom 5 within [4, 5.99], timer playing.
    public static let radar = Scene(name: "radar",
                                    camera: CameraState(center: LngLat(lng: -75.789, lat: 41.874), zoom: 5),
                                    bounds: CameraBounds(minZoom: 4, maxZoom: 5.99),
                                    timerStartsPlaying: true)

    /// The pulsing-line scene: the camera fits the route.
    public static func route(fitting box: LngLatBounds) -> Scene {
        Scene(name: "route", camera: CameraState(center: LngLat(lng: (box.west + box.east) / 2, lat: (box.south + box.north) / 2), zoom: 6),
              fit: box, padding: 40, bounds: CameraBounds(minZoom: 2, maxZoom: 10), timerStartsPlaying: true)
    }

    /// The street map: central Helsinki at zoom 15, the camera kept around `extract` (the street
    /// tiles' bounds, with half their size again on every side) between zooms 14 and 19.
    public static func streets(around extract: LngLatBounds) -> Scene {
        let w = extract.east - extract.west, h = extract.north - extract.south
        let box = LngLatBounds(west: extract.west - w / 2, south: extract.south - h / 2, east: extract.east + w / 2, north: extract.north + h / 2)
        return Scene(name: "streets", camera: CameraState(center: LngLat(lng: 24.9443, lat: 60.1716), zoom: 15),
                     bounds: CameraBounds(bounds: box, minZoom: 14, maxZoom: 19), timerStartsPlaying: true)
    }

    /// The same scene for `factor` times as many device pixels per CSS pixel: every zoom shifted
    /// by log2(factor) (the same ground in more pixels), the fit's padding scaled.
    public func scaled(by factor: Double) -> Scene {
        let shift = log2(factor)
        return Scene(name: name, camera: camera.moved(center: camera.center, zoom: camera.zoom + shift), fit: fit,
                     padding: padding * factor,
                     bounds: CameraBounds(bounds: bounds.bounds, minZoom: bounds.minZoom + shift, maxZoom: bounds.maxZoom + shift,
                                          maxPitch: bounds.maxPitch),
                     timerStartsPlaying: timerStartsPlaying, followsIss: followsIss, followZoom: followZoom.map { $0 + shift }, opensOnGlobe: opensOnGlobe)
    }

    /// The same scene starting at `bearing` (a fit then fits the turned view).
    public func turned(to bearing: Double) -> Scene {
        var c = camera
        c.bearing = bearing
        return Scene(name: name, camera: c, fit: fit, padding: padding,
                     bounds: bounds, timerStartsPlaying: timerStartsPlaying, followsIss: followsIss, followZoom: followZoom, opensOnGlobe: opensOnGlobe)
    }

    /// The camera the scene starts with in a viewport of `size` (before clamping).
    public func startCamera(size: ViewportSize) -> CameraState {
        guard let box = fit else { return camera }
        let x0 = WebMercator.x(lng: box.west), x1 = WebMercator.x(lng: box.east)
        let y0 = WebMercator.y(lat: box.north), y1 = WebMercator.y(lat: box.south)
        let w = max(1, Double(size.width) - 2 * padding), h = max(1, Double(size.height) - 2 * padding)
        var dx = max((x1 - x0) * WebMercator.tileSize, 1e-9), dy = max((y1 - y0) * WebMercator.tileSize, 1e-9)
        if camera.bearing != 0 {
            // The turned box's extent on screen.
            let e = ViewTransform.rotatedHalfExtents(width: dx, height: dy, bearing: camera.bearing)
            (dx, dy) = (2 * e.x, 2 * e.y)
        }
        let zoom = log2(min(w / dx, h / dy))
        let center = WebMercator.unproject(MercatorPoint(x: (x0 + x1) / 2, y: (y0 + y1) / 2))
        return camera.moved(center: center, zoom: zoom.isFinite ? zoom : camera.zoom)
    }
}
