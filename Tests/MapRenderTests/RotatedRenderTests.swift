import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing
import TestSupport

/// The map drawn at a bearing: places land where Web Mercator plus a rotation about the
/// viewport's centre puts them, computed here on its own.
@Suite struct RotatedRenderTests {
    static func predicted(_ p: LngLat, centre: LngLat, zoom: Double, bearing: Double, size: ViewportSize) -> (x: Int, y: Int) {
        predictedScreenPoint(p, centre: centre, zoom: zoom, bearing: bearing, size: size)
    }

    static let michigan = LngLat(lng: -87.1, lat: 43.9)
    static let newYork = LngLat(lng: -74.01, lat: 40.71)

    @Test func lakeMichiganIsWhereTheRotatedProjectionPutsIt() throws {
        let style = BasemapSnapshotTests.style
        let size = ViewportSize(width: 1280, height: 800)
        let camera = weatherCamera
        var model = MapModel(style: style, size: size, camera: weatherCamera, bounds: weatherBounds)
        model.jump(to: CameraState(center: camera.center, zoom: camera.zoom, bearing: 30))
        model.loadWantedTiles(now: 0)
        #expect(model.camera.state.center == camera.center && model.camera.state.bearing == 30)
        let pm = Pixmap(width: size.width, height: size.height)
        FrameRenderer().render(model.frame(), into: pm)
        let lake = BasemapSnapshotTests().rgba(BasemapSnapshotTests.Palette.lake)
        let at = Self.predicted(Self.michigan, centre: camera.center, zoom: 5, bearing: 30, size: size)
        let north = Self.predicted(Self.michigan, centre: camera.center, zoom: 5, bearing: 0, size: size)
        #expect(abs(at.x - north.x) + abs(at.y - north.y) > 100)
        // Most of the 9 x 9 pixels around the point are lake (a state border crosses the lake).
        func lakePixels(_ p: (x: Int, y: Int)) -> Int {
            var n = 0
            for y in p.y - 4...p.y + 4 { for x in p.x - 4...p.x + 4 where pm.color(atX: x, y: y) == lake { n += 1 } }
            return n
        }
        #expect(lakePixels(at) >= 50, "Lake Michigan at \(at): \(lakePixels(at)) of 81 pixels")
        #expect(lakePixels(north) < 10, "water where the lake would be north up, \(north)")
        // Drawn in two bands, the same picture (but for rounding where lines cross the cut).
        let banded = Pixmap(width: size.width, height: size.height)
        let frame = model.frame()
        FrameRenderer().render(frame, into: banded, rows: 0..<333)
        FrameRenderer().render(frame, into: banded, rows: 333..<800)
        var differing = 0, worst = 0
        for i in 0..<(1280 * 800) where pm.pixels[i] != banded.pixels[i] {
            differing += 1
            for shift in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int(pm.pixels[i] >> UInt32(shift) & 255) - Int(banded.pixels[i] >> UInt32(shift) & 255)))
            }
        }
        #expect(differing <= 16 && worst <= 4, "\(differing) pixels differ, by up to \(worst)")
    }
}
