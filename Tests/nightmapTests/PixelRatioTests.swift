import Foundation
import NightmapApp
import MapCore
import MapData
import Raster
import Testing
import TestSupport
@testable import nightmap

/// `--pixel-ratio R`: the same view in R times the pixels: the same ground, lines, text and icons
/// R times as wide, the same camera reported.
@Suite struct PixelRatioTests {
    static func options(_ extra: [String]) throws -> Options {
        try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--time", "2025-10-01T12:00:00Z", "--size", "640x400"] + extra)
    }

    @Test func theSameGroundInTwiceThePixels() throws {
        let one = try MapSetup.model(try Self.options([]))
        let two = try MapSetup.model(try Self.options(["--pixel-ratio", "2"]))
        #expect(two.camera.size == ViewportSize(width: 1280, height: 800) && two.model.pixelRatio == 2)
        #expect(abs(two.camera.state.zoom - (one.camera.state.zoom + 1)) < 1e-12)
        #expect(two.camera.state.center == one.camera.state.center)
        // The scene's bounds move with it, so the zoom range a user has is the same.
        #expect(abs(two.camera.bounds.maxZoom - (one.camera.bounds.maxZoom + 1)) < 1e-12)
        // A point on the map lands on twice its coordinates.
        let p = LngLat(lng: -73.9, lat: 40.7)
        let a = one.camera.view.screen(p), b = two.camera.view.screen(p)
        #expect(abs(b.x - 2 * a.x) < 1e-6 && abs(b.y - 2 * a.y) < 1e-6)
        // Line widths, text and icons in device pixels.
        let f1 = one.frame(), f2 = two.frame()
        for (l1, l2) in zip(f1.layers, f2.layers) {
            if case let .line(.uniform(_, x)) = l1.content, case let .line(.uniform(_, y)) = l2.content {
                #expect(y.width == 2 * x.width, "\(l1.id)")
            }
            // Symbols: text sizes, halos and the icons' scale (the place dots, the rocket).
            for (s1, s2) in zip(l1.symbols?.set.symbols ?? [], l2.symbols?.set.symbols ?? []) {
                if let x = s1.text?.paint, let y = s2.text?.paint {
                    #expect(y.size == 2 * x.size && y.haloWidth == 2 * x.haloWidth, "\(l1.id)")
                }
                if case let .vector(x)? = s1.icon?.image, case let .vector(y)? = s2.icon?.image { #expect(y.scale == 2 * x.scale, "\(l1.id)") }
            }
            // Document layers' features: the route's steps, the ISS track and its rocket.
            for (i1, i2) in zip(l1.lineFeatures?.items ?? [], l2.lineFeatures?.items ?? []) {
                #expect(i2.paint.width == 2 * i1.paint.width, "\(l1.id)")
            }
        }
        #expect(f1.layers.contains { $0.symbols?.set.symbols.contains { if case .vector? = $0.icon?.image, $0.text == nil { true } else { false } } ?? false },
                "the rocket is drawn")
        #expect(f1.layers.contains { $0.symbols?.set.symbols.contains { $0.text != nil } ?? false }, "no labels")
        // The overlay's text.
        func texts(_ f: FrameDescription) -> [OverlayText] { f.overlay?.items.compactMap { if case let .text(t) = $0 { t } else { nil } } ?? [] }
        #expect(!texts(f1).isEmpty && texts(f1).count == texts(f2).count)
        for (x, y) in zip(texts(f1), texts(f2)) { #expect(y.size == 2 * x.size && y.haloWidth == 2 * x.haloWidth, "\(x.text)") }
    }

    @Test func aSnapshotIsTwiceTheSizeAndStateReportsTheStylesZoom() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ratio-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var o = try Self.options(["--pixel-ratio", "2", "--zoom", "5.5"])
        o.command = .snapshot; o.output = out
        try Headless.snapshot(o)
        let pm = try PNGCodec.read(path: out)
        #expect(pm.width == 1280 && pm.height == 800)
        let json = try JSON.parse(try Headless.state(try Self.options(["--pixel-ratio", "2", "--zoom", "5.5"])), name: "state")
        let zoom = try #require(json["camera"]?["zoom"]?.numberValue)
        #expect(abs(zoom - 5.5) < 1e-9 && json["pixelRatio"] == .number(2))
        #expect(json["size"]?.numbersValue == [1280, 800])
    }

    @Test func ratiosOutsideOneToFourAreRefused() {
        #expect(throws: Options.UsageError.self) { try Options.parse(["snapshot", "--radar", "demo", "-o", "x.png", "--pixel-ratio", "0.5"]) }
        #expect(throws: Options.UsageError.self) { try Options.parse(["snapshot", "--radar", "demo", "-o", "x.png", "--pixel-ratio", "5"]) }
    }
}
