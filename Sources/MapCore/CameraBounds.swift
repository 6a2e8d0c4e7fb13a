import Foundation

/// Limits on the camera (the Mapbox `CameraBounds`): a box the viewport stays inside and a zoom range.
public struct CameraBounds: Equatable, Sendable {
    public var bounds: LngLatBounds
    public var minZoom: Double
    public var maxZoom: Double
    /// The steepest pitch allowed, degrees (MapLibre's default 60; at most 85).
    public var maxPitch: Double

    public init(bounds: LngLatBounds = .world, minZoom: Double = 0, maxZoom: Double = 22, maxPitch: Double = 60) {
        self.bounds = bounds
        self.minZoom = minZoom
        self.maxZoom = max(minZoom, maxZoom)
        self.maxPitch = maxPitch.isFinite ? min(max(maxPitch, 0), CameraState.steepestPitch) : 60
    }

    /// The camera closest to `camera` that obeys these bounds in a viewport of `size`.
    ///
    /// The zoom is clamped to [minZoom, maxZoom]; then, if the box is smaller than the viewport at
    /// that zoom, the zoom rises until it fits; then the centre moves so that the viewport's edges
    /// stay inside the box. A box spanning all longitudes wraps horizontally instead, and only
    /// latitude is constrained (so the top and bottom of the world are never passed). At a
    /// bearing the viewport's four rotated corners stay inside: the box in world axes that holds
    /// them does. A pitched camera (its pitch clamped to `maxPitch`) keeps only its centre
    /// inside a box smaller than the world (its view reaches to the horizon, which no box
    /// holds); in the world, the unturned flat viewport's height stays within its latitudes.
    ///
    /// On the globe (`globe`) only the centre stays inside the box (and within Web Mercator's
    /// latitudes), as MapLibre's globe keeps it: the whole Earth may show at any zoom.
    public func clamp(_ camera: CameraState, size: ViewportSize, globe: Bool = false) -> CameraState {
        var zoom = camera.zoom.isFinite ? camera.zoom : minZoom
        zoom = min(max(zoom, minZoom), maxZoom)
        if globe {
            var lng = camera.center.lng.isFinite ? camera.center.lng : 0
            var lat = camera.center.lat.isFinite ? camera.center.lat : 0
            lat = min(max(lat, max(bounds.south, -WebMercator.maxLatitude)), min(bounds.north, WebMercator.maxLatitude))
            lng = bounds.spansAllLongitudes ? LngLat(lng: lng, lat: 0).wrapped.lng : min(max(lng, bounds.west), bounds.east)
            var out = camera.moved(center: LngLat(lng: lng, lat: lat), zoom: zoom)
            out.pitch = min(camera.pitch, maxPitch)
            return out
        }
        let wraps = bounds.spansAllLongitudes
        let x0 = WebMercator.x(lng: bounds.west), x1 = WebMercator.x(lng: bounds.east)
        let y0 = WebMercator.y(lat: bounds.north), y1 = WebMercator.y(lat: bounds.south)
        let pitch = min(camera.pitch, maxPitch)
        // Pitched: the world keeps the flat viewport's height inside its latitudes (MapLibre's
        // rule, whatever the pitch), a smaller box only the centre.
        let half = pitch == 0 ? ViewTransform.rotatedHalfExtents(width: Double(size.width), height: Double(size.height), bearing: camera.bearing)
            : (x: 0.0, y: wraps ? Double(size.height) / 2 : 0)
        let w = 2 * half.x, h = 2 * half.y
        // Zoom in until the box covers the viewport.
        let dx = wraps ? Double.infinity : (x1 - x0) * WebMercator.tileSize
        let dy = (y1 - y0) * WebMercator.tileSize
        if dx > 0, dy > 0 {
            let needed = log2(max(w / dx, h / dy))
            if zoom < needed { zoom = needed }
        }
        let world = WebMercator.worldSize(zoom: zoom)
        var lng = camera.center.lng.isFinite ? camera.center.lng : 0
        let lat = camera.center.lat.isFinite ? camera.center.lat : 0
        let cx0 = WebMercator.x(lng: lng) * world
        let cy0 = WebMercator.y(lat: lat) * world
        let cy = Self.keepInside(cy0, half: h / 2, lo: y0 * world, hi: y1 * world)
        var outLat = min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        if cy != cy0 { outLat = WebMercator.lat(y: cy / world) }    // unproject only what moved, keeping exact input
        if wraps {
            lng = LngLat(lng: lng, lat: 0).wrapped.lng
        } else {
            let cx = Self.keepInside(cx0, half: w / 2, lo: x0 * world, hi: x1 * world)
            if cx != cx0 { lng = WebMercator.lng(x: cx / world) }
        }
        var out = camera.moved(center: LngLat(lng: lng, lat: outLat), zoom: zoom)
        out.pitch = pitch
        return out
    }

    /// Moves `c` so that [c - half, c + half] lies in [lo, hi] (centred when it cannot).
    private static func keepInside(_ c: Double, half: Double, lo: Double, hi: Double) -> Double {
        if hi - lo <= 2 * half { return (lo + hi) / 2 }
        return min(max(c, lo + half), hi - half)
    }
}
