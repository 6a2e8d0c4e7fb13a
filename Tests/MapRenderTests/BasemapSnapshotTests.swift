import Foundation
import MapCore
import MapData
@testable import MapRender
import Raster
import Testing
import TestSupport

/// Snapshots of the real bundled basemap, as nightmap's own map draws it: the basemap layers of
/// `Resources/style/nightmap.json` (its background and the layers on the basemap's vector tiles,
/// `Resources/basemap/basemap.pmtiles`), pixels at known places in the colours that document gives.
@Suite struct BasemapSnapshotTests {
    static let document: StyleDocument = {
        do {
            let path = try ResourceLocator.resourcesDirectory().appendingPathComponent("style/nightmap.json").path
            var d = try StyleLoader.readDocument(path: path)
            d.layers = d.layers.filter { $0.type == .background || $0.source == "basemap" }
            return d
        } catch { fatalError("\(error)") }
    }()

    static let style: Style = {
        do {
            let resources = try ResourceLocator.resourcesDirectory()
            let resolver = ResourceResolver(styleDirectory: resources.appendingPathComponent("style"), assets: nil)
            return try StyleLoader.style(for: document, resolver: resolver, skipping: Set(document.sources.keys).subtracting(["basemap"]))
        } catch { fatalError("\(error)") }
    }()

    /// The document's colour of a layer (`fill-color`, `background-color`).
    static func colour(_ id: String) -> Color {
        guard let layer = document.layers.first(where: { $0.id == id }),
              let c = (layer.paint["fill-color"] ?? layer.paint["background-color"])?.constant?.asColor else { fatalError("no colour for \(id)") }
        return c
    }

    /// The basemap's colours as nightmap.json writes them.
    enum Palette {
        static let ocean = BasemapSnapshotTests.colour("background")
        static let land = BasemapSnapshotTests.colour("land")
        static let lake = BasemapSnapshotTests.colour("lakes")
    }

    /// The basemap at `camera`, the model made at `start` within `bounds` (the weather example's).
    func render(_ camera: CameraState, start: CameraState = weatherCamera, bounds: CameraBounds = weatherBounds,
                size: ViewportSize = ViewportSize(width: 1280, height: 800)) -> (Pixmap, ViewTransform) {
        var model = MapModel(style: Self.style, size: size, camera: start, bounds: bounds)
        model.jump(to: camera)
        model.loadWantedTiles(now: 0)
        let pm = Pixmap(width: size.width, height: size.height)
        FrameRenderer().render(model.frame(), into: pm)
        return (pm, model.camera.view)
    }

    /// Passing over blocks of edges that lie off screen changes no pixel: the basemap's layers
    /// (each drawn as one geometry set) with the usual blocks (16 edges) and with blocks of 1,000
    /// equal them drawn edge by edge (blocks of one), at cameras from the whole world to zoom 7.9,
    /// across the antimeridian, whole and in two bands.
    @Test func passingOverOffScreenBlocksChangesNoPixel() {
        func rebuilt(_ frame: FrameDescription, _ length: Int?) -> FrameDescription {
            length.map { Self.reblocked(frame, $0) } ?? frame
        }
        let size = ViewportSize(width: 640, height: 360)
        let cameras = [(-75.0, 42.0, 5.0), (179.5, 10, 2), (-100, 40, 3.3), (-71, 43, 6.2), (10, 50, 4), (-74, 40.7, 7.9), (0, 0, 0.5),
                       (-178, 52, 4.6), (-84, 45, 5.9)]
        var differing: [String] = []
        for (lng, lat, zoom) in cameras {
            var images: [[UInt32]] = []
            var model = MapModel(style: Self.style, size: size, camera: weatherCamera, bounds: weatherBounds)
            model.setCameraBounds(CameraBounds(minZoom: 0, maxZoom: 8))
            model.jump(to: CameraState(center: LngLat(lng: lng, lat: lat), zoom: zoom))
            model.loadWantedTiles(now: 0)
            let drawn = model.frame()
            let sets = drawn.layers.compactMap { l -> GeometrySet? in
                switch l.content {
                case let .fill(.uniform(g, _)), let .line(.uniform(g, _)): return g
                default: return nil
                }
            }
            // (The state borders start at zoom 3.)
            #expect(sets.count == (zoom >= 3 ? 5 : 4) && sets.allSatisfy { $0.blockLength == 16 },
                    "z\(zoom): every basemap layer is drawn as one geometry set")
            for length in [1, nil, 1000] {
                let frame = rebuilt(drawn, length)
                images.append(contentsOf: BasemapSnapshotTests.wholeAndBanded(frame, size))
            }
            for k in 2..<images.count where images[k] != images[k % 2] { differing.append("(\(lng), \(lat)) z\(zoom) style \(k / 2)\(k % 2 == 1 ? " banded" : "")") }
        }
        #expect(differing.isEmpty, "\(differing)")
    }

    /// The pixels of `frame` drawn whole, then of it drawn in two bands (rows 0..<137 and the
    /// rest), each by a renderer of its own.
    static func wholeAndBanded(_ frame: FrameDescription, _ size: ViewportSize) -> [[UInt32]] {
        let whole = Pixmap(width: size.width, height: size.height), banded = Pixmap(width: size.width, height: size.height)
        FrameRenderer().render(frame, into: whole)
        FrameRenderer().render(frame, into: banded, rows: 0..<137)
        FrameRenderer().render(frame, into: banded, rows: 137..<size.height)
        return [whole, banded].map { Array(UnsafeBufferPointer(start: $0.pixels, count: size.width * size.height)) }
    }

    /// `frame` with its geometry sets' blocks of edges `length` long (what is passed over off
    /// screen a block at a time).
    static func reblocked(_ frame: FrameDescription, _ length: Int) -> FrameDescription {
        let layers = frame.layers.map { l -> FrameDescription.DrawLayer in
            func blocked(_ g: GeometrySet) -> GeometrySet {
                GeometrySet(name: g.name, kind: g.kind, levels: g.levels, chunks: g.chunks, partOffsets: g.partOffsets,
                            partLengths: g.partLengths, points: g.points, blockLength: length)
            }
            switch l.content {
            case let .fill(.uniform(g, p)): return .init(id: l.id, .fill(.uniform(blocked(g), p)))
            case let .line(.uniform(g, p)): return .init(id: l.id, .line(.uniform(blocked(g), p)))
            default: return l
            }
        }
        return FrameDescription(view: frame.view, layers: layers, markers: frame.markers, overlay: frame.overlay)
    }

    func color(_ pm: Pixmap, _ v: ViewTransform, lng: Double, lat: Double) -> RGBA8 {
        let p = v.screen(LngLat(lng: lng, lat: lat))
        let x = Int(p.x), y = Int(p.y)
        guard x >= 0, y >= 0, x < pm.width, y < pm.height else {
            Issue.record("(\(lng), \(lat)) is off screen at \(x), \(y)")
            return RGBA8(0, 0, 0, 0)
        }
        return pm.color(atX: x, y: y)
    }

    func rgba(_ c: Color) -> RGBA8 { let b = c.bytes; return RGBA8(b.r, b.g, b.b, b.a) }

    func luminance(_ c: RGBA8) -> Int { Int(c.r) + Int(c.g) + Int(c.b) }

    @Test func defaultViewShowsWaterLandAndBorders() throws {
        let (pm, v) = render(weatherCamera)
        let land = rgba(Palette.land), lake = rgba(Palette.lake), ocean = rgba(Palette.ocean)
        // The Great Lakes read as water at zoom 5.
        #expect(color(pm, v, lng: -81.2, lat: 42.2) == lake, "Lake Erie")
        #expect(color(pm, v, lng: -77.9, lat: 43.6) == lake, "Lake Ontario")
        #expect(color(pm, v, lng: -87.0, lat: 43.5) == lake, "Lake Michigan")
        // Central Pennsylvania and the Adirondacks are land; the Atlantic is ocean.
        #expect(color(pm, v, lng: -77.5, lat: 40.8) == land, "Pennsylvania")
        #expect(color(pm, v, lng: -74.3, lat: 44.0) == land, "New York")
        #expect(color(pm, v, lng: -70.0, lat: 38.0) == ocean, "Atlantic")
        // The Pennsylvania - New York line (42 N) is drawn: brighter than land somewhere along it.
        let y = Int(v.screen(LngLat(lng: -77, lat: 42)).y)
        let x0 = Int(v.screen(LngLat(lng: -78.5, lat: 42)).x), x1 = Int(v.screen(LngLat(lng: -76.5, lat: 42)).x)
        var brightest = 0
        for x in x0...x1 { for dy in -1...1 { brightest = max(brightest, luminance(pm.color(atX: x, y: y + dy))) } }
        #expect(brightest > luminance(land) + 40, "state border not drawn (brightest \(brightest))")
        // The US - Canada border runs through Lake Erie, in the country colour.
        let yb = Int(v.screen(LngLat(lng: -81.0, lat: 42.3)).y)
        let xb = Int(v.screen(LngLat(lng: -81.0, lat: 42.3)).x)
        var borderHit = false
        for dy in -25...25 where luminance(pm.color(atX: xb, y: yb + dy)) > luminance(lake) + 120 { borderHit = true }
        #expect(borderHit, "no country border across Lake Erie")
        try GoldenImage.check(pm, named: "radar-default-1280x800", channelTolerance: 6, maxDiffering: 1280 * 800 / 500)
    }

    @Test func everyZoomLevelDrawsFromItsOwnDetail() throws {
        // Zooms 4 to 5.99 (the radar scene's range) use two levels of detail; the same places
        // keep their colours across them.
        for z in [4.0, 4.5, 5.0, 5.99] {
            let (pm, v) = render(CameraState(center: LngLat(lng: -79, lat: 44), zoom: z), size: ViewportSize(width: 640, height: 400))
            // Georgian Bay and Lake Ontario's south side: away from the borders that cross the lakes.
            #expect(color(pm, v, lng: -80.6, lat: 45.0) == rgba(Palette.lake), "Georgian Bay at zoom \(z)")
            #expect(color(pm, v, lng: -77.5, lat: 43.5) == rgba(Palette.lake), "Lake Ontario at zoom \(z)")
            #expect(color(pm, v, lng: -78.0, lat: 42.8) == rgba(Palette.land), "western New York at zoom \(z)")
        }
    }

    @Test func worldCopiesAcrossTheAntimeridian() {
        let world = CameraState(center: LngLat(lng: 180, lat: 66), zoom: 4)
        let (pm, v) = render(world, start: world, bounds: CameraBounds(), size: ViewportSize(width: 512, height: 512))
        let land = rgba(Palette.land)
        // The camera wraps to -180. Chukotka shows on both sides of the antimeridian: east of it
        // from the world itself, west of it (Anadyr, 177 E = -183) from the copy to the left.
        #expect(v.camera.center.lng == -180)
        #expect(color(pm, v, lng: -175, lat: 66.5) == land)
        #expect(color(pm, v, lng: 177 - 360, lat: 65.5) == land)
        #expect(color(pm, v, lng: -174, lat: 62.5) == rgba(Palette.ocean), "Bering Sea")
    }

    @Test func sameCameraSamePixels() {
        let (a, _) = render(weatherCamera, size: ViewportSize(width: 320, height: 200))
        let (b, _) = render(weatherCamera, size: ViewportSize(width: 320, height: 200))
        #expect(memcmp(a.pixels, b.pixels, a.count * 4) == 0)
    }
}

/// Zooms 1 to 8 each draw from a suitable level of detail and show the right things.
@Suite struct ZoomRangeTests {
    static let world = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1)

    @Test(arguments: [
        // zoom, centre, a land point, a water point
        (1.0, LngLat(lng: 0, lat: 20), LngLat(lng: 20, lat: 10), LngLat(lng: -30, lat: 30)),        // Africa, Atlantic
        (2.0, LngLat(lng: -90, lat: 40), LngLat(lng: -100, lat: 40), LngLat(lng: -140, lat: 30)),   // USA, Pacific
        (3.0, LngLat(lng: -80, lat: 42), LngLat(lng: -86.3, lat: 35.6), LngLat(lng: -87, lat: 44)),   // Tennessee, Lake Michigan
        (6.5, LngLat(lng: -79.4, lat: 43.6), LngLat(lng: -79.4, lat: 43.75), LngLat(lng: -79.0, lat: 43.5)),   // Toronto, Lake Ontario
        (8.0, LngLat(lng: -74.0, lat: 40.7), LngLat(lng: -74.3, lat: 40.85), LngLat(lng: -73.6, lat: 40.3)),   // New Jersey, Atlantic
    ])
    func landAndWater(zoom: Double, center: LngLat, land: LngLat, water: LngLat) throws {
        let style = BasemapSnapshotTests.style
        var model = MapModel(style: style, size: ViewportSize(width: 800, height: 500), camera: Self.world, bounds: CameraBounds())
        model.jump(to: CameraState(center: center, zoom: zoom))
        model.loadWantedTiles(now: 0)
        let pm = Pixmap(width: 800, height: 500)
        FrameRenderer().render(model.frame(), into: pm)
        let v = model.camera.view
        func at(_ p: LngLat) -> RGBA8 {
            let s = v.screen(p)
            return pm.color(atX: Int(s.x), y: Int(s.y))
        }
        let l = BasemapSnapshotTests.Palette.land.bytes, o = BasemapSnapshotTests.Palette.ocean.bytes, k = BasemapSnapshotTests.Palette.lake.bytes
        #expect(at(land) == RGBA8(l.r, l.g, l.b), "zoom \(zoom): \(land) should be land")
        let w = at(water)
        #expect(w == RGBA8(o.r, o.g, o.b) || w == RGBA8(k.r, k.g, k.b), "zoom \(zoom): \(water) should be water, got \(w)")
        if let dir = ProcessInfo.processInfo.environment["NIGHTMAP_SNAPSHOT_DIR"] {
            try PNGCodec.write(pm, to: "\(dir)/zoom-\(zoom).png")
        }
    }
}

/// Drawing in bands on several threads gives the frame one thread draws.
@Suite struct ParallelRendererTests {
    /// The basemap with the place labels (placed once per frame for all bands).
    static let labelled: Style = {
        do {
            let resources = try ResourceLocator.resourcesDirectory()
            var document = try StyleLoader.readDocument(path: resources.appendingPathComponent("style/nightmap.json").path)
            document.layers = document.layers.filter { $0.type == .background || $0.source == "basemap" || $0.source == "places" }
            let resolver = ResourceResolver(styleDirectory: resources.appendingPathComponent("style"), assets: nil)
            var style = try StyleLoader.style(for: document, resolver: resolver, skipping: Set(document.sources.keys).subtracting(["basemap", "places"]))
            try BundledAssets.add(to: &style, resources: resources)
            return style
        } catch { fatalError("\(error)") }
    }()

    @Test(arguments: [2, 3, 7])
    func bandsMatchOneThread(threads: Int) {
        var model = MapModel(style: Self.labelled, size: ViewportSize(width: 640, height: 401), camera: weatherCamera, bounds: weatherBounds)
        model.jump(to: CameraState(center: LngLat(lng: -76, lat: 42), zoom: 5.3))
        model.loadWantedTiles(now: 0)
        let a = Pixmap(width: 640, height: 401), b = Pixmap(width: 640, height: 401)
        let parallel = ParallelRenderer(threads: threads)
        // A few moving frames first, so that the bands are cut where the work is, not evenly.
        for k in 0..<4 {
            var moving = model
            moving.jump(to: CameraState(center: LngLat(lng: -76 + Double(k), lat: 42), zoom: 5.3))
            moving.loadWantedTiles(now: 0)
            parallel.render(moving.frame(), into: b)
        }
        // Back to the view, and still long enough for its labels to settle (both renderers draw
        // them exactly).
        _ = model.frame()
        model.advance(to: 1)
        FrameRenderer().render(model.frame(), into: a)
        parallel.render(model.frame(), into: b)
        let bands = parallel.bands
        parallel.render(model.frame(), into: b)        // again, through the band caches
        #expect(parallel.bands == bands, "a still camera moved the cuts")
        #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == 401 && bands.count == threads)
        #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound } && bands.allSatisfy { $0.count >= ParallelRenderer.minimumRows })
        var worst = 0, differing = 0
        for i in 0..<a.count where a.pixels[i] != b.pixels[i] {
            differing += 1
            for s in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int(a.pixels[i] >> UInt32(s) & 255) - Int(b.pixels[i] >> UInt32(s) & 255)))
            }
        }
        // Edges cut at a band boundary may round their crossing differently by 1/256 px.
        #expect(worst <= 3, "worst channel difference \(worst) over \(differing) pixels")
        #expect(differing < 640 * threads, "\(differing) pixels differ")
    }

    /// The cuts move halfway towards an equal share of the time, each band's time spread over
    /// its rows; bands keep their minimum, and times that say nothing move nothing.
    @Test func cutsMoveHalfwayTowardsAnEqualShareOfTime() {
        func moved(_ cuts: [Int], _ seconds: [Double]) -> [Int] {
            var c = cuts, scratch = cuts
            seconds.withUnsafeBufferPointer { ParallelRenderer.rebalance(&c, seconds: $0, scratch: &scratch) }
            return c
        }
        #expect(moved([0, 360, 720], [3, 1]) == [0, 300, 720])           // equal at 240: halfway there
        #expect(moved([0, 360, 720], [1, 1]) == [0, 360, 720])
        #expect(moved([0, 100, 200, 300], [0, 0, 3]) == [0, 166, 233, 300])
        #expect(moved([0, 360, 720], [1, 0]) == [0, 270, 720])
        #expect(moved([0, 10, 20], [1, 0]) == [0, 8, 20])                  // not past the first band's minimum (7 halfway)
        #expect(moved([0, 360, 720], [.nan, 1]) == [0, 360, 720])
        #expect(moved([0, 360, 720], [0, 0]) == [0, 360, 720])
    }

    /// While the symbols are being placed for a frame (announced by `willPlace`), a band that
    /// reaches a symbol layer waits for them instead of reading the last frame's.
    @Test func bandsWaitForTheLabelsBeingPlaced() throws {
        var model = MapModel(style: Self.labelled, size: ViewportSize(width: 640, height: 401), camera: weatherCamera, bounds: weatherBounds)
        model.jump(to: CameraState(center: LngLat(lng: -76, lat: 42), zoom: 5.3))
        model.loadWantedTiles(now: 0)
        let frame = model.frame()
        // The symbol layer with the most labels (the cities).
        let all = SymbolPlacement.labels(frame)
        func count(_ i: Int) -> Int { all[frame.layers[i].id]?.count ?? 0 }
        let layer = try #require(frame.layers.indices.filter { frame.layers[$0].symbols != nil }.max { count($0) < count($1) })
        let placement = SymbolPlacement()
        placement.willPlace()
        let read = ReadBox()
        let reader = Thread { read.set(placement.symbols(layer: layer).count) }
        reader.start()
        // (Generous bounds: on a loaded host the reader's thread may wait long for a core.)
        #expect(placement.waitForWaitingReaders(1, timeout: 20), "the reader did not wait for the placement")
        #expect(read.value == nil, "labels were read before they were placed")
        placement.place(frame)
        #expect(read.wait(timeout: 20) == count(layer), "the reader got other labels")
        #expect(count(layer) > 0)
    }
}

/// A value one thread sets and another reads or waits for.
private final class ReadBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: Int?
    var value: Int? { condition.lock(); defer { condition.unlock() }; return stored }
    func set(_ v: Int) { condition.lock(); stored = v; condition.broadcast(); condition.unlock() }

    /// The value once set, waiting at most `timeout` seconds for it (nil if it is not set by then).
    func wait(timeout: Double) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while stored == nil && condition.wait(until: deadline) {}
        return stored
    }
}

