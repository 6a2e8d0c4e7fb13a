import CAllocCount
import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster

/// The commands that need no window: snapshot, state, bench.
enum Headless {
    static func snapshot(_ o: Options) throws {
        var model = try MapSetup.model(o, report: warn)
        loadRadarOnce(&model, o)
        refreshElementsOnce(&model, o)
        if o.issMode == .live { fetchIssOnce(&model, o) }     // auto draws from the orbit: one picture needs no feed
        model.model.loadWantedTiles(now: model.model.now)
        for r in model.model.tileRequests() { if let e = r.tiles.lastError { warn("\(e.message)\(e.count > 1 ? " (and \(e.count - 1) more tiles)" : "")") } }
        model.status = StatusLine.compose(model, framesPerSecond: nil)
        let pixmap = Pixmap(width: model.camera.size.width, height: model.camera.size.height)
        FrameRenderer().render(model.frame(), into: pixmap)
        try PNGCodec.write(pixmap, to: o.output ?? "snapshot.png")
    }

    static func state(_ o: Options) throws -> String {
        var model = try MapSetup.model(o, report: warn)
        loadRadarOnce(&model, o)
        refreshElementsOnce(&model, o)
        fetchIssOnce(&model, o)
        // The status line as the window shows it with nothing moving.
        model.status = StatusLine.compose(model, framesPerSecond: 0)
        return stateJSON(model, options: o)
    }

    /// Where the overlay's parts are: [x, y, width, height] each, or null when not shown.
    static func overlayJSON(_ model: MapApp) -> [String: Any] {
        let layout = model.overlayLayout
        func box(_ b: FrameDescription.ScreenBox?) -> Any {
            guard let b else { return NSNull() }
            return [b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY].map { ($0 * 10).rounded() / 10 }
        }
        var out: [String: Any] = ["status": box(layout?.text.status?.box), "attribution": box(layout?.attributionBox),
                                  "scale": box(layout?.scale?.box), "statusText": layout?.text.status?.text ?? NSNull(),
                                  "attributionLines": layout?.text.attribution.map(\.text) ?? [],
                                  "timeline": box(layout?.timeline?.box), "legend": box(layout?.legend?.panel)]
        // The compass, while the map is not north up.
        if let c = model.model.compassArea {
            out["compass"] = box(.init(minX: c.x - c.radius, minY: c.y - c.radius, maxX: c.x + c.radius, maxY: c.y + c.radius))
        }
        return out
    }

    /// With a live radar, one refresh of its feed (at most `--radar-timeout` seconds) before
    /// drawing, so the picture is the window's once it has loaded.
    static func loadRadarOnce(_ model: inout MapApp, _ o: Options, cache: RadarCache = .standard(), report: @escaping @Sendable (String) -> Void = warn) {
        let instant = model.clockOrigin + model.now
        guard let feed = MapSetup.radarFeed(model, o, cache: cache, clock: { instant }, report: report) else { return }
        feed.refresh(deadline: ProcessInfo.processInfo.systemUptime + o.radarTimeout)
        if let (series, _) = feed.take(after: 0) { model.showRadar(series, since: 0) }
        model.advance(to: model.now)
        model.status = StatusLine.compose(model, framesPerSecond: nil)
    }

    /// The element set kept current as the window would at start (at most one request, within
    /// its 2 s limit, when CelesTrak's rules allow one).
    static func refreshElementsOnce(_ model: inout MapApp, _ o: Options) {
        guard let refresh = MapSetup.elementsRefresh(model, o) else { return }
        let outcome = refresh.run(now: Date().timeIntervalSince1970, instant: model.clockOrigin + model.now, newestEpoch: model.issOrbitEpoch)
        MapSetup.apply(outcome, to: &model, report: warn)
        model.advance(to: model.now)
    }

    /// With a live or auto source, one request (within the feed's time limit) before drawing.
    static func fetchIssOnce(_ model: inout MapApp, _ o: Options) {
        guard o.issMode != .tle, model.iss != nil else { return }
        let client = IssFeedClient(url: o.issURL ?? IssFeedClient.defaultURL)
        // A second fix a second later when the elements disagree with the first: the two show
        // which way the station moves, which the orbit's fit needs.
        for attempt in 0..<2 {
            if attempt == 1 {
                guard let tracker = model.iss, tracker.elementsStale, tracker.fit == nil else { break }
                Thread.sleep(forTimeInterval: 1.05)
            }
            switch client.fetchNow() {
            case let .success(fix): model.receiveIss(fix)
            case let .failure(e):
                model.issFeedFailed(at: Date().timeIntervalSince1970, reason: e.description)
                warn("\(e.description); keeping the last ISS position")
            }
            if model.iss?.lastFailure != nil { break }
        }
        model.advance(to: model.now)
    }

    /// The labels placed at this camera: text, layer and screen box [x, y, width, height].
    static func labelsJSON(_ model: MapApp) -> [[String: Any]] {
        placedLabels(model).map { l in
            ["text": l.text, "layer": l.layer,
             "box": [l.box.minX, l.box.minY, l.box.maxX - l.box.minX, l.box.maxY - l.box.minY].map { ($0 * 10).rounded() / 10 }]
        }
    }

    /// A label placed: its text, its layer, its box and, when it has an icon (a dot), where that is.
    struct PlacedLabel: Equatable {
        let text: String, layer: String
        let box: FrameDescription.ScreenBox
        let dot: Point?
    }

    /// Every symbol layer's labels placed for the model's frame, in draw order.
    static func placedLabels(_ model: MapApp) -> [PlacedLabel] {
        let frame = model.frame()
        let placement = SymbolPlacement()
        placement.place(frame)
        return frame.layers.indices.flatMap { i in
            placement.symbols(layer: i).compactMap { s in
                s.text.map { PlacedLabel(text: $0.text, layer: frame.layers[i].id, box: $0.box, dot: s.icon == nil ? nil : s.point) }
            }
        }
    }

    /// The ids of the layers that set text (`text-field`): the bench's scenarios without text hide them.
    static func textLayers(_ style: Style) -> [String] {
        style.layers.compactMap { layer in
            let s = layer.styled
            guard s.definition.type == .symbol, s.definition.layout["text-field"] != nil else { return nil }
            return layer.id
        }
    }

    static func issJSON(_ model: MapApp) -> [String: Any] {
        guard let tracker = model.iss else { return [:] }
        var out: [String: Any] = ["mode": tracker.mode.rawValue]
        if let p = model.issNow {
            out["lat"] = p.fix.position.lat; out["lon"] = p.fix.position.lng
            out["altitudeKm"] = p.fix.altitudeKm; out["source"] = p.fix.source.rawValue
            out["ageSeconds"] = p.ageSeconds; out["bearing"] = p.bearing
            out["footprintRadiusKm"] = model.issFootprintRadiusKm ?? NSNull()
            out["trackOffsetKm"] = model.issTrackOffsetKm ?? NSNull()
        } else {
            out["source"] = "none"
        }
        if let f = tracker.lastFailure { out["lastError"] = f.reason }
        // The elements against the live feed: how far off they put the station, and the shift fitted.
        out["orbitOffsetKm"] = tracker.orbitOffsetKm ?? NSNull()
        out["elementsStale"] = tracker.elementsStale
        out["orbitFit"] = tracker.fit.map { ["seconds": $0.dt, "degrees": $0.dLng] } ?? NSNull()
        if let epoch = model.issOrbitEpoch {
            out["tleEpoch"] = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: epoch))
            out["tleAgeDays"] = (model.clockOrigin + model.now - epoch) / 86400
            out["tleOrigin"] = tracker.orbitOrigin?.rawValue ?? NSNull()
        }
        out["tleRefresh"] = model.elementsRefresh ?? "off"
        out["following"] = model.followsIss
        return out
    }

    /// The point under the Sun at the map's instant, and whether the night shading shows.
    static func sunJSON(_ model: MapApp) -> [String: Any] {
        let p = model.subsolarPoint
        return ["lat": p.lat, "lon": p.lng, "shown": model.showsDaylight]
    }

    /// What the map shows, as one JSON object.
    static func stateJSON(_ model: MapApp, options o: Options) -> String {
        let cam = model.camera.state
        let b = model.camera.bounds
        let instant = (o.time ?? Date().timeIntervalSince1970) + o.elapsed
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let object: [String: Any] = [
            // Zooms are the style's (the camera's less log2 of the pixel ratio); the size is in
            // device pixels, as the overlay's and the labels' boxes are.
            "camera": ["lat": cam.center.lat, "lon": cam.center.lng, "zoom": cam.zoom - log2(model.model.pixelRatio), "bearing": cam.bearing],
            "bounds": ["west": b.bounds.west, "south": b.bounds.south, "east": b.bounds.east, "north": b.bounds.north,
                       "minZoom": b.minZoom - log2(model.model.pixelRatio), "maxZoom": b.maxZoom - log2(model.model.pixelRatio)],
            "size": [model.camera.size.width, model.camera.size.height],
            "pixelRatio": model.model.pixelRatio,
            "timer": model.loop.stateName,
            "layers": model.model.visibleLayerIDs,
            "scene": model.scene.name,
            "light": model.lightPreset.rawValue,
            "radar": radarJSON(model),
            "iss": issJSON(model),
            "sun": sunJSON(model),
            "labels": labelsJSON(model),
            "overlay": overlayJSON(model),
            "pulse": model.pulse.map { p -> [String: Any] in
                ["running": p.isRunning, "period": p.period, "steps": p.stepCount]
            } ?? ["running": false, "period": 0, "steps": 0],
            "time": f.string(from: Date(timeIntervalSince1970: instant)),
            "elapsed": o.elapsed,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The radar: where its frames come from, every slot (oldest first) with its time and
    /// status, the slot shown, whether the loop plays, the last problem, and the placement.
    static func radarJSON(_ model: MapApp) -> [String: Any] {
        guard let id = model.radarLayerID, let layer = model.style.layers.first(where: { $0.id == id }),
              let source = model.style.image(layer.source), let series = model.radar else { return [:] }
        let c = source.corners
        let emissive = model.model.rasterPaint(layer: id)?.emissiveStrength ?? 0
        let shown = model.radarFrame
        let frames: [[String: Any]] = series.slots.map { slot in
            ["time": slot.time.map(RadarTime.iso) ?? NSNull(), "status": slot.status.rawValue]
        }
        return ["source": series.origin.rawValue, "frames": frames, "frame": shown.map { $0.slot } ?? NSNull(),
                "playing": model.loop.isPlaying, "lastError": series.lastError ?? NSNull(),
                "file": shown?.name ?? NSNull(), "frameSeconds": model.loop.frameSeconds,
                "placement": source.placement.rawValue, "emissiveStrength": emissive,
                "corners": [c.topLeft, c.topRight, c.bottomRight, c.bottomLeft].map { [$0.lng, $0.lat] }]
    }

    /// One benchmark scenario: the camera for frame i of n.
    struct Scenario: Sendable {
        let name: String
        /// Bands drawn at once (1: one thread).
        var threads = 1
        /// Place labels and the overlay drawn (false: measures what text costs).
        var text = true
        /// Day and night and the ISS's footprint drawn (false: measures what they cost).
        var sky = true
        /// Seconds of animation time per frame (0: time stands still).
        var frameTime = 0.0
        /// The viewport (nil: `--size`).
        var size: ViewportSize? = nil
        /// Camera bounds for the scenario (nil: the scene's).
        var bounds: CameraBounds? = nil
        /// The scene whose start camera and bounds the scenario uses (nil: `--scene`'s).
        var scene: String? = nil
        /// Time-stamped radar frames of this many pixels swapped every frame (0: the radar as it is).
        var radarFrames: (count: Int, width: Int, height: Int)? = nil
        let camera: @Sendable (Int, Int, CameraState, CameraBounds) -> CameraState
    }

    /// A loop of +/- 3 degrees of longitude and 1.5 of latitude around the start centre.
    static func panLoop(_ i: Int, _ n: Int, _ home: CameraState) -> CameraState {
        let t = Double(i) / Double(n) * 2 * Double.pi
        return CameraState(center: LngLat(lng: home.center.lng + 3 * sin(t), lat: home.center.lat + 1.5 * sin(2 * t)), zoom: home.zoom)
    }

    static let scenarios: [Scenario] = [
        // The camera still while the route pulses at 60 frames per second: only what moves is redrawn.
        Scenario(name: "pulse", frameTime: 1.0 / 60) { _, _, home, _ in home },
        // Panning at the start zoom: every layer redrawn, labels placed anew.
        Scenario(name: "pan") { i, n, home, _ in panLoop(i, n, home) },
        // The same pan without place labels or overlay text: the difference is what text costs.
        Scenario(name: "pan-notext", text: false) { i, n, home, _ in panLoop(i, n, home) },
        // The same pan without day and night or the footprint: the difference is what they cost.
        Scenario(name: "pan-nosky", sky: false) { i, n, home, _ in panLoop(i, n, home) },
        // The same pan drawn by one thread per core, in bands.
        Scenario(name: "pan-mt", threads: ProcessInfo.processInfo.activeProcessorCount) { i, n, home, _ in panLoop(i, n, home) },
        // The same pan in a 1920x1080 window.
        Scenario(name: "1080p", size: ViewportSize(width: 1920, height: 1080)) { i, n, home, _ in panLoop(i, n, home) },
        // The whole world at zoom 2, panning east (the map wraps).
        Scenario(name: "world", bounds: CameraBounds(minZoom: 0, maxZoom: 8)) { i, n, _, _ in
            CameraState(center: LngLat(lng: Double(i) / Double(n) * 90, lat: 10 * sin(Double(i) / Double(n) * 2 * Double.pi)), zoom: 2)
        },
        // The same without labels or overlay text (what the cairo peer draws).
        Scenario(name: "world-notext", text: false, bounds: CameraBounds(minZoom: 0, maxZoom: 8)) { i, n, _, _ in
            CameraState(center: LngLat(lng: Double(i) / Double(n) * 90, lat: 10 * sin(Double(i) / Double(n) * 2 * Double.pi)), zoom: 2)
        },
        // The Helsinki street map at zoom 15, panning about 600 by 350 m: every layer redrawn.
        Scenario(name: "streets", scene: "streets") { i, n, home, _ in
            let t = Double(i) / Double(n) * 2 * Double.pi
            return CameraState(center: LngLat(lng: home.center.lng + 0.005 * sin(t), lat: home.center.lat + 0.0016 * sin(2 * t)), zoom: 15)
        },
        // The same without street names (what MapLibre Native draws in make bench-peer: no glyphs).
        Scenario(name: "streets-notext", text: false, scene: "streets") { i, n, home, _ in
            let t = Double(i) / Double(n) * 2 * Double.pi
            return CameraState(center: LngLat(lng: home.center.lng + 0.005 * sin(t), lat: home.center.lat + 0.0016 * sin(2 * t)), zoom: 15)
        },
        // Zooming through the allowed range while drifting.
        Scenario(name: "zoom-sweep") { i, n, home, b in
            let t = Double(i) / Double(n)
            let zoom = b.minZoom + (b.maxZoom - b.minZoom) * (0.5 + 0.5 * sin(t * 2 * Double.pi * 3))
            return CameraState(center: LngLat(lng: home.center.lng + 4 * sin(t * 2 * Double.pi),
                                              lat: home.center.lat + 2 * sin(t * 4 * Double.pi)), zoom: zoom)
        },
        // The camera still while twelve time-stamped 1200x1100 radar frames swap at 60 frames a
        // second (a live loop stepped every frame).
        Scenario(name: "radar-live", frameTime: 1.0 / 60, radarFrames: (12, 1200, 1100)) { _, _, home, _ in home },
    ]

    /// Renders `--frames` frames per scenario and prints a table of frame times and of the heap
    /// allocations made per frame, by the model describing it and by the renderer drawing it.
    static func bench(_ o: Options, startedAt processStart: Double) throws -> String {
        let t0 = Clock.now()
        var model = try MapSetup.model(o, report: warn)
        let renderer = ParallelRenderer()
        var pixmap = Pixmap(width: o.size.width, height: o.size.height)
        model.model.loadWantedTiles(now: model.model.now)
        renderer.render(model.frame(), into: pixmap)
        let firstFrame = Clock.now()
        let home = model.camera.state
        let homeBounds = model.camera.bounds
        var medians: [String: Double] = [:]
        var lines = [String(format: "nightmap bench: %d frames per scenario at %dx%d unless named, scene %@ (pulse: camera still, route and radar animating; the others redraw every layer)",
                            o.frames, o.size.width, o.size.height, o.scene),
                     "scenario (threads)  median ms   p95 ms   max ms   frames/s   allocs/frame: model  render   describe ms"]
        for scenario in scenarios where o.scenario == nil || o.scenario == scenario.name {
            let renderer = ParallelRenderer(threads: scenario.threads)
            for id in textLayers(model.style) { model.model.setVisibility(layer: id, scenario.text) }
            for id in [MapApp.nightID, MapApp.subsolarID, MapApp.footprintID, MapApp.footprintEdgeID] where model.style.layers.contains(where: { $0.id == id }) {
                model.model.setVisibility(layer: id, scenario.sky)
            }
            model.overlay.enabled = scenario.text
            let size = scenario.size ?? o.size
            model.apply(.resize(width: size.width, height: size.height), now: model.now)
            let scene = scenario.scene.flatMap { name in model.scenes.first { $0.name == name } }
            model.model.setCameraBounds(scenario.bounds ?? scene?.bounds ?? homeBounds)
            let home = scene.map { $0.startCamera(size: size) } ?? home
            if pixmap.width != size.width || pixmap.height != size.height { pixmap = Pixmap(width: size.width, height: size.height) }
            if let r = scenario.radarFrames, let series = radarSeries(like: model.radar, count: r.count, width: r.width, height: r.height,
                                                                      newest: model.clockOrigin) {
                model.showRadar(series)
                nightmap_release_free_memory()      // (as the live feed does after fetching frames)
                if model.loop.isPlaying { model.apply(.toggleTimer, now: model.now) }
            }
            var times: [Double] = [], describing: [Double] = [], modelAllocs: [UInt64] = [], renderAllocs: [UInt64] = []
            times.reserveCapacity(o.frames); modelAllocs.reserveCapacity(o.frames); renderAllocs.reserveCapacity(o.frames)
            // Warm-up: a few frames (caches, scratch buffers) that are not counted; for swapped
            // radar frames two rounds of the loop (each frame's pixels are kept in the second).
            let warmUp = scenario.radarFrames.map { 2 * $0.count } ?? min(5, o.frames)
            // The frame before the last (the renderer keeps the last) lends its storage to the next.
            var spare: FrameDescription?, previous: FrameDescription?
            for i in 0..<(o.frames + warmUp) {
                let k = max(0, i - warmUp)
                // NIGHTMAP_TRACE_ALLOCATIONS=1: the call stacks of the last frame's allocations on
                // stderr (all that its two columns count: moving the camera and the clock,
                // describing the frame, drawing it).
                let traced = i == o.frames + warmUp - 1 && ProcessInfo.processInfo.environment["NIGHTMAP_TRACE_ALLOCATIONS"] == "1"
                var camera = scenario.camera(k, o.frames, home, model.camera.bounds)
                camera.bearing = home.bearing           // (`--bearing`: the scenario turned)
                // Tiles the new view needs are read and decoded before the frame, untimed (the
                // window's loader threads do it while frames go on): `describe ms` is the rest.
                do {
                    var moved = model
                    moved.jump(to: camera)
                    moved.model.loadWantedTiles(now: moved.model.now)
                }
                if traced { nightmap_trace_allocations(1) }
                let a0 = nightmap_allocations()
                let d0 = Clock.now()
                model.jump(to: camera)
                if scenario.frameTime > 0 { model.advance(to: o.elapsed + Double(k + 1) * scenario.frameTime) }
                if scenario.radarFrames != nil { model.apply(.stepFrame(1), now: model.now) }
                let frame = model.frame(recycling: &spare)
                let d1 = Clock.now()
                let a1 = nightmap_allocations()
                let s = Clock.now()
                renderer.render(frame, into: pixmap)
                spare = previous; previous = frame
                let e = Clock.now()
                let a2 = nightmap_allocations()
                if traced { nightmap_trace_allocations(0) }
                guard i >= warmUp else { continue }
                times.append((e - s) * 1000)
                describing.append((d1 - d0) * 1000)
                modelAllocs.append(a1 - a0); renderAllocs.append(a2 - a1)
            }
            times.sort()
            let median = times[times.count / 2]
            medians[scenario.name] = median
            let p95 = times[min(times.count - 1, Int(Double(times.count) * 0.95))]
            func perFrame(_ a: [UInt64]) -> Double { Double(a.reduce(0, +)) / Double(max(1, a.count)) }
            describing.sort()
            lines.append("\(scenario.name) (\(scenario.threads))".padding(toLength: 18, withPad: " ", startingAt: 0)
                         + String(format: " %7.2f %8.2f %8.2f %10.0f %20.1f %7.1f %13.2f", median, p95, times.last ?? 0, 1000 / median,
                                  perFrame(modelAllocs), perFrame(renderAllocs), describing[describing.count / 2]))
        }
        if let with = medians["pan"], let without = medians["pan-nosky"] {
            lines.append(String(format: "day and night and the footprint: %.2f ms of a pan frame (pan - pan-nosky)", with - without))
        }
        lines.append(String(format: "first frame: %.0f ms after process start (%.0f ms after main: data load and first render)",
                            (firstFrame - processStart) * 1000, (firstFrame - t0) * 1000))
        if o.scenario == nil || o.scenario == "streets", let resources = try? ResourceLocator.resourcesDirectory() {
            lines.append(tilePrepareLine(resources.appendingPathComponent("streets/helsinki.pmtiles").path, zooms: 14...16, label: "streets"))
            lines.append(tilePrepareLine(resources.appendingPathComponent("basemap/basemap.pmtiles").path, zooms: 5...5, label: "basemap"))
        }
        if o.scenario == nil || o.scenario == "radar-live" {
            lines.append(radarDecodeLine(model))
            lines.append(String(format: "resident: %.0f MB after the scenarios (radar: %d frames)", residentMegabytes(), model.radar?.frameSlots.count ?? 0))
        }
        return lines.joined(separator: "\n")
    }
}

extension Headless {
    /// `count` time-stamped frames of `width` x `height`, `newest` the last, each a distinct
    /// image scaled from the series' own frames (the demo's), as a live source would deliver them.
    static func radarSeries(like series: RadarSeries?, count: Int, width: Int, height: Int, newest: Double) -> RadarSeries? {
        let sources = series?.slots.compactMap(\.image) ?? []
        guard !sources.isEmpty else { return nil }
        let slots = (0..<count).map { k -> RadarSeries.Slot in
            let from = sources[k % sources.count], image = Pixmap(width: width, height: height)
            for y in 0..<height {
                let sy = min(from.height - 1, y * from.height / height)
                // (Each frame shifted a little, so no two are the same picture.)
                let t = from.texels
                for x in 0..<width { image.pixels[y * width + x] = t[sy * from.width + min(from.width - 1, (x * from.width / width + k) % from.width)] }
            }
            let (frame, runs) = RadarFeed.frame(image)
            return .init(time: newest - Double(count - 1 - k) * 300, status: .ok, image: frame, runs: runs, name: "bench frame \(k)")
        }
        return RadarSeries(origin: .live, slots: slots, provider: "bench")
    }

    /// What a live frame costs off the render thread: decoding a 1200x1100 PNG answer, keeping
    /// it as palette indices and finding its clear runs (median of 15).
    static func radarDecodeLine(_ model: MapApp) -> String {
        guard let image = model.radar?.slots.last?.image, let png = try? PNGCodec.encode(Pixmap(copying: image)) else { return "radar frame decode: no frame" }
        var times: [Double] = []
        for _ in 0..<15 {
            let s = Clock.now()
            guard let decoded = try? RadarImage.decode(png, name: "bench", size: (image.width, image.height)) else { return "radar frame decode: failed" }
            _ = RadarFeed.frame(decoded)
            times.append((Clock.now() - s) * 1000)
        }
        nightmap_release_free_memory()      // (as the live feed does after fetching frames)
        times.sort()
        return String(format: "radar frame decode + indices + clear runs (%dx%d PNG, %d KB): median %.1f ms", image.width, image.height, png.count / 1024, times[times.count / 2])
    }

    /// What preparing a vector tile costs on a loader thread (reading it from the archive,
    /// inflating, decoding the MVT, projecting and cutting it to its square): the median over
    /// every tile of the zooms given, each prepared 3 times.
    static func tilePrepareLine(_ archive: String, zooms: ClosedRange<Int>, label: String) -> String {
        guard let reader = try? PMTiles(path: archive) else { return "tile prepare (\(label)): cannot open \(archive)" }
        var times: [Double] = [], count = 0
        // Only the tiles within the archive's bounds (zoom 16 has four billion).
        let (west, south, east, north) = reader.header.bounds
        func cell(_ v: Double, _ n: Int) -> Int { min(n - 1, max(0, Int((min(max(v, 0), 1) * Double(n)).rounded(.down)))) }
        func column(_ lon: Double, _ n: Int) -> Int { cell(WebMercator.x(lng: lon), n) }
        func row(_ lat: Double, _ n: Int) -> Int { cell(WebMercator.y(lat: lat), n) }
        for z in zooms {
            let n = 1 << z
            let (x0, x1) = (column(west, n), column(east, n)), (y0, y1) = (row(north, n), row(south, n))
            for x in min(x0, x1)...max(x0, x1) {
                for y in min(y0, y1)...max(y0, y1) {
                    guard let id = TileID(z: z, x: x, y: y), (try? reader.rawTile(id)) ?? nil != nil else { continue }
                    count += 1
                    for _ in 0..<3 {
                        let s = Clock.now()
                        guard let data = try? reader.tile(id), (try? TileDecoder.content(data, tile: id, kind: .vector, name: label)) != nil else { break }
                        times.append((Clock.now() - s) * 1000)
                    }
                }
            }
        }
        guard !times.isEmpty else { return "tile prepare (\(label)): no tiles" }
        times.sort()
        return String(format: "tile prepare (%@, %d tiles of zooms %d-%d): median %.2f ms, max %.2f ms", label, count, zooms.lowerBound, zooms.upperBound,
                      times[times.count / 2], times.last ?? 0)
    }

    /// This process's resident memory (VmRSS) in MB.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }
}

/// Monotonic time in seconds.
enum Clock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// When this process started, on the same clock (from /proc; 10 ms resolution), or nil.
    static func processStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Field 22 of the whole line is starttime; fields here start at field 3.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        let sinceBoot = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        return now() - (sinceBoot - ticks / hz)
    }
}
