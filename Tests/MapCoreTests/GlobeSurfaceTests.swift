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
        let quad = [flat(0, 0), flat(0.5, 0), flat(0.5, 0.5), flat(0, 0.5)]
        print("A", s.antipode, "quad", quad)
        var w = 0
        for i in 0..<4 { w += SphereProjection.crossing(quad[i], quad[(i + 1) % 4], s.antipode) }
        print("W(A)", w)
        var r = Rasterizer(width: 512, height: 512)
        r.sphere = s
        let pm = Pixmap(width: 512, height: 512)
        quad.withUnsafeBufferPointer { r.addPolygon($0) }
        r.fill(pm, color: PremultipliedColor(RGBA8(255, 0, 0)))
        print("left", pm[200, 200], "right", pm[300, 200])
        var segs: [(Point, Point)] = []
        for i in 0..<4 { s.forEachEdge(quad[i], quad[(i + 1) % 4]) { segs.append(($0, $1)) } }
        var ws = 0
        for (a, b) in segs { ws += SphereProjection.crossing(a, b, Point(200, 200)) }
        var wr = 0
        for (a, b) in segs { wr += SphereProjection.crossing(a, b, Point(300, 200)) }
        print("screen winding left", ws, "right", wr, "limb about centre", SphereProjection.winding(s.limb, about: Point(256, 256)))
    }
}
