import Foundation
import MapCore
import MapData

/// Builds the map the options ask for: the embedded basemap, the radar frames, the pulsing
/// route, the scenes, camera overrides, and the instant `--elapsed`.
enum MapSetup {
    /// The radar layer's paint: the Mapbox weather example's (no fade, emissive strength 1).
    static let radarPaint = RasterPaint(fadeDuration: 0, emissiveStrength: 1)

    /// Builds the model. Problems with individual radar frames are passed to `report` (one line
    /// each); a problem that leaves nothing to show throws.
    static func model(_ o: Options, report: (String) -> Void = { _ in }) throws -> MapModel {
        let resources = try ResourceLocator.resourcesDirectory()
        var style = try Basemap.load(resources: resources)

        let frames = try RadarFrames.load(path: o.radar ?? resources.appendingPathComponent("radar").path)
        frames.problems.forEach(report)
        let box = o.radarBounds ?? frames.worldFileBounds
        let corners = box.map(ImageCorners.init) ?? .weatherExample
        style.images["radar"] = frames.source(corners: corners, placement: o.radarPlacement)
        let radar = Layer(id: "radar", source: "radar", paint: .raster(radarPaint))
        // Above the land and lakes, below coastlines, borders and the route.
        let at = (style.layerIndex("lakes") ?? style.layers.count - 1) + 1
        style.layers.insert(radar, at: at)

        // Labels above the basemap and the radar, below the moving layers (route, ISS), so that a
        // still map keeps them in its cached image.
        try PlaceLabels.add(to: &style, resources: resources)

        let routePath = o.route ?? resources.appendingPathComponent("routes/default.geojson").path
        let steps = try RouteFile.read(path: routePath)
        let route = RouteLayers.make(steps)
        style.sources.merge(route.sources) { a, _ in a }
        style.layers += route.layers

        let issStyle = try IssLayers.make(resources: resources)
        style.icons.merge(issStyle.icons) { a, _ in a }
        style.layers += issStyle.layers
        // The orbit: --tle as given (its errors are fatal); else the newest of the bundled set and
        // the cached one, after a refresh from --tle-url when asked.
        var orbit: IssOrbit?
        if let path = o.tle {
            orbit = try IssOrbit.load(path: path)
        } else {
            let cache = TLECache.cacheFile()
            if let url = o.tleURL, case let .failure(e) = TLECache.refresh(from: url, cache: cache) {
                report("\(e.description); using the newest element set on disk")
            }
            orbit = TLECache.newest([resources.appendingPathComponent("tle/iss.tle").path, cache.path], report: report)
        }
        let tracker = IssTracker(mode: o.issMode, orbit: orbit?.position, orbitEpoch: orbit?.epoch)

        let scenes = [Scene.radar, Scene.route(fitting: RouteFile.bounds(steps)), Scene.iss]
        let scene = scenes.first { $0.name == o.scene } ?? .radar
        var model = MapModel(scene: scene, style: style, size: o.size, scenes: scenes,
                             routeLayerIDs: route.layers.map(\.id), radarLayerID: "radar", light: o.light,
                             clockOrigin: o.time ?? Date().timeIntervalSince1970, iss: tracker)
        if o.center != nil || o.zoom != nil {
            let start = model.camera.state
            model.jump(to: CameraState(center: o.center ?? start.center, zoom: o.zoom ?? start.zoom))
        }
        model.attribution = StatusLine.attribution(o)
        model.advance(to: o.elapsed)
        model.status = StatusLine.compose(model, framesPerSecond: nil)
        return model
    }
}
