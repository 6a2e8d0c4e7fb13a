import Foundation
import MapCore
import MapRender
import Raster
import Testing
import TestSupport

/// Line layers drawn by the renderer: caps, joins, dashes, gap width, blur, translucency.
@Suite struct LineLayerTests {
    static let size = ViewportSize(width: 512, height: 384)
    static let view = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 10), size: size)

    /// A line layer through screen points (converted to positions for this view).
    func layer(_ id: String, _ lines: [[(Double, Double)]], _ paint: LinePaint) -> FrameDescription.DrawLayer {
        let geo = GeometrySet.lines(name: id, lines.map { $0.map { Self.view.lngLat(x: $0.0, y: $0.1) } })
        return .init(id: id, .line(.uniform(geo, paint)))
    }

    func render(_ layers: [FrameDescription.DrawLayer]) -> Pixmap {
        let bg = FrameDescription.DrawLayer(id: "bg", .background(color: .black, opacity: 1))
        let pm = Pixmap(width: Self.size.width, height: Self.size.height)
        FrameRenderer().render(FrameDescription(view: Self.view, layers: [bg] + layers), into: pm)
        return pm
    }

    @Test func referenceSheet() throws {
        var layers: [FrameDescription.DrawLayer] = []
        for (i, cap) in LineCap.allCases.enumerated() {
            let y = 30.0 + Double(i) * 30
            layers.append(layer("cap\(i)", [[(30, y), (130, y)]], LinePaint(color: .white, width: 12, cap: cap)))
        }
        for (i, join) in LineJoin.allCases.enumerated() {
            let x = 180.0 + Double(i) * 110
            layers.append(layer("join\(i)", [[(x, 110), (x + 40, 20), (x + 80, 110)]], LinePaint(color: .white, width: 12, join: join, miterLimit: 4)))
        }
        layers.append(layer("dash", [[(30, 140), (250, 140)]], LinePaint(color: .white, width: 4, dasharray: [3, 1.5])))
        layers.append(layer("dots", [[(30, 165), (250, 165)]], LinePaint(color: .white, width: 6, cap: .round, dasharray: [0, 2])))
        layers.append(layer("gap", [[(280, 150), (360, 150), (480, 200)]], LinePaint(color: .white, width: 3, join: .round, gapWidth: 10)))
        layers.append(layer("blur", [[(30, 210), (250, 210)]], LinePaint(color: .white, width: 16, blur: 5)))
        layers.append(layer("loop", [[(40, 360), (200, 250), (220, 340), (40, 260)]],
                            LinePaint(color: Color(r: 1, g: 0.6, b: 0.2), width: 14, opacity: 0.5, join: .round)))
        layers.append(layer("round40", [[(280, 340), (350, 250), (420, 330), (490, 250)]],
                            LinePaint(color: Color(r: 0.3, g: 0.7, b: 1), width: 40, cap: .round, join: .round)))
        let pm = render(layers)
        try GoldenImage.check(pm, named: "line-layers", channelTolerance: 6, maxDiffering: 40)
    }

    @Test func gapWidthLeavesTheMiddleEmpty() {
        let pm = render([layer("gap", [[(100, 100), (400, 100)]], LinePaint(color: .white, width: 4, gapWidth: 10))])
        // Two 4-px lines centred at 100 -/+ (10 / 2 + 4 / 2): covering y in [91, 95] and [105, 109].
        let column = (85...115).map { Int(pm.color(atX: 250, y: $0).r) }
        #expect(column == [0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func offsetMovesTheLineToTheRightOfItsDirection() {
        // Eastward, a positive offset is south (down); westward it is north; with a gap the two
        // lines sit either side of the moved centre. Thin lines move too.
        let pm = render([layer("east", [[(100, 100), (400, 100)]], LinePaint(color: .white, width: 4, offset: 6)),
                         layer("west", [[(400, 200), (100, 200)]], LinePaint(color: .white, width: 1, offset: 6)),
                         layer("gap", [[(100, 300), (400, 300)]], LinePaint(color: .white, width: 2, gapWidth: 4, offset: -10))])
        let east = (95...112).map { Int(pm.color(atX: 250, y: $0).r) }
        #expect(east == [0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0])   // y in [104, 108]
        // Westward, 1 px wide, centred at y = 194: half of rows 193 and 194 each, none south.
        #expect(pm.color(atX: 250, y: 193).r > 100 && pm.color(atX: 250, y: 194).r > 100)
        #expect(pm.color(atX: 250, y: 200).r == 0 && pm.color(atX: 250, y: 206).r == 0)
        // Centre at 290: lines of 2 px centred at 290 -/+ 3, covering [286, 288] and [292, 294].
        let gap = (284...296).map { Int(pm.color(atX: 250, y: $0).r) }
        #expect(gap == [0, 0, 255, 255, 0, 0, 0, 0, 255, 255, 0, 0, 0])
    }

    @Test func blurFadesTheEdgeOverBlurPlusOnePixel() {
        let pm = render([layer("blur", [[(100, 100.5), (400, 100.5)]], LinePaint(color: .white, width: 20, blur: 6))])
        // Centre at y = 100.5, half width 10: opaque within 10 - 7 = 3 px of the centre...
        #expect(pm.color(atX: 250, y: 100).r >= 250)
        #expect(pm.color(atX: 250, y: 98).r >= 245)
        // ...about half-way at 10 - 3 = 7 px (MapLibre: ramp from 10.5 down to 3.5)...
        let mid = Int(pm.color(atX: 250, y: 100 + 7).r)
        #expect(abs(mid - 128) <= 30, "got \(mid)")
        // ...and gone past the edge.
        #expect(pm.color(atX: 250, y: 100 + 12).r <= 8)
        // Monotonic from the centre outwards.
        var last = 256
        for dy in 0...12 {
            let v = Int(pm.color(atX: 250, y: 100 + dy).r)
            #expect(v <= last, "not monotonic at \(dy)")
            last = v
        }
    }

    @Test func translucentSelfOverlapBlendsTwiceAsTheReferenceDoes() {
        // The reference engines blend every triangle of a line on its own: where a translucent
        // line crosses itself, it is laid twice (1 - 0.5 * 0.5 = 0.75 white over black).
        let paint = LinePaint(color: .white, width: 10, opacity: 0.5)
        let pm = render([layer("x", [[(100, 100), (300, 300), (300, 100), (100, 300)]], paint)])
        let crossing = pm.color(atX: 200, y: 200).r, single = pm.color(atX: 150, y: 150).r
        #expect(abs(Int(single) - 128) <= 1)
        #expect(abs(Int(crossing) - 191) <= 2, "crossing \(crossing) vs single \(single)")
    }

    @Test func thinLinesOfALayerBlendOneAfterAnother() {
        // Two 1-px translucent lines of one layer crossing: each blends on its own where they
        // cross (0.75 white over black), as in the reference engines; a polyline's own segments
        // meet at a join painted once (0.5).
        let paint = LinePaint(color: .white, width: 1, opacity: 0.5)
        let pm = render([layer("x", [[(100.5, 50), (100.5, 150)], [(50, 100.5), (150, 100.5)], [(200.5, 50), (200.5, 100.5), (300, 100.5)]], paint)])
        let crossing = pm.color(atX: 100, y: 100).r, single = pm.color(atX: 100, y: 70).r, join = pm.color(atX: 200, y: 100).r
        #expect(abs(Int(single) - 128) <= 1)
        #expect(abs(Int(crossing) - 191) <= 2, "crossing \(crossing) vs single \(single)")
        #expect(abs(Int(join) - 128) <= 1, "join \(join)")
    }

    @Test func aThinLineCutOffScreenIsStillOneLine() {
        // A 1-px translucent line that leaves the view and comes back across itself: its pieces
        // are one line, painted once where they cross, however the view (or a band) cuts it.
        let paint = LinePaint(color: .white, width: 1, opacity: 0.5)
        let pm = render([layer("u", [[(100.5, 200), (100.5, -300), (120.5, -300), (80, 150.5), (150, 150.5)]], paint)])
        #expect(abs(Int(pm.color(atX: 100, y: 150).r) - 128) <= 1, "crossing \(pm.color(atX: 100, y: 150))")
        #expect(abs(Int(pm.color(atX: 100, y: 180).r) - 128) <= 1)
    }

    @Test func roundCapsAndJoinsAreSmoothAtWidth8And40() {
        for width in [8.0, 40.0] {
            let pm = render([layer("r", [[(150, 200), (350, 200)]], LinePaint(color: .white, width: width, cap: .round))])
            // Along the cap's circle the coverage matches the exact disc to within one grey step
            // in twenty: sample the boundary every 5 degrees.
            let r = width / 2
            for k in 0..<36 {
                let a = Double.pi / 2 + Double(k) * Double.pi / 36
                let x = 150 + (r - 1.5) * cos(a), y = 200 - (r - 1.5) * sin(a)
                #expect(pm.color(atX: Int(x), y: Int(y)).r >= 200, "inside the cap at \(k) for width \(width)")
                let ox = 150 + (r + 1.5) * cos(a), oy = 200 - (r + 1.5) * sin(a)
                #expect(pm.color(atX: Int(ox), y: Int(oy)).r <= 55, "outside the cap at \(k) for width \(width)")
            }
        }
    }
}

/// Frames drawn on top of the cached still layers equal frames drawn from scratch.
@Suite struct LayerCacheTests {
    @Test func cachedFramesMatchFreshOnes() {
        let t = LineLayerTests()
        let base = [t.layer("a", [[(20, 20), (400, 300)]], LinePaint(color: .white, width: 6)),
                    t.layer("b", [[(20, 300), (400, 20)]], LinePaint(color: Color(r: 0, g: 0.5, b: 1), width: 3))]
        let shared = FrameRenderer()
        for (k, opacity) in [0.0, 0.2, 0.5, 0.9, 0.9, 0.1].enumerated() {
            let top = t.layer("top", [[(50, 200), (450, 200)]], LinePaint(color: .white, width: 10, opacity: opacity))
            let bg = FrameDescription.DrawLayer(id: "bg", .background(color: .black, opacity: 1))
            var layers = [bg] + base + [top]
            if k == 4 { layers[1] = t.layer("a", [[(20, 20), (400, 300)]], LinePaint(color: .white, width: 9)) }  // a lower layer changes
            let frame = FrameDescription(view: LineLayerTests.view, layers: layers)
            let a = Pixmap(width: 512, height: 384), b = Pixmap(width: 512, height: 384)
            shared.render(frame, into: a)
            FrameRenderer().render(frame, into: b)
            #expect(memcmp(a.pixels, b.pixels, a.count * 4) == 0, "frame \(k) differs from a fresh render")
        }
    }
}
