import Testing
@testable import MapCore
import Raster

@Suite struct GlobeSurfaceTests {
    @Test func debug() {
        let view = ViewTransform(camera: CameraState(center: LngLat(lng: 15, lat: 0), zoom: 1), size: ViewportSize(width: 512, height: 512), globeness: 1)
        guard let g = view.globe else { Issue.record("no globe"); return }
        let s = g.surface(mercator: nil, globeness: 1)
        let world = view.worldSize, ox = 256 - view.centerPixel.x, oy = 256 - view.centerPixel.y
        func flat(_ x: Double, _ y: Double) -> Point { Point(x * world + ox, y * world + oy) }
        let u = g.unprojection!
        print("pixel", u.flat(229.5, 143.5), g.unproject(x: 229.5, y: 143.5) as Any)
        for (tx, ty) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
            let quad = [flat(tx, ty), flat(tx + 0.5, ty), flat(tx + 0.5, ty + 0.5), flat(tx, ty + 0.5)]
            var r = Rasterizer(width: 512, height: 512)
            r.sphere = s
            let pm = Pixmap(width: 512, height: 512)
            quad.withUnsafeBufferPointer { r.addPolygon($0) }
            r.fill(pm, color: PremultipliedColor(RGBA8(255, 0, 0)))
            print(tx, ty, String(pm[229, 143] >> 24, radix: 16), String(pm[228, 143] >> 24, radix: 16), String(pm[230, 143] >> 24, radix: 16))
        }
    }
}
