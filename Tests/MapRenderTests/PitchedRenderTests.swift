import Foundation
import MapCore
import MapData
@testable import MapRender
import Raster
import Testing
import TestSupport

/// The map drawn pitched (issue 42): the basemap's fills and lines where MapLibre's camera puts
/// them (`PerspectiveTransform`, tested against numpy values on its own), the same picture
/// whatever the blocks of edges passed over, whole or in bands, and the sky above the horizon.
@Suite struct PitchedRenderTests {
    typealias Basemap = BasemapSnapshotTests

    static func frame(_ camera: CameraState, size: ViewportSize, style: Style = Basemap.style) -> FrameDescription {
        var model = MapModel(style: style, size: size, camera: weatherCamera, bounds: CameraBounds(minZoom: 0, maxZoom: 8, maxPitch: 85))
        model.jump(to: camera)
        model.loadWantedTiles(now: 0)
        return model.frame()
    }

    @Test func lakesLieWhereThePitchedCameraSeesThem() throws {
        let size = ViewportSize(width: 1280, height: 800)
        let camera = CameraState(center: LngLat(lng: -80, lat: 42.5), zoom: 5.5, bearing: 30, pitch: 60)
        let frame = Self.frame(camera, size: size)
        #expect(frame.view.camera.pitch == 60)
        let pm = Pixmap(width: size.width, height: size.height)
        FrameRenderer().render(frame, into: pm)
        let perspective = ViewTransform.perspective(camera, size)
        let lake = Basemap().rgba(Basemap.Palette.lake), land = Basemap().rgba(Basemap.Palette.land)
        func count(_ colour: RGBA8, around p: LngLat) -> Int {
            let s = perspective.project(WebMercator.project(p))
            var n = 0
            for y in Int(s.y) - 3...Int(s.y) + 3 { for x in Int(s.x) - 3...Int(s.x) + 3 where pm.color(atX: x, y: y) == colour { n += 1 } }
            return n
        }
        // Lake Michigan at two places, and land in Pennsylvania and Ohio, each 7 x 7
        // pixels (at this zoom the lakes far off are a few pixels high).
        #expect(count(lake, around: LngLat(lng: -87.0, lat: 43.5)) >= 45, "Lake Michigan")
        #expect(count(lake, around: LngLat(lng: -86.8, lat: 42.5)) >= 45, "Lake Michigan's south")
        #expect(count(land, around: LngLat(lng: -77.6, lat: 40.8)) >= 45, "Pennsylvania")
        #expect(count(land, around: LngLat(lng: -82.8, lat: 40.2)) >= 45, "Ohio")
        // The flat map would put Lake Michigan elsewhere.
        let flat = ViewTransform(camera: CameraState(center: camera.center, zoom: camera.zoom, bearing: 30), size: size)
        let f = flat.screen(LngLat(lng: -87.0, lat: 43.5)), p = frame.view.screen(LngLat(lng: -87.0, lat: 43.5))
        #expect(abs(f.x - p.x) + abs(f.y - p.y) > 100)
    }

    /// Blocks of edges wholly beyond a side of the ground seen become their chords; the
    /// picture is the same with blocks of 1 (no chords), 16 and 1,000 edges, whole or in bands.
    @Test func passingOverUnseenBlocksChangesNoPixel() {
        let size = ViewportSize(width: 640, height: 360)
        let cameras = [(-75.0, 42.0, 5.0, 60.0, 0.0), (-84, 45, 5.9, 45, 120), (-71, 43, 6.2, 75, -40), (179.5, 10, 2, 60, 10)]
        var differing: [String] = []
        for (lng, lat, zoom, pitch, bearing) in cameras {
            let drawn = Self.frame(CameraState(center: LngLat(lng: lng, lat: lat), zoom: zoom, bearing: bearing, pitch: pitch), size: size)
            var images: [[UInt32]] = []
            for length in [1, 16, 1000] {
                let frame = Basemap.reblocked(drawn, length)
                images.append(contentsOf: BasemapSnapshotTests.wholeAndBanded(frame, size))
            }
            // Whole: the same pixels. In bands: lines are cut per band, so their strokes' ends
            // differ by rounding (a level at a few pixels), as at a bearing.
            for k in 1..<images.count {
                var n = 0, worst = 0
                for i in 0..<images[0].count where images[k][i] != images[0][i] {
                    n += 1
                    for shift in stride(from: 0, to: 32, by: 8) {
                        worst = max(worst, abs(Int(images[k][i] >> UInt32(shift) & 255) - Int(images[0][i] >> UInt32(shift) & 255)))
                    }
                }
                let banded = k % 2 == 1
                if banded ? (n > 32 || worst > 2) : n > 0 {
                    differing.append("(\(lng), \(lat)) z\(zoom) pitch \(pitch) blocks \([1, 16, 1000][k / 2])\(banded ? " banded" : ""): \(n) by \(worst)")
                }
            }
        }
        #expect(differing.isEmpty, "\(differing)")
    }

    @Test func theSkyShowsAboveTheHorizonAndBlendsIntoIt() throws {
        // MapLibre's sky/basic: pitch 85, a sky blue high up, nearly white at the horizon.
        let json = """
        {"version": 8, "sources": {}, "pitch": 85, "zoom": 15, "center": [35.38, 31.55],
         "sky": {"sky-color": "#199EF3", "horizon-color": "#daeff0", "sky-horizon-blend": 1},
         "layers": [{"id": "ground", "type": "background", "paint": {"background-color": "#ccaa83"}}]}
        """
        let document = try StyleDocument(data: Data(json.utf8), name: "sky.json")
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let style = Style(document: document, features: [:], images: [:])
        let size = ViewportSize(width: 512, height: 512)
        var model = MapModel(style: style, size: size, camera: CameraState(center: LngLat(lng: 35.38, lat: 31.55), zoom: 15, pitch: 85),
                             bounds: CameraBounds(maxPitch: 85))
        model.loadWantedTiles(now: 0)
        let frame = model.frame()
        #expect(frame.sky != nil)
        let pm = Pixmap(width: 512, height: 512)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(frame, into: pm)
        let perspective = try #require(frame.view.perspective)
        let line = 256 - perspective.horizon       // 57 px above the centre
        #expect(abs(perspective.horizon - 57) < 1)
        // Row y: the sky mixed towards the horizon colour by (1 - b / 256)^2, b its height
        // above the horizon line (MapLibre's sky shader).
        func expected(_ y: Int) -> RGBA8 {
            let b = line - (Double(y) + 0.5), k = (1 - b / 256) * (1 - b / 256)
            func mix(_ s: Double, _ h: Double) -> UInt8 { UInt8((s + (h - s) * k).rounded()) }
            return RGBA8(mix(0x19, 0xda), mix(0x9e, 0xef), mix(0xf3, 0xf0), 255)
        }
        for y in [0, 50, 150, Int(perspective.groundTopY) - 1] {
            let c = pm.color(atX: 100, y: y), e = expected(y)
            #expect(abs(Int(c.r) - Int(e.r)) <= 1 && abs(Int(c.g) - Int(e.g)) <= 1 && abs(Int(c.b) - Int(e.b)) <= 1, "row \(y): \(c), not \(e)")
        }
        // The ground from where the far plane cuts it, a little above the horizon line.
        #expect(perspective.groundTopY < line && perspective.groundTopY > line - 3)
        #expect(pm.color(atX: 100, y: Int(perspective.groundTopY) + 1) == RGBA8(0xcc, 0xaa, 0x83, 255))
        // Without a sky nothing is drawn above the horizon.
        var skyless = style
        skyless.sky = nil
        var plain = MapModel(style: skyless, size: size, camera: model.camera.state, bounds: CameraBounds(maxPitch: 85))
        plain.loadWantedTiles(now: 0)
        let bare = Pixmap(width: 512, height: 512)
        renderer.render(plain.frame(), into: bare)
        #expect(bare.color(atX: 100, y: 0).a == 0)
    }
}
