import CAllocCount
import Foundation
import MapCore
import NightmapApp
import MapData

/// Builds the map the options ask for from a style document: nightmap's own
/// (`Resources/style/nightmap.json`) or `--style FILE`. Every layer is the document's, drawn as
/// written; some ids take part in nightmap's animations: `radar` (a raster layer; the timer steps
/// its image source through the frames in its file's folder), `route` (a line layer: each pulsing
/// step is a copy of it on a source of its own) and `iss` (a symbol layer on the `iss` source,
/// which gets the tracked position; sources `iss-track-past` and `iss-track-future` get its
/// ground track). Metadata `nightmap:lighting` lights the map by `--light`. Labels are the
/// document's symbol layers (nightmap's places are the GeoJSON data `nightmap://places`), set in
/// the fonts of `Resources/fonts`. Then the scenes, camera overrides and the instant `--elapsed`.
enum MapSetup {
    /// The layer ids nightmap animates.
    static let radarID = "radar", routeID = "route", issID = "iss"
    /// The street map's source (from `streets.json`): its bounds are the `streets` scene's.
    static let streetsID = "streets"

    /// Builds the model. Problems with individual radar frames are passed to `report` (one line
    /// each); a problem that leaves nothing to show throws (a style document's problems all at once).
    static func model(_ o: Options, report: (String) -> Void = { _ in }) throws -> MapApp {
        let resources = try ResourceLocator.resourcesDirectory()
        let stylePath = o.style ?? resources.appendingPathComponent("style/nightmap.json").path
        // (A style on the web is read through the cache, as its sprite, glyphs and data are.)
        let web = HTTPCache()
        let document = try StyleLoader.readDocument(path: stylePath, web: web)
        let styleURL = StyleLoader.webStyleURL(stylePath)
        let resolver = ResourceResolver(styleDirectory: styleURL == nil ? URL(fileURLWithPath: stylePath).deletingLastPathComponent() : nil,
                                        assets: nil, web: web, styleURL: styleURL)
        func definition(_ id: String, _ type: LayerType) -> LayerDefinition? {
            document.layers.first { $0.id == id && $0.type == type }
        }
        let radarDef = definition(radarID, .raster), routeDef = definition(routeID, .line), issDef = definition(issID, .symbol)
        let flag = { (key: String) -> Bool in
            if case let .object(m)? = document.metadata, m[key] == .bool(true) { return true }
            return false
        }
        // The places and the radar frames load on other threads while this one opens the rest;
        // their errors come out where they did when loaded in turn.
        let placeSources = document.sources.filter { if case .geojson(.url(Places.url)) = $0.value { return true } else { return false } }
        let placesLoad = placeSources.isEmpty ? nil : BackgroundLoad { () throws -> GeoJSONData in
            try Places.read(path: resources.appendingPathComponent("places/places.tsv").path)
        }
        let radarLoad = radarDef.map { def in (def, BackgroundLoad { try radarSource(def, document, resolver, o) }) }
        // The clouds layer's image source gets the clouds' frames (its file is a placeholder).
        let cloudsDef = o.cloudsURL == nil ? nil : definition(MapApp.cloudsID, .raster)
        var cloudsCorners: ImageCorners?
        if let id = cloudsDef?.source, case let .image(_, corners)? = document.sources[id] { cloudsCorners = corners }
        let animated = Set([radarDef, routeDef].compactMap { $0?.source } + (cloudsCorners == nil ? [] : [cloudsDef?.source].compactMap { $0 }))
        // Labels from the style's glyph ranges, else (or where those fail) from local fonts,
        // nightmap's own first (`Resources/fonts`); problems with either go to stderr, once each.
        let localGlyphs = BundledAssets.localGlyphs(resources: resources, report: warn)
        var style = try StyleLoader.style(for: document, resolver: resolver, skipping: animated.union(placeSources.keys),
                                          localGlyphs: localGlyphs, glyphReport: warn,
                                          report: report)
        try BundledAssets.add(to: &style, resources: resources, localGlyphs: localGlyphs)
        if let id = cloudsDef?.source, let corners = cloudsCorners {
            style.sources[id] = .image(ImageSource(corners: corners, placement: .linear, frames: [], names: []))
        }
        if let placesLoad {
            let places = try placesLoad.wait()
            for id in placeSources.keys { style.sources[id] = .geojson(places) }
        }

        // The animated layers, each where the document puts it.
        var layers: [Layer] = []
        var routeSteps: RouteFile.Steps?
        var radarSeries: RadarSeries?
        var radarLive: RadarFeed.Source?
        var radarDemo: String?
        var tracker: IssTracker?
        var rocket: VectorIcon?
        for layer in style.layers {
            switch (layer.id, radarLoad, routeDef, issDef) {
            case (radarID, let (radarDef, load)?, _, _):
                // The document's own raster layer, evaluated every frame like any other (zoom
                // functions included); the loop steps its image source through the frames.
                let radar = try load.wait()
                radar.problems.forEach(report)
                style.sources[radarDef.source ?? radarID] = .image(radar.source)
                radarSeries = radar.series
                radarLive = radar.live
                radarDemo = radar.demoPath
                layers.append(layer)
            case (routeID, _, let routeDef?, _):
                // (The steps are added in its place once the model is made, and it is removed.)
                routeSteps = try RouteFile.read(path: try o.route ?? sourcePath(routeDef, document, resolver))
                layers.append(layer)
            case (issID, _, _, _?), ("iss-track-past", _, _, _?):
                // The ISS source gets the tracked position, the track sources its ground track;
                // the rocket is a vector image (`Resources/icons/rocket.svg`).
                layers.append(layer)
                if tracker == nil {
                    rocket = try SVGIcon.read(path: resources.appendingPathComponent("icons/rocket.svg").path, name: "rocket")
                    tracker = try issTracker(o, resources, report)
                }
            default:
                layers.append(layer)
            }
        }
        style.layers = layers

        var scenes: [Scene]
        if radarDef != nil || routeSteps != nil || tracker != nil {
            scenes = [Scene.radar]
            if let steps = routeSteps { scenes.append(Scene.route(fitting: RouteFile.bounds(steps))) }
            if tracker != nil { scenes.append(Scene.iss) }
            if let streets = style.tiles(Self.streetsID) { scenes.append(Scene.streets(around: streets.definition.bounds)) }
        } else {
            scenes = [StyleDocumentMap.scene(document)]
        }
        scenes = scenes.map { $0.limitingPitch(to: o.maxPitch) }
        var scene = scenes.first { $0.name == o.scene } ?? scenes[0]
        if let b = o.bearing { scene = scene.turned(to: b) }       // (a fit scene fits the turned view)
        if let p = o.pitch { scene = scene.tilted(to: p) }
        // The viewport in device pixels: `--pixel-ratio` of them per CSS pixel of `--size`.
        let size = ViewportSize(width: Int((Double(o.size.width) * o.pixelRatio).rounded()),
                                height: Int((Double(o.size.height) * o.pixelRatio).rounded()))
        var model = MapApp(style: style, size: size, scene: scene, scenes: scenes,
                           radarLayerID: radarDef == nil ? nil : radarID, radarDwell: o.radarDwell, light: o.light,
                           clockOrigin: o.time ?? Date().timeIntervalSince1970, iss: tracker)
        model.radarLive = radarLive
        model.radarDemoPath = radarDemo
        if radarLive != nil {
            model.radarChoice = o.radarProviders
            model.radarProviderCycles = o.radarProviders == .auto      // (both feeds run then)
        }
        if let rocket { try model.model.addImage(rocket) }

        if let steps = routeSteps, let routeDef {
            // The route pulse (the Mapbox snippet): a source and a copy of the route layer per step.
            let ids = try RouteLayers.add(steps, template: routeDef, below: routeID, to: &model.model)
            try model.model.removeLayer(routeID)
            model.pulse(layers: ids, start: 0)
        }
        model.model.lighting = flag("nightmap:lighting") || o.lightGiven
        if let p = o.projection { model.projectionOverride = p == "globe" ? .globe : .mercator }
        model.setPixelRatio(o.pixelRatio)
        if let b = o.buildings { model.setBuildings(b) }
        if o.center != nil || o.zoom != nil || o.bearing != nil || document.bearing != 0 {
            let start = model.camera.state
            var camera = start.moved(center: o.center ?? start.center, zoom: o.zoom.map { $0 + log2(o.pixelRatio) } ?? start.zoom)
            camera.bearing = o.bearing ?? document.bearing
            model.jump(to: camera)
        }
        // nightmap's own data, or the style's name; then what the tiled sources credit.
        var credits = o.style == nil ? StatusLine.credits(o) : [document.name ?? (styleURL?.lastPathComponent ?? URL(fileURLWithPath: stylePath).lastPathComponent)]
        for source in style.sources.keys.sorted() {
            guard let a = style.tiles(source)?.definition.attribution.map(StatusLine.plainText), !a.isEmpty, !credits.contains(a) else { continue }
            credits.append(a)
        }
        model.credits = credits
        model.model.attribution = model.credits.joined(separator: " · ")
        if let radarSeries { model.showRadar(radarSeries) }
        if let place = o.observer { model.setObserver(place) }
        model.advance(to: o.elapsed)
        // The first frame shows what local archives and files hold for the view.
        model.model.loadWantedTiles(now: model.model.now, localOnly: true)
        model.status = StatusLine.compose(model, framesPerSecond: nil)
        return model
    }

    /// The file a layer's GeoJSON or image source names.
    private static func sourcePath(_ layer: LayerDefinition, _ document: StyleDocument, _ resolver: ResourceResolver) throws -> String {
        switch layer.source.flatMap({ document.sources[$0] }) {
        case let .geojson(.url(url))?, let .image(url, _)?:
            return try resolver.path(url)
        default:
            throw StyleError("layers.\(layer.id).source: nightmap reads this layer's data from a file; name one in its source")
        }
    }

    /// The radar: what its image source starts with, the series shown, problems with files,
    /// and the live source to keep current (nil for frames from files).
    struct Radar: Sendable {
        var source: ImageSource
        var series: RadarSeries
        var problems: [String]
        var live: RadarFeed.Source?
        var demoPath: String
    }

    /// The radar: live (the default: an empty series the feed fills in), `demo` (the bundled
    /// frames in `Resources/radar`), or every frame in `--radar PATH`; placed by
    /// `--radar-bounds`, a world file beside the files, or the image source's coordinates.
    private static func radarSource(_ layer: LayerDefinition, _ document: StyleDocument, _ resolver: ResourceResolver,
                                    _ o: Options) throws -> Radar {
        guard let id = layer.source, case let .image(_, corners)? = document.sources[id] else {
            throw StyleError("layers.\(layer.id).source: the radar layer needs an image source")
        }
        let demoPath = try URL(fileURLWithPath: sourcePath(layer, document, resolver)).deletingLastPathComponent().path
        guard let chosen = o.radar, chosen != "live" else {
            // With RainViewer beside it (auto), IEM's feed covers its whole mosaic (the United
            // States at zoom 5's resolution, 2,731 x 1,511 pixels); alone, the example's box
            // at the scene's deepest zoom.
            let whole = o.radarBounds == nil && o.radarProviders == .auto
            let box = o.radarBounds ?? (whole ? RadarProviderChoice.iemBox : LngLatBounds(
                west: min(corners.topLeft.lng, corners.bottomLeft.lng), south: min(corners.bottomLeft.lat, corners.bottomRight.lat),
                east: max(corners.topRight.lng, corners.bottomRight.lng), north: max(corners.topLeft.lat, corners.topRight.lat)))
            let template = o.radarURL ?? .iem
            let size = RadarFeed.Source.requestSize(box: box, maxZoom: (whole ? 5 : Scene.radar.bounds.maxZoom) + log2(o.pixelRatio))
            let live = RadarFeed.Source(template: template, box: box, width: size.width, height: size.height,
                                        schedule: RadarSchedule(step: o.radarStep * 60, count: o.radarCount),
                                        provider: RadarFeed.Source.provider(for: template))
            let source = ImageSource(corners: ImageCorners(box), placement: .lonlat, frames: [], names: [])
            return Radar(source: source, series: .empty(provider: live.provider), problems: [], live: live, demoPath: demoPath)
        }
        let path = chosen == "demo" ? demoPath : chosen
        let frames = try RadarFrames.load(path: path, box: o.radarBounds, maxZoom: Scene.radar.bounds.maxZoom + log2(o.pixelRatio))
        let box = o.radarBounds ?? frames.worldFileBounds
        let origin: RadarSeries.Origin = chosen == "demo" ? .demo : .files
        return Radar(source: frames.source(corners: box.map(ImageCorners.init) ?? corners, placement: o.radarPlacement),
                     series: frames.series(origin: origin, provider: URL(fileURLWithPath: path).lastPathComponent),
                     problems: frames.problems, live: nil, demoPath: demoPath)
    }

    /// The live radar's providers the options ask for (nil for frames from files): the WMS feed
    /// (IEM's mosaic or `--radar-url`) unless only RainViewer is asked for, RainViewer's unless
    /// `--rainviewer-url none` or only the WMS service is.
    static func radarProviders(_ model: MapApp, _ o: Options, clock: @escaping @Sendable () -> Double,
                               report: @escaping @Sendable (String) -> Void,
                               wmsCache: RadarCache = .standard(), tileCache: RadarCache = TileLoopFeed.standardCache()) -> RadarProviders? {
        guard model.radarLive != nil, let choice = model.radarChoice else { return nil }
        let wms = choice == .rainviewer ? nil : radarFeed(model, o, cache: wmsCache, clock: clock, report: report)
        var rainViewer: TileLoopFeed?
        if choice != .iem, let url = o.rainViewerURL {
            rainViewer = TileLoopFeed(source: RainViewerSource(indexURL: url), cache: tileCache, timeout: o.radarTimeout, clock: clock, report: report,
                                      afterComposing: { nightmap_release_free_memory() }, fallback: demoFrames(model))
        }
        // The clouds come with the live radar (never with demo frames or files: tests stay offline).
        var clouds: TileLoopFeed?
        if model.hasClouds, let base = o.cloudsURL {
            clouds = TileLoopFeed(source: CloudsSource(base: base, gapTemplate: o.cloudsGapURL), cache: tileCache, timeout: o.radarTimeout, clock: clock, report: report,
                                  afterComposing: { nightmap_release_free_memory() }, fallback: { nil })
        }
        return RadarProviders(wms: wms, rainViewer: rainViewer, clouds: clouds)
    }

    /// The demo frames, the live radar's last fallback.
    static func demoFrames(_ model: MapApp) -> @Sendable () -> RadarSeries? {
        let demo = model.radarDemoPath
        return {
            guard let demo, let frames = try? RadarFrames.load(path: demo) else { return nil }
            return frames.series(origin: .demo, provider: "demo")
        }
    }

    /// A live radar's feed: the disk cache, then the source; its last fallback is the demo frames.
    static func radarFeed(_ model: MapApp, _ o: Options, cache: RadarCache = .standard(), clock: @escaping @Sendable () -> Double,
                          report: @escaping @Sendable (String) -> Void) -> RadarFeed? {
        guard let live = model.radarLive else { return nil }
        return RadarFeed(source: live, cache: cache, timeout: o.radarTimeout, clock: clock, report: report,
                         afterFetching: { nightmap_release_free_memory() }, fallback: demoFrames(model))
    }

    /// The ISS: `--tle` as given (its errors are fatal); else of the bundled set and the cached
    /// one the nearer to the instant shown (a bad cache is reported and skipped). Nothing here reads the network:
    /// `refreshElements` does, once the map is built.
    private static func issTracker(_ o: Options, _ resources: URL, _ report: (String) -> Void) throws -> IssTracker {
        if let path = o.tle {
            let orbit = try IssOrbit.load(path: path)
            return IssTracker(mode: o.issMode, orbit: orbit.position, orbitEpoch: orbit.epoch, orbitOrigin: .file)
        }
        let bundled = resources.appendingPathComponent("tle/iss.tle").path, cache = TLECache.cacheFile().path
        let instant = (o.time ?? Date().timeIntervalSince1970) + o.elapsed
        guard let (orbit, path) = TLECache.nearest([bundled, cache], to: instant, report: report) else {
            return IssTracker(mode: o.issMode, orbit: nil)
        }
        return IssTracker(mode: o.issMode, orbit: orbit.position, orbitEpoch: orbit.epoch, orbitOrigin: path == bundled ? .bundled : .cache)
    }

    /// The element-set refresh the options ask for: nil with `--tle FILE`, `--tle-url none` or no ISS.
    static func elementsRefresh(_ model: MapApp, _ o: Options, cache: URL = TLECache.cacheFile()) -> ElementsRefresh? {
        guard model.iss != nil, o.tle == nil, let url = o.tleURL else { return nil }
        return ElementsRefresh(url: url, cache: cache)
    }

    /// Applies one run of the refresh to the model: a new set replaces the orbit; what happened
    /// goes into `elementsRefresh` (for `state`), a failure to `report` (once: the runs after it wait).
    static func apply(_ outcome: ElementsRefresh.Outcome, to model: inout MapApp, report: (String) -> Void) {
        switch outcome {
        case .upToDate:
            model.elementsRefresh = "up to date"
        case let .waiting(until, reason):
            model.elementsRefresh = "no try before \(RadarTime.hourMinute(until)) UTC: \(reason)"
        case let .downloaded(orbit):
            let instant = model.clockOrigin + model.now
            if abs(orbit.epoch - instant) < abs((model.issOrbitEpoch ?? -.infinity) - instant) { model.useElements(orbit, origin: .download) }
            model.elementsRefresh = "downloaded"
        case let .failed(reason):
            model.elementsRefresh = reason
            report("\(reason); using the newest element set on disk")
        }
    }
}
