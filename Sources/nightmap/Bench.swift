import CAllocCount
import Foundation
import MapCore
import MapData
import MapRender
import NightmapApp
import Raster

extension Headless {
    /// Renders `--frames` frames per scenario and prints a table of frame times and of the heap
    /// allocations made per frame, by the model describing it and by the renderer drawing it.
    static func bench(_ o: Options, startedAt processStart: Double) throws -> String {
        let t0 = Clock.now()
        // `--scenario`: the scenarios named (comma-separated), or all.
        let names = o.scenario.map { Set($0.split(separator: ",").map(String.init)) }
        func selected(_ name: String) -> Bool { names?.contains(name) ?? true }
        var model = try MapSetup.model(o, report: warn)
        // Symbols placed and faded as in the window: a collision pass at most every 0.3 s while
        // the view moves (each frame below advances the map's clock by a 60th of a second).
        model.model.symbolFadeDuration = 0.3
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
                     "scenario (threads)  median ms   p95 ms   max ms   frames/s   allocs/frame: model  render   describe ms   glyphs/frame   place ms   pass ms   passes/frame"]
        for scenario in scenarios where selected(scenario.name) {
            let renderer = ParallelRenderer(threads: scenario.threads)
            if scenario.geojson {
                guard let path = benchGeoJSONPath else { lines.append("\(scenario.name): skipped (NIGHTMAP_BENCH_GEOJSON names no file)"); continue }
                lines.append(try addBenchGeoJSON(&model, path: path))
            }
            defer { if scenario.geojson { removeBenchGeoJSON(&model) } }
            let projection = model.projectionOverride
            if scenario.globe { model.projectionOverride = .globe }
            defer { model.projectionOverride = projection }
            let buildings = model.buildings
            if let b = scenario.buildings { model.setBuildings(b) }
            defer { model.setBuildings(buildings) }
            for id in textLayers(model.style) { model.model.setVisibility(layer: id, scenario.text) }
            for id in [MapApp.nightID, MapApp.subsolarID, MapApp.footprintID, MapApp.footprintEdgeID] where model.style.layers.contains(where: { $0.id == id }) {
                model.model.setVisibility(layer: id, scenario.sky)
            }
            model.overlay.enabled = scenario.text
            let size = scenario.size ?? o.size
            model.apply(.resize(width: size.width, height: size.height), now: model.now)
            let scene = scenario.scene.flatMap { name in model.scenes.first { $0.name == name } }
            model.model.setCameraBounds(scenario.bounds.map { $0.limitingPitch(to: o.maxPitch) } ?? scene?.bounds ?? homeBounds)
            let home = scene.map { $0.startCamera(size: size) } ?? home
            if pixmap.width != size.width || pixmap.height != size.height { pixmap = Pixmap(width: size.width, height: size.height) }
            if let r = scenario.radarFrames, var series = radarSeries(like: model.radar, count: r.count, width: r.width, height: r.height,
                                                                      newest: model.clockOrigin) {
                if let w = scenario.weather { series.placement = (w.mosaic.corners, .linear) }
                model.showRadar(series)
                if let w = scenario.weather {
                    var clouds = cloudsSeries(count: w.clouds, width: r.width, height: r.height, times: series.slots.compactMap(\.time))
                    clouds.placement = (w.mosaic.corners, .linear)
                    model.showClouds(clouds)
                }
                nightmap_release_free_memory()      // (as the live feed does after fetching frames)
                if model.loop.isPlaying { model.apply(.toggleTimer, now: model.now) }
            }
            var times: [Double] = [], describing: [Double] = [], modelAllocs: [UInt64] = [], renderAllocs: [UInt64] = []
            // Label glyphs shaded in the counted frames (after the first: a panning frame's labels come from the cache).
            var glyphs = 0
            // Placing symbols (collision passes and the layouts between them), ms per frame; the
            // passes' own seconds and count.
            var placing: [Double] = [], passSeconds = 0.0, passes = 0
            // The map's clock when the scenario starts (`--elapsed` for the first; the clock never
            // goes back). A scenario without animation time of its own advances the map's clock
            // alone by a 60th of a second a frame (the symbols' fades and the cadence of their
            // collision passes), the demos (pulse, radar, ISS) staying where they are.
            let clockStart = model.model.now
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
                camera.pitch = o.pitch ?? scenario.pitch ?? home.pitch    // (`--pitch`: every scenario tilted)
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
                if scenario.frameTime > 0 {
                    model.advance(to: clockStart + Double(k + 1) * scenario.frameTime)
                } else {
                    model.model.advance(to: clockStart + Double(k + 1) / 60)
                }
                if scenario.radarFrames != nil { model.apply(.stepFrame(1), now: model.now) }
                let frame = model.frame(recycling: &spare)
                let d1 = Clock.now()
                let a1 = nightmap_allocations()
                let g0 = renderer.glyphsShaded
                let placement = renderer.symbolPlacement
                let (p0, q0, n0) = (placement.placeSeconds, placement.passSeconds, placement.passes)
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
                if k > 0 { glyphs += renderer.glyphsShaded - g0 }
                placing.append((placement.placeSeconds - p0) * 1000)
                passSeconds += placement.passSeconds - q0; passes += placement.passes - n0
            }
            times.sort()
            let median = times[times.count / 2]
            medians[scenario.name] = median
            let p95 = times[min(times.count - 1, Int(Double(times.count) * 0.95))]
            func perFrame(_ a: [UInt64]) -> Double { Double(a.reduce(0, +)) / Double(max(1, a.count)) }
            describing.sort(); placing.sort()
            lines.append("\(scenario.name) (\(scenario.threads))".padding(toLength: 18, withPad: " ", startingAt: 0)
                         + String(format: " %7.2f %8.2f %8.2f %10.0f %20.1f %7.1f %13.2f %14.1f %10.2f %9.2f %14.3f", median, p95, times.last ?? 0, 1000 / median,
                                  perFrame(modelAllocs), perFrame(renderAllocs), describing[describing.count / 2],
                                  Double(glyphs) / Double(max(1, times.count - 1)), placing[placing.count / 2],
                                  passes > 0 ? passSeconds * 1000 / Double(passes) : 0, Double(passes) / Double(max(1, times.count))))
        }
        if let g = medians["geojson"], let pan = medians["pan"] {
            lines.append(String(format: "geojson: %.2f times pan (medians)", g / pan))
        }
        for (with, without) in [("pan", "pan-notext"), ("streets", "streets-notext"), ("world", "world-notext")] {
            if let a = medians[with], let b = medians[without] {
                lines.append(String(format: "text: %@ takes %.2f times %@ (medians)", with, a / b, without))
            }
        }
        if let tilted = medians["streets-3d"], let flat = medians["streets"] {
            lines.append(String(format: "tilt: streets-3d takes %.2f times streets (medians)", tilted / flat))
        }
        if let sphere = medians["globe"], let flat = medians["world"] {
            lines.append(String(format: "globe: globe takes %.2f times world (medians)", sphere / flat))
        }
        if let with = medians["pan"], let without = medians["pan-nosky"] {
            lines.append(String(format: "day and night and the footprint: %.2f ms of a pan frame (pan - pan-nosky)", with - without))
        }
        lines.append(String(format: "first frame: %.0f ms after process start (%.0f ms after main: data load and first render)",
                            (firstFrame - processStart) * 1000, (firstFrame - t0) * 1000))
        if selected("streets"), let resources = try? ResourceLocator.resourcesDirectory() {
            lines.append(tilePrepareLine(resources.appendingPathComponent("streets/helsinki.pmtiles").path, zooms: 14...16, label: "streets"))
            lines.append(tilePrepareLine(resources.appendingPathComponent("basemap/basemap.pmtiles").path, zooms: 5...5, label: "basemap"))
        }
        if selected("weather-world") {
            lines.append(String(format: "resident: %.0f MB after weather-world (radar %d frames, clouds %d)", residentMegabytes(),
                                model.radar?.frameSlots.count ?? 0, model.clouds?.frameSlots.count ?? 0))
        }
        if selected("radar-live") {
            lines.append(radarDecodeLine(model))
            lines.append(String(format: "resident: %.0f MB after the scenarios (radar: %d frames)", residentMegabytes(), model.radar?.frameSlots.count ?? 0))
        }
        return lines.joined(separator: "\n")
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
}
