import Foundation
import MapCore
@testable import MapRender
import Raster
import Testing

/// Fill-extrusion layers: boxes raised in the camera's perspective, their roofs and walls shaded
/// by MapLibre's formulas, the nearest surface winning, a translucent layer showing it once.
@Suite struct FillExtrusionLayerTests {
    static let size = ViewportSize(width: 256, height: 256)
    static let view = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 17, pitch: 60), size: size)

    /// A square feature `half` degrees each side of (lng, lat), wound as GeoJSON's right-hand rule.
    static func box(_ lng: Double, _ lat: Double, half: Double, _ paint: FillExtrusionPaint) -> FeatureDraw<FillExtrusionPaint>.Item {
        let ring = [(lng - half, lat - half), (lng + half, lat - half), (lng + half, lat + half), (lng - half, lat + half), (lng - half, lat - half)]
            .map { WebMercator.project(LngLat(lng: $0.0, lat: $0.1)) }
        return .init(paint: paint, geometry: FeatureGeometry(kind: .polygons, parts: [ring], polygonStarts: [0]))
    }

    static func render(_ layers: [FillExtrusionDraw], rows: Range<Int>? = nil, renderer: FrameRenderer = FrameRenderer()) -> Pixmap {
        let pm = Pixmap(width: size.width, height: size.height)
        renderer.clearColor = PremultipliedColor(packed: 0)
        let draws = layers.enumerated().map { FrameDescription.DrawLayer(id: "x\($0.offset)", .fillExtrusion($0.element)) }
        renderer.render(FrameDescription(view: view, layers: draws), into: pm, rows: rows ?? 0..<pm.height)
        return pm
    }

    /// Where a point (degrees) `metres` above the ground lands on screen.
    static func screen(_ lng: Double, _ lat: Double, metres: Double) -> (x: Int, y: Int) {
        let p = ViewTransform.perspective(view.camera, size)
        let ppm = p.worldSize / (2 * Double.pi * 6371008.8)
        let s = p.project(WebMercator.project(LngLat(lng: lng, lat: lat)), height: metres * ppm)
        return (Int(s.x), Int(s.y))
    }

    static let red = FillExtrusionPaint(color: Color(r: 1, g: 0, b: 0), height: 40)
    static let blue = FillExtrusionPaint(color: Color(r: 0, g: 0, b: 1), height: 20)
    static let grey = FillExtrusionPaint(color: Color(r: 0.5, g: 0.5, b: 0.5), height: 20)

    @Test func aBoxAtPitch60HasItsRoofAndFrontWallShadedByTheLight() {
        let pm = Self.render([FillExtrusionDraw(features: FeatureDraw(items: [Self.box(0, 0, half: 0.0002, Self.grey)]), opacity: 1)])
        // The roof: (0.5 + 0.03) x mix(1 - 0.5, max(1 - 0.5 + 0.5, 1), n.L), n = (1/16384, 0, 1).
        let nl = 0.2875 / 16384 + 0.99592921
        let roof = 0.53 * (0.5 + 0.5 * nl)
        let r = Self.screen(0, 0, metres: 20)
        #expect(pm.color(atX: r.x, y: r.y) == RGBA8(roofByte(roof), roofByte(roof), roofByte(roof), 255))
        // The south wall (facing the camera): its normal points north (into the box), n.L = 0.498;
        // the gradient's floor mix(0.7, 0.98, 0.5) = 0.84 holds at both its foot and top.
        let wall = 0.53 * (0.5 + 0.5 * 0.49796329) * 0.84
        let w = Self.screen(0, -0.0002, metres: 10)
        #expect(pm.color(atX: w.x, y: w.y + 1) == RGBA8(roofByte(wall), roofByte(wall), roofByte(wall), 255))
        // Ground beside the box, and the sky above the roof: nothing.
        #expect(pm.color(atX: 5, y: 250).a == 0)
        #expect(pm.color(atX: r.x, y: Self.screen(0, 0.0002, metres: 20).y - 3).a == 0)
    }

    func roofByte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }

    @Test func theNearerBoxHidesTheFartherWhateverTheOrder() {
        // The red box is tall and north (farther); the blue one lower and south (nearer).
        let far = Self.box(0, 0.00025, half: 0.0001, Self.red), near = Self.box(0, 0, half: 0.0001, Self.blue)
        for items in [[near, far], [far, near]] {
            let pm = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 1)])
            // The near box's roof hides the far box's wall behind it.
            let p = Self.screen(0, 0.00005, metres: 20)
            let c = pm.color(atX: p.x, y: p.y)
            #expect(c.b > 200 && c.r < 20)
            // Above it, the far box's wall shows.
            let q = Self.screen(0, 0.00015, metres: 30)
            let c2 = pm.color(atX: q.x, y: q.y)
            #expect(c2.r > 100 && c2.b < 20, "\(c2) at \(q)")
        }
        // A later layer hides behind an earlier layer's boxes (they share the depth).
        let pm = Self.render([FillExtrusionDraw(features: FeatureDraw(items: [near]), opacity: 1),
                              FillExtrusionDraw(features: FeatureDraw(items: [far]), opacity: 1)])
        let p = Self.screen(0, 0.00005, metres: 20)
        #expect(pm.color(atX: p.x, y: p.y).b > 200)
    }

    @Test func aTranslucentLayerShowsEachPixelsNearestSurfaceOnce() {
        let items = [Self.box(0, 0.00025, half: 0.0001, Self.red), Self.box(0, 0, half: 0.0001, Self.blue)]
        let opaque = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 1)])
        let half = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 0.5)])
        let p = Self.screen(0, 0.00005, metres: 20)
        // Where the blue roof covers the red wall: blue at half opacity, no red under it.
        let o = opaque.pixels[p.y * Self.size.width + p.x], h = half.pixels[p.y * Self.size.width + p.x]
        #expect(o & 255 > 200)
        #expect(h >> 24 == 128)
        for shift: UInt32 in [0, 8, 16] { #expect(abs(Int(h >> shift & 255) - Int(o >> shift & 255) / 2) <= 1) }
    }

    @Test func bandsDrawTheirOwnRowsAlike() {
        let items = [Self.box(0, 0, half: 0.0002, Self.grey)]
        let whole = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 0.7)])
        let pm = Pixmap(width: Self.size.width, height: Self.size.height)
        for band in [0..<100, 100..<170, 170..<256] {
            let r = FrameRenderer()
            r.clearColor = PremultipliedColor(packed: 0)
            r.render(FrameDescription(view: Self.view, layers: [.init(id: "x", .fillExtrusion(FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 0.7)))]),
                     into: pm, rows: band)
        }
        #expect((0..<whole.count).allSatisfy { whole.pixels[$0] == pm.pixels[$0] })
        #expect((0..<whole.count).contains { whole.pixels[$0] != 0 })
    }

    /// The depth is the frame's: one renderer drawing frame after frame draws each as a fresh
    /// one would, though the last frame's nearer boxes stood where this frame's farther ones are.
    @Test func eachFrameStartsFromAnEmptyDepth() {
        let near = Self.box(0, 0, half: 0.0002, Self.red), far = Self.box(0, 0.0003, half: 0.0001, Self.blue)
        let reused = FrameRenderer()
        _ = Self.render([FillExtrusionDraw(features: FeatureDraw(items: [near]), opacity: 1)], renderer: reused)
        let layers = [FillExtrusionDraw(features: FeatureDraw(items: [far]), opacity: 0.8),
                      FillExtrusionDraw(features: FeatureDraw(items: [Self.box(0.0003, 0, half: 0.0001, Self.grey)]), opacity: 1)]
        let again = Self.render(layers, renderer: reused), fresh = Self.render(layers)
        #expect((0..<fresh.count).allSatisfy { again.pixels[$0] == fresh.pixels[$0] })
        // (The far box shows where the near one stood in the frame before.)
        let p = Self.screen(0, 0.0002, metres: 20)
        #expect(fresh.color(atX: p.x, y: p.y).b > 100)
    }

    @Test func edgesAlongTheSidesOfTilesFeaturesWereCutToGetNoWall() {
        // Its south side on the equator, a side of tiles at every zoom.
        let items = [Self.box(0.0001, 0.0001, half: 0.0001, Self.grey)]
        let w = Self.screen(0.0001, 0, metres: 10)
        let whole = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 1)])
        #expect(whole.color(atX: w.x, y: w.y).a == 255)
        let cut = Self.render([FillExtrusionDraw(features: FeatureDraw(items: items), opacity: 1, cutZoom: 16)])
        #expect(cut.color(atX: w.x, y: w.y).a == 0)
        // The other walls and the roof stay.
        let r = Self.screen(0.0001, 0.0001, metres: 20)
        #expect(cut.color(atX: r.x, y: r.y) == whole.color(atX: r.x, y: r.y))
    }

    @Test func whatIsBehindTheCameraDrawsNothingAndWhatCrossesItsNearPlaneIsCut() {
        // The eye is 1.5 x 256 x sin 60 world pixels south of the centre (0.0018 degrees at zoom 17).
        let tall = FillExtrusionPaint(color: Color(r: 0.5, g: 0.5, b: 0.5), height: 300)
        let behind = Self.render([FillExtrusionDraw(features: FeatureDraw(items: [Self.box(0, -0.004, half: 0.001, tall)]), opacity: 1)])
        #expect((0..<behind.count).allSatisfy { behind.pixels[$0] == 0 })
        // A long block from behind the eye to north of the centre: drawn, its part behind cut away.
        let ring = [(-0.0003, -0.004), (0.0003, -0.004), (0.0003, 0.0005), (-0.0003, 0.0005), (-0.0003, -0.004)]
            .map { WebMercator.project(LngLat(lng: $0.0, lat: $0.1)) }
        let block = FeatureDraw<FillExtrusionPaint>.Item(paint: FillExtrusionPaint(color: Color(r: 0.5, g: 0.5, b: 0.5), height: 5),
                                                         geometry: FeatureGeometry(kind: .polygons, parts: [ring], polygonStarts: [0]))
        let pm = Self.render([FillExtrusionDraw(features: FeatureDraw(items: [block]), opacity: 1)])
        let r = Self.screen(0, 0, metres: 5)
        #expect(pm.color(atX: r.x, y: r.y).a == 255)
        #expect(pm.color(atX: 128, y: 255).a == 255)      // the roof runs to the bottom of the view
        #expect(pm.color(atX: 2, y: 2).a == 0)
    }

    @Test func atPitch0WallsAwayFromTheCentreShow() {
        let view = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 18), size: Self.size)
        let pm = Pixmap(width: Self.size.width, height: Self.size.height)
        let r = FrameRenderer()
        r.clearColor = PremultipliedColor(packed: 0)
        let tall = FillExtrusionPaint(color: Color(r: 0.5, g: 0.5, b: 0.5), height: 100)
        r.render(FrameDescription(view: view, layers: [.init(id: "x", .fillExtrusion(FillExtrusionDraw(
            features: FeatureDraw(items: [Self.box(0.0004, 0, half: 0.0001, tall)]), opacity: 1)))]), into: pm)
        // East of the centre, the roof (nearer the eye) is bigger than the footprint and shifted
        // out; the west wall shows between the footprint and the roof.
        let foot = view.screen(LngLat(lng: 0.0003, lat: 0))
        let c = pm.color(atX: Int(foot.x) + 1, y: Int(foot.y))
        #expect(c.a == 255)
        let roof = 0.53 * (0.5 + 0.5 * (0.2875 / 16384 + 0.99592921))
        #expect(c.r != roofByte(roof))
    }
}
