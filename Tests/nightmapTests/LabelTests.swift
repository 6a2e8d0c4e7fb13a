import Foundation
import NightmapApp
import MapCore
import MapData
@testable import MapRender
import Raster
import Testing
import TestSupport
@testable import nightmap

/// Place labels: the expected cities at the default camera, text in the pixels, no overlaps
/// anywhere, the same placement for the same camera, clear of the ISS icon.
@Suite struct LabelTests {
    static func model(_ extra: [String] = []) throws -> MapApp {
        try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--time", "2025-10-01T12:00:00Z"] + extra))
    }

    @Test func theNortheastsCitiesArePlacedAtZoom5() throws {
        let names = Set(Headless.placedLabels(try Self.model()).map(\.text))
        for city in ["New York City", "Boston", "Philadelphia", "Washington", "Toronto", "Montréal", "Ottawa", "Pittsburgh", "Buffalo", "Albany"] {
            #expect(names.contains(city), "\(city) is not placed (placed: \(names.sorted().prefix(40)))")
        }
    }

    /// Parts of a city (boroughs, sections, suburbs a few pixels from a much larger
    /// place) are no city labels where that place is labelled. At the default camera none of
    /// these (all placed there once) is; the boroughs and sections not in the radar scene's
    /// whole zoom range either.
    @Test func partsOfCitiesAreNotPlacedAtZoom5() throws {
        var model = try Self.model()
        let names = Set(Headless.placedLabels(model).map(\.text))
        for part in ["Germantown", "Saint-Louis-de-Terrebonne", "La Haute-Saint-Charles", "Staten Island", "Kanata"] {
            #expect(!names.contains(part), "\(part) is placed at zoom 5")
        }
        let center = model.camera.state.center
        for zoom in [4.0, 4.5, 5.5, 5.99] {
            model.jump(to: CameraState(center: center, zoom: zoom))
            let names = Set(Headless.placedLabels(model).map(\.text))
            for part in ["Saint-Louis-de-Terrebonne", "La Haute-Saint-Charles", "Staten Island", "Kanata"] {
                #expect(!names.contains(part), "\(part) is placed at zoom \(zoom)")
            }
        }
        // In the data: New York City's boroughs and a GeoNames PPLX start at zoom 9 or more.
        for (part, lng, lat) in [("Brooklyn", -73.9, 40.7), ("Queens", -73.9, 40.7), ("Manhattan", -73.9, 40.7), ("The Bronx", -73.9, 40.7),
                                 ("Staten Island", -73.9, 40.7), ("La Haute-Saint-Charles", -71.4, 46.9)] {
            let place = try Self.place(part, near: lng, lat)
            #expect(place.minZoom >= 9, "\(part) starts at zoom \(place.minZoom)")
        }
    }

    /// A city of Resources/places/places.tsv: its rank and minimum zoom.
    struct City { let rank: Double, minZoom: Double }

    /// The city of this name within a degree of (lng, lat) in Resources/places/places.tsv.
    static func place(_ name: String, near lng: Double, _ lat: Double) throws -> City {
        let places = try Places.read(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("places/places.tsv").path)
        let p = WebMercator.project(LngLat(lng: lng, lat: lat))
        let degree = 1.0 / 360      // (a degree of longitude in Mercator x; near enough for latitude here)
        let found = places.features.first { f in
            let props = f.evaluation.properties
            return props["name"] == .string(name) && props["kind"] == .string("city")
                && abs(f.geometry.coordinates[0] - p.x) < degree && abs(f.geometry.coordinates[1] - p.y) < 1.5 * degree
        }
        let city = try #require(found, "\(name) is not in places.tsv").evaluation.properties
        return City(rank: city["rank"]?.asNumber ?? 0, minZoom: city["minzoom"]?.asNumber ?? 0)
    }

    /// Capitals and administrative seats are placed first: Lansing, Michigan's capital, ranks
    /// above the larger Ann Arbor (which, placed first, took Lansing's space at the default camera).
    @Test func aCapitalWinsOverALargerNeighbour() throws {
        #expect(try Self.place("Lansing", near: -84.6, 42.7).rank > Self.place("Ann Arbor", near: -83.7, 42.3).rank)
        let names = Set(Headless.placedLabels(try Self.model()).map(\.text))
        #expect(names.contains("Lansing") && names.contains("Ann Arbor"), "placed: \(names.sorted())")
    }

    @Test func pixelsInsideLabelBoxesShowText() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Headless.snapshot(try Options.parse(["snapshot", "--radar", "demo", "-o", out, "--iss", "tle", "--time", "2025-10-01T12:00:00Z", "--elapsed", "0.9"]))
        let pm = try PNGCodec.read(path: out)
        let labels = Headless.placedLabels(try Self.model(["--elapsed", "0.9"]))
        for l in labels where ["Boston", "Pittsburgh", "Buffalo", "Albany"].contains(l.text) {
            // Light text pixels (the text colour is near white) inside the box.
            var bright = 0
            for y in Int(l.box.minY)..<Int(l.box.maxY) {
                for x in Int(l.box.minX)..<Int(l.box.maxX) {
                    let c = pm.color(atX: x, y: y)
                    if Int(c.r) + Int(c.g) + Int(c.b) > 600 { bright += 1 }
                }
            }
            #expect(bright > 20, "\(l.text): \(bright) bright pixels")
        }
    }

    @Test func noTwoLabelsOverlapAcross200Cameras() throws {
        var model = try Self.model()
        var rng = SystemRandomNumberGenerator()
        var total = 0
        for _ in 0..<200 {
            let c = CameraState(center: LngLat(lng: Double.random(in: -100 ... -60, using: &rng), lat: Double.random(in: 25...55, using: &rng)),
                                zoom: Double.random(in: 4...5.99, using: &rng))
            model.jump(to: c)
            let labels = Headless.placedLabels(model)
            total += labels.count
            for i in labels.indices {
                for j in labels.indices where j > i {
                    #expect(!labels[i].box.intersects(labels[j].box), "\(labels[i].text) overlaps \(labels[j].text) at \(c)")
                }
                // (Within MapLibre's 100-px padding around the window: a label may be cut by its edge.)
                let b = labels[i].box
                #expect(b.maxX >= -100 && b.maxY >= -100 && b.minX < 1380 && b.minY < 900)
            }
        }
        #expect(total > 200 * 10)
    }

    /// A 2560x1440 view holds more label pixels than the mask cache's budget (centred on Ohio,
    /// where the labels are denser than at the default centre since parts of cities have none).
    /// Panning brings new labels in, and making room for them must not drop the masks of labels
    /// still on screen (that made every frame rasterize them all again: 62 M instead of 42 M
    /// instructions a frame in `bench --scenario 1080p`).
    @Test func labelsOnScreenStayCachedBeyondTheBudget() throws {
        var model = try Self.model(["--size", "2560x1440", "--center=40,-82"])
        model.advance(to: 0.5)
        let renderer = FrameRenderer()
        let pm = Pixmap(width: 2560, height: 1440)
        renderer.render(model.frame(), into: pm)
        #expect(renderer.labels.maskBytes > LabelSprites.budget, "the view's labels fit the budget: \(renderer.labels.maskBytes) bytes")
        let before = renderer.labels.maskCache.mapValues(ObjectIdentifier.init)
        model.apply(.pan(dx: -300, dy: 0), now: 0.5)
        model.advance(to: 0.6)
        renderer.render(model.frame(), into: pm)
        let after = renderer.labels.maskCache.mapValues(ObjectIdentifier.init)
        #expect(after.count > before.count, "no new label came in")
        let kept = before.filter { after[$0.key] == $0.value }.count
        let redone = before.filter { after[$0.key] != nil && after[$0.key] != $0.value }.map(\.key)
        #expect(redone.isEmpty, "rasterized again: \(redone.prefix(10))")
        #expect(kept > 0)
    }

    /// While the view moves, labels are drawn at whole pixels from the masks made when they came
    /// into view: a pan by fractions of a pixel shades no glyph again. Once the view has stood
    /// still for `ViewMotion.settleDelay` (0.15 s of the model's clock) the frame says so, and
    /// its labels are shaded again at their fraction of a pixel, once.
    @Test func aPanShadesNoGlyphAfterItsFirstFrameAndSettlingShadesThemOnce() throws {
        var model = try Self.model()
        model.advance(to: 0.5)
        let renderer = FrameRenderer()
        let pm = Pixmap(width: model.camera.size.width, height: model.camera.size.height)
        renderer.render(model.frame(), into: pm)
        var t = 0.5
        func pan(_ dx: Double) {
            model.apply(.pan(dx: dx, dy: 0.37), now: t)
            t += 0.016
            model.advance(to: t)
            renderer.render(model.frame(), into: pm)
        }
        // (Back and forth, so that no label comes in at the edges after the first two frames.)
        pan(3.3); pan(-3.3)
        let first = renderer.glyphsShaded
        for i in 0..<8 { pan(i % 2 == 0 ? 3.3 : -3.3) }
        #expect(renderer.glyphsShaded == first, "a moving frame shaded \(renderer.glyphsShaded - first) glyphs")
        #expect(model.frame().layers.compactMap(\.symbols).allSatisfy { !$0.settled })
        #expect(model.model.labelsSettleAt.map { abs($0 - (t + 0.15)) < 1e-9 } == true)
        model.advance(to: t + 0.15)
        let settled = model.frame()
        #expect(settled.layers.compactMap(\.symbols).allSatisfy { $0.settled })
        renderer.render(settled, into: pm)
        #expect(renderer.glyphsShaded > first, "settling drew no label exactly")
        let once = renderer.glyphsShaded
        renderer.render(model.frame(), into: pm)
        #expect(renderer.glyphsShaded == once)
    }

    /// A description handed back is refilled in place: the next frame lives in its storage and
    /// equals one described afresh (the run loop and the bench allocate nothing for it then).
    @Test func aRecycledFrameDescriptionReusesItsStorage() throws {
        var model = try Self.model()
        model.advance(to: 0.5)
        var spare: FrameDescription? = model.frame()
        let storage = spare?.layers.withUnsafeBufferPointer { $0.baseAddress }
        model.apply(.pan(dx: 40, dy: 0), now: 0.5)
        model.advance(to: 0.6)
        let frame = model.frame(recycling: &spare)
        #expect(spare == nil)
        #expect(storage != nil && frame.layers.withUnsafeBufferPointer { $0.baseAddress } == storage)
        #expect(frame == model.frame())
        #expect(frame.layers.contains { $0.symbols?.context.avoid.isEmpty == false })
    }

    @Test func theSameCameraGivesTheSamePlacement() throws {
        let a = Headless.placedLabels(try Self.model(["--center=40.5,-74.5", "--zoom", "5.4"]))
        let b = Headless.placedLabels(try Self.model(["--center=40.5,-74.5", "--zoom", "5.4"]))
        #expect(a == b && !a.isEmpty)
    }

    @Test func labelsKeepClearOfTheIssIcon() throws {
        // The ISS scene following at zoom 3: its icon is at the centre of the window.
        let model = try MapSetup.model(try Options.parse(["state", "--radar", "demo", "--scene", "iss", "--iss", "tle", "--time", "2025-10-01T12:00:00Z", "--elapsed", "15"]))
        let frame = model.frame()
        let avoid = frame.layers.compactMap { $0.symbols?.context.avoid.first }.first
        let box = try #require(avoid, "no ISS box given to the labels")
        for l in Headless.placedLabels(model) {
            #expect(!l.box.intersects(box), "\(l.text) overlaps the ISS icon")
        }
    }

    @Test func stateListsThePlacedLabels() throws {
        let json = try JSON.parse(try Headless.state(try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--tle-url", "none", "--alerts-url", "none"])), name: "state")
        let labels = try #require(json["labels"]?.arrayValue)
        #expect(labels.contains { $0["text"] == .string("Boston") && $0["box"]?.numbersValue?.count == 4 })
    }

    /// Text set by the glyph engine from nightmap's DejaVu Sans at 13 and 32 px (the overlay's
    /// font: shaped, shaded from the glyphs' fields), against its reference image.
    @Test func glyphsAtTwoSizes() throws {
        let font = BundledAssets.overlayFont(BundledAssets.localGlyphs(resources: try ResourceLocator.resourcesDirectory()))
        let pm = Pixmap(width: 320, height: 96)
        pm.clear(RGBA8(11, 16, 22).premultiplied)
        let labels = LabelSprites()
        let target = RenderTarget(pixmap: pm, rows: 0..<96)
        for (size, baseline) in [(13.0, 24.0), (32.0, 76.0)] {
            labels.draw("Montréal Ag&0", font: font, size: size, haloWidth: 0, halo: PremultipliedColor(packed: 0),
                        text: RGBA8(230, 236, 244).premultiplied, at: Point(8, baseline), frame: 0, target)
        }
        try GoldenImage.check(pm, named: "glyphs-sdf-13-32", channelTolerance: 8, maxDiffering: 10)
    }
}

/// The overlay in pixels: attribution bottom right, status bottom left, help in the middle.
@Suite struct OverlaySnapshotTests {
    func snapshot(_ extra: [String] = []) throws -> Pixmap {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Headless.snapshot(try Options.parse(["snapshot", "--radar", "demo", "-o", out, "--iss", "tle", "--time", "2025-10-01T12:00:00Z"] + extra))
        return try PNGCodec.read(path: out)
    }

    func bright(_ pm: Pixmap, _ xs: Range<Int>, _ ys: Range<Int>) -> Int {
        var n = 0
        for y in ys { for x in xs { let c = pm.color(atX: x, y: y); if Int(c.r) + Int(c.g) + Int(c.b) > 600 { n += 1 } } }
        return n
    }

    @Test func attributionAndStatusAreAlwaysThere() throws {
        let pm = try snapshot()
        // (Text shaded from glyph fields at 11 px has few wholly bright pixels: 70 here.)
        #expect(bright(pm, 1000..<1275, 780..<798) > 40, "no attribution text")
        #expect(bright(pm, 5..<300, 780..<798) > 100, "no status text")
        let model = try MapSetup.model(try Options.parse(["state", "--iss", "tle", "--radar", "demo"]))
        #expect(model.model.attribution.contains("GeoNames") && model.model.attribution.contains("synthetic demo data"))
        // The live radar, before its first frames: who makes them.
        let live = try MapSetup.model(try Options.parse(["state", "--iss", "tle"]))
        #expect(live.model.attribution.contains("radar: IEM NEXRAD") && !live.model.attribution.contains("synthetic"))
        let own = try MapSetup.model(try Options.parse(["state", "--iss", "tle", "--radar", URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../MapDataTests/Fixtures/gif/ok_01_single_global.gif").path]))
        #expect(!own.model.attribution.contains("synthetic"))
    }
}

/// Labels in eight scripts from a style without glyph ranges: every one placed and drawn from
/// installed fonts (Noto, WenQuanYi Micro Hei), Arabic joined and right to left, Devanagari
/// shaped by HarfBuzz (the vowel sign i before its consonant), nothing left as a box.
@Suite struct ScriptLabelTests {
    static let style = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/scripts.json").path

    @Test func everyScriptIsSetFromInstalledFonts() throws {
        let model = try MapSetup.model(try Options.parse(["state", "--style", Self.style, "--size", "1000x560"]))
        let labels = SymbolPlacement.labels(model.frame())["names"] ?? []
        let names = ["Paris · Île-de-France", "กรุงเทพมหานคร", "القاهرة", "नई दिल्ली", "北京市", "서울특별시", "ភ្នំពេញ", "နေပြည်တော်"]
        #expect(Set(labels.map(\.string)) == Set(names))
        for label in labels {
            let inked = label.shaped.glyphs.filter { !$0.glyph.bitmap.isEmpty }
            // (Every character but the spaces has ink: none was missing from the fonts.)
            let characters = label.string.unicodeScalars.filter { $0 != " " }.count
            #expect(!inked.isEmpty, "\(label.string): nothing drawn")
            if label.string == "Paris · Île-de-France" || label.string == "北京市" || label.string == "서울특별시" {
                #expect(inked.count == characters, "\(label.string): \(inked.count) of \(characters) drawn")
            }
        }
        // Arabic: presentation forms in visual order. The first glyph drawn is the last letter, ة,
        // isolated (U+FE93) as ر before it does not join forward; ه between ا and ر initial (U+FEEB).
        let cairo = try #require(labels.first { $0.string == "القاهرة" })
        #expect(cairo.shaped.glyphs.first?.glyph.codePoint == 0xFE93)
        #expect(cairo.shaped.glyphs.contains { $0.glyph.codePoint == 0xFEEB })
        // Devanagari: "दि" shaped as a cluster, the sign i (drawn first) before its consonant.
        let delhi = try #require(labels.first { $0.string == "नई दिल्ली" })
        #expect(delhi.shaped.glyphs.count < "नई दिल्ली".unicodeScalars.count, "not shaped: one glyph per character")
    }
}
