import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster
import Testing
import TestSupport

/// The raster layer: placement, lighting, frames, fades and colour adjustments, in pixels.
@Suite struct RasterLayerTests {
    static let size = ViewportSize(width: 640, height: 480)
    static let box = LngLatBounds(west: -80.425, south: 37.936, east: -71.516, north: 46.437)

    /// An image whose row r has green = r and red = column c (both mod 256), opaque.
    static func gradient(_ w: Int, _ h: Int) -> Pixmap {
        let p = Pixmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w { p[x, y] = RGBA8(UInt8(x % 256), UInt8(y % 256), 77).premultiplied.packed } }
        return p
    }

    static func solid(_ c: RGBA8, _ w: Int = 16, _ h: Int = 16) -> Pixmap {
        let p = Pixmap(width: w, height: h)
        p.clear(c.premultiplied)
        return p
    }

    func model(_ frames: [(any RasterTexture)?], placement: ImagePlacement = .lonlat, paint: RasterPaint = RasterPaint(fadeDuration: 0, emissiveStrength: 1),
               light: LightPreset = .night, camera: CameraState? = nil) -> MapApp {
        let source = ImageSource(corners: ImageCorners(Self.box), placement: placement, frames: frames.map { $0 },
                                 names: frames.indices.map { "f\($0)" })
        // A document's raster layer with `paint` written out as its JSON.
        let p = paint
        let json = #"{"id": "radar", "type": "raster", "source": "radar", "paint": {"raster-opacity": \#(p.opacity), "#
            + #""raster-fade-duration": \#(p.fadeDuration * 1000), "raster-resampling": "\#(p.resampling.rawValue)", "#
            + #""raster-brightness-min": \#(p.brightnessMin), "raster-brightness-max": \#(p.brightnessMax), "#
            + #""raster-contrast": \#(p.contrast), "raster-saturation": \#(p.saturation), "raster-hue-rotate": \#(p.hueRotate), "#
            + #""raster-emissive-strength": \#(p.emissiveStrength)}}"#
        let radar = try! LayerDefinition(json: try! JSON.parse(Data(json.utf8), name: "radar"),
                                         sources: ["radar": .image(url: "radar.gif", corners: ImageCorners(Self.box))])
        let style = Style(sources: ["radar": .image(source)], layers: [
            Layer(try! LayerDefinition(json: try! JSON.parse(Data(#"{"id": "bg", "type": "background", "paint": {"background-color": "black"}}"#.utf8), name: "bg"), sources: [:])),
            Layer(radar),
        ])
        var m = MapApp(style: style, size: Self.size, scene: .radar, radarLayerID: "radar", light: light)
        m.jump(to: camera ?? CameraState(center: LngLat(lng: -75.97, lat: 42.3), zoom: 5.5))
        return m
    }

    func render(_ m: MapApp) -> Pixmap {
        let pm = Pixmap(width: Self.size.width, height: Self.size.height)
        FrameRenderer().render(m.frame(), into: pm)
        return pm
    }

    /// North up and at bearings (where each pixel is sampled through the inverse view: with
    /// `lonlat` an image row is a latitude row, which a turned screen row crosses).
    @Test(arguments: ImagePlacement.allCases, [0.0, 30, -120])
    func placementPutsEachRowWhereItBelongs(_ placement: ImagePlacement, bearing: Double) {
        let h = 200
        var paint = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        paint.resampling = .nearest
        let m = model([Self.gradient(256, h)], placement: placement, paint: paint,
                      camera: CameraState(center: LngLat(lng: -75.97, lat: 42.3), zoom: 5.5, bearing: bearing))
        let pm = render(m)
        let v = m.camera.view
        let (n, s) = (Self.box.north, Self.box.south)
        for lat in stride(from: 40.2, through: 44.2, by: 0.5) {
            let p = v.screen(LngLat(lng: -76.0, lat: lat))
            let got = Int(pm.color(atX: Int(p.x), y: Int(p.y)).g)
            // The row the placement predicts at this latitude.
            let t: Double
            if placement == .lonlat {
                t = (n - lat) / (n - s)
            } else {
                t = (WebMercator.y(lat: lat) - WebMercator.y(lat: n)) / (WebMercator.y(lat: s) - WebMercator.y(lat: n))
            }
            let want = Int(t * Double(h))
            #expect(abs(got - want) <= 1, "\(placement) at \(lat), bearing \(bearing): row \(got), expected \(want)")
        }
        // Columns are linear in longitude in both modes.
        for lng in [-77.5, -76.0, -74.5] {
            let p = v.screen(LngLat(lng: lng, lat: 42))
            let column = Int(pm.color(atX: Int(p.x), y: Int(p.y)).r)
            let wantColumn = Int((lng - Self.box.west) / (Self.box.east - Self.box.west) * 256)
            #expect(abs(column - wantColumn) <= 1, "\(placement) at \(lng), bearing \(bearing): column \(column), expected \(wantColumn)")
        }
    }

    @Test func theTwoPlacementsDifferInTheMiddleRows() {
        var paint = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        paint.resampling = .nearest
        let a = render(model([Self.gradient(256, 256)], placement: .lonlat, paint: paint))
        let b = render(model([Self.gradient(256, 256)], placement: .linear, paint: paint))
        let v = model([nil]).camera.view
        let p = v.screen(LngLat(lng: -76, lat: 42.2))
        // Several rows apart at zoom 5.5 (the reference engines' linear stretch misplaces a lat/lon grid).
        let rows = abs(Int(a.color(atX: Int(p.x), y: Int(p.y)).g) - Int(b.color(atX: Int(p.x), y: Int(p.y)).g))
        #expect(rows >= 2, "rows differ by \(rows)")
    }

    @Test func emissiveOneShowsTheExactColourAtNight() {
        let c = RGBA8(4, 233, 231)    // the NWS 5 dBZ colour
        let m = model([Self.solid(c)])
        let pm = render(m)
        #expect(pm.color(atX: 320, y: 240) == c)
    }

    @Test func emissiveZeroIsDarkenedAsTheFormulaSays() {
        let c = RGBA8(253, 149, 0)
        let m = model([Self.solid(c)], paint: RasterPaint(fadeDuration: 0, emissiveStrength: 0))
        let pm = render(m)
        let r = LightPreset.night.groundRadiance(zoom: m.camera.state.zoom)
        // mix(c * radiance, c, 0) = c * radiance, per channel.
        let want = (Double(c.r) * r.r, Double(c.g) * r.g, Double(c.b) * r.b)
        let got = pm.color(atX: 320, y: 240)
        #expect(abs(Double(got.r) - want.0) <= 1.5 && abs(Double(got.g) - want.1) <= 1.5 && abs(Double(got.b) - want.2) <= 1.5,
                "got \(got), expected \(want)")
        #expect(abs(r.r - 0) < 0.005 && abs(r.g - 0.062) < 0.002 && abs(r.b - 0.161) < 0.002, "night radiance \(r)")
    }

    /// A frame kept as palette indices draws exactly as the same frame packed: north up, on the
    /// separable path and at a bearing, in both placements.
    @Test func indexedFramesDrawLikePackedOnes() throws {
        let gif = try GIFDecoder.read(path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/radar/radar2.gif").standardized.path)
        let packed = try #require(gif.frames.first)
        let indexed = try #require(IndexedImage(packed))
        #expect(indexed.colorCount <= 256 && indexed.bytes < packed.count * 4 / 3)
        for (x, y) in [(0, 0), (300, 280), (599, 572)] { #expect(indexed.color(atX: x, y: y) == packed.color(atX: x, y: y)) }
        for placement in [ImagePlacement.lonlat, .linear] {
            for bearing in [0.0, 30.0] {
                let camera = CameraState(center: LngLat(lng: -75.97, lat: 42.3), zoom: 5.5, bearing: bearing)
                let a = render(model([packed], placement: placement, camera: camera))
                let b = render(model([indexed], placement: placement, camera: camera))
                var differ = 0
                for i in 0..<a.count where a.pixels[i] != b.pixels[i] { differ += 1 }
                #expect(differ == 0, "\(placement) at \(bearing)°: \(differ) pixels differ")
            }
        }
        // More than 256 colours stay packed.
        let many = Pixmap(width: 32, height: 32)
        for i in 0..<many.count { many.pixels[i] = RGBA8(UInt8(i & 255), UInt8(i >> 8), 7).premultiplied.packed }
        #expect(IndexedImage(many) == nil)
    }

    @Test func framesFollowTheTimer() {
        let colours = [RGBA8(255, 0, 0), RGBA8(0, 255, 0), RGBA8(0, 0, 255), RGBA8(255, 255, 0), RGBA8(0, 255, 255)]
        var m = model(colours.map { Self.solid($0) })
        for (t, want) in [(0.0, 0), (1.0, 1), (4.2, 4), (5.0, 0)] {
            m.advance(to: t)
            #expect(m.radarFrame?.slot == want, "at \(t)")
            #expect(render(m).color(atX: 320, y: 240) == colours[want], "pixels at \(t)")
        }
    }

    @Test func fadeDurationZeroNeverShowsAMix() {
        let colours = [RGBA8(255, 0, 0), RGBA8(0, 0, 255)]
        var m = model(colours.map { Self.solid($0) })
        for t in [0.999, 1.0, 1.001, 1.016, 1.5] {
            m.advance(to: t)
            let c = render(m).color(atX: 320, y: 240)
            #expect(c == colours[0] || c == colours[1], "mixed colour \(c) at \(t)")
        }
    }

    @Test func positiveFadeCrossFades() {
        let colours = [RGBA8(255, 0, 0), RGBA8(0, 0, 255)]
        var m = model(colours.map { Self.solid($0) }, paint: RasterPaint(fadeDuration: 0.4, emissiveStrength: 1))
        m.advance(to: 1.1)           // a quarter of the way from frame 0 to frame 1
        #expect(m.isAnimating)
        let c = render(m).color(atX: 320, y: 240)
        #expect(abs(Int(c.r) - 191) <= 2 && abs(Int(c.b) - 64) <= 2, "got \(c)")
        m.advance(to: 1.5)
        #expect(render(m).color(atX: 320, y: 240) == colours[1])
    }

    @Test func aBadFrameKeepsThePreviousImage() {
        let colours = [RGBA8(255, 0, 0), RGBA8(0, 255, 0)]
        var m = model([Self.solid(colours[0]), nil, Self.solid(colours[1])])
        m.advance(to: 1.2)
        #expect(m.radarFrame?.slot == 1)
        #expect(render(m).color(atX: 320, y: 240) == colours[0])
        m.advance(to: 2.2)
        #expect(render(m).color(atX: 320, y: 240) == colours[1])
    }

    @Test func pauseKeepsTheFrameAndStepsWrap() {
        var m = model((0..<5).map { _ in Self.solid(RGBA8(9, 9, 9)) })
        m.advance(to: 2.5)
        m.apply(.toggleTimer, now: 2.5)
        for t in [2.6, 10.0, 1000.0] { m.advance(to: t); #expect(m.radarFrame?.slot == 2) }
        m.apply(.stepFrame(1), now: 1000); m.apply(.stepFrame(1), now: 1000); m.apply(.stepFrame(1), now: 1000)
        #expect(m.radarFrame?.slot == 0)
        m.apply(.stepFrame(-1), now: 1000)
        #expect(m.radarFrame?.slot == 4)
        m.apply(.toggleTimer, now: 1000)
        m.advance(to: 1000.99)
        #expect(m.radarFrame?.slot == 4)
        m.advance(to: 1001)
        #expect(m.radarFrame?.slot == 0)
    }

    @Test func colourAdjustmentsFollowTheSpecification() {
        let c = RGBA8(200, 100, 50)
        func shown(_ p: RasterPaint) -> RGBA8 { render(model([Self.solid(c)], paint: p)).color(atX: 320, y: 240) }
        var p = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        p.saturation = -1                      // fully desaturated: the average
        let grey = shown(p)
        #expect(abs(Int(grey.r) - 117) <= 1 && grey.r == grey.g && grey.g == grey.b, "got \(grey)")
        p = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        p.brightnessMax = 0.5                  // mix(min, max, c): halves every channel
        let half = shown(p)
        #expect(abs(Int(half.r) - 100) <= 1 && abs(Int(half.g) - 50) <= 1 && abs(Int(half.b) - 25) <= 1, "got \(half)")
        p = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        p.hueRotate = 120                      // r -> g -> b
        let spun = shown(p)
        #expect(abs(Int(spun.g) - 200) <= 2 && abs(Int(spun.b) - 100) <= 2 && abs(Int(spun.r) - 50) <= 2, "got \(spun)")
        p = RasterPaint(fadeDuration: 0, emissiveStrength: 1)
        p.opacity = 0.5
        let halfOpaque = shown(p)
        #expect(abs(Int(halfOpaque.r) - 100) <= 1, "got \(halfOpaque)")
    }

    @Test func lightPresetEasesOver300ms() {
        var m = model([Self.solid(RGBA8(255, 255, 255))])
        let night = m.model.groundRadiance
        m.apply(.cycleLight, now: 0)           // night -> dawn
        #expect(m.lightPreset == .dawn)
        #expect(m.model.groundRadiance == night)
        m.advance(to: 0.15)
        #expect(m.isAnimating && m.model.groundRadiance != night)
        m.advance(to: 0.3)
        #expect(m.model.groundRadiance == LightPreset.dawn.groundRadiance(zoom: m.camera.state.zoom))
    }

    @Test func eTogglesTheRadarEmissiveStrength() {
        var m = model([Self.solid(RGBA8(255, 255, 255))])
        m.apply(.toggleEmissive, now: 0)
        m.advance(to: 0.3)
        #expect(m.model.paintValue(layer: "radar", "raster-emissive-strength") == .number(0))
        m.apply(.toggleEmissive, now: 1)
        m.advance(to: 1.3)
        #expect(m.model.paintValue(layer: "radar", "raster-emissive-strength") == .number(1))
    }
}
