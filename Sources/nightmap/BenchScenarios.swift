import Foundation
import MapCore
import NightmapApp
import Raster

extension Headless {
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
        /// The world's weather: the radar frames placed as this tile mosaic (as RainViewer's are),
        /// and this many clouds frames of the same size below them (opaque infrared greys).
        var weather: (mosaic: TileMosaic, clouds: Int)? = nil
        /// The GeoJSON file `NIGHTMAP_BENCH_GEOJSON` names drawn on top (skipped without one).
        var geojson = false
        /// The camera's pitch (nil: the scene's; `--pitch` wins) and the street map's buildings
        /// (nil: as they are).
        var pitch: Double? = nil
        var buildings: BuildingsMode? = nil
        /// Drawn on the globe (false: the scene's projection).
        var globe = false
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
        // The same on the globe (issue 43: under twice `world`): the world basemap, day and night
        // and the ISS's footprint, track and orbit on the sphere.
        Scenario(name: "globe", bounds: CameraBounds(minZoom: 0, maxZoom: 8), globe: true) { i, n, _, _ in
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
        // The same tilted to 60 degrees with the buildings raised (issue 42: under twice `streets`).
        Scenario(name: "streets-3d", scene: "streets", pitch: 60, buildings: .threeD) { i, n, home, _ in
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
        // The bench's 50 MB GeoJSON file (tools/bench-geojson.py) at zoom 7, all of it in view,
        // panning about 1 by 0.3 degrees over New York state.
        Scenario(name: "geojson", bounds: CameraBounds(minZoom: 0, maxZoom: 22), geojson: true) { i, n, _, _ in
            let t = Double(i) / Double(n) * 2 * Double.pi
            return CameraState(center: LngLat(lng: -75.5 + 0.5 * sin(t), lat: 42.4 + 0.15 * sin(2 * t)), zoom: 7)
        },
        // The camera still while twelve time-stamped 1200x1100 radar frames swap at 60 frames a
        // second (a live loop stepped every frame).
        Scenario(name: "radar-live", frameTime: 1.0 / 60, radarFrames: (12, 1200, 1100)) { _, _, home, _ in home },
        // The world's weather as the window animates it: the whole world at zoom 1.5, still, the
        // radar's 13 frames a zoom-3 mosaic of 8 x 5 tiles (2048 x 1280) stepped once a second,
        // 7 clouds frames of the same size below them. A frame's time is the window's CPU per second.
        Scenario(name: "weather-world", frameTime: 1, bounds: CameraBounds(minZoom: 0, maxZoom: 8), radarFrames: (13, 2048, 1280),
                 weather: (TileMosaic(z: 3, x0: 0, y0: 1, columns: 8, rows: 5), 7)) { _, _, _, _ in
            CameraState(center: LngLat(lng: -40, lat: 20), zoom: 1.5)
        },
    ]

    /// The ids of the layers that set text (`text-field`): the bench's scenarios without text hide them.
    static func textLayers(_ style: Style) -> [String] {
        style.layers.compactMap { layer in
            let s = layer.styled
            guard s.definition.type == .symbol, s.definition.layout["text-field"] != nil else { return nil }
            return layer.id
        }
    }

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

    /// `count` clouds frames of `width` x `height` (opaque greys, 64 levels: banded fields that
    /// drift from frame to frame), each serving the radar frames from `times[k * step]` on.
    static func cloudsSeries(count: Int, width: Int, height: Int, times: [Double]) -> RadarSeries {
        let step = max(1, times.count / max(1, count))
        let slots = (0..<count).map { k -> RadarSeries.Slot in
            let image = Pixmap(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let v = sin(Double(x + 9 * k) * 0.013) * cos(Double(y) * 0.021) + 0.5 * sin(Double(x - y) * 0.007)
                    let g = UInt32(max(0, min(63, (v + 1.5) * 21))) * 4
                    image.pixels[y * width + x] = 0xFF00_0000 | g << 16 | g << 8 | g
                }
            }
            let (frame, runs) = RadarFeed.frame(image)
            return .init(time: times.isEmpty ? Double(k) : times[min(times.count - 1, k * step)], status: .ok, image: frame, runs: runs,
                         name: "bench clouds \(k)")
        }
        return RadarSeries(origin: .live, slots: slots, provider: "bench")
    }
}
