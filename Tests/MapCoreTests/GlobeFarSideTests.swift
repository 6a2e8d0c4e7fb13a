import Foundation
import Testing
@testable import MapCore
@testable import Raster

/// The globe's far side in the rasterizer (`Rasterizer.addFarEdge`): its edges, laid on the
/// circle just outside the disc, folded into columns of cells at x = 0 (or left out right of
/// the disc) draw the same pixels as the edges themselves.
@Suite struct GlobeFarSideTests {
    /// The flat screen point of a longitude and latitude for `s`.
    static func flat(_ s: SphereProjection, _ lng: Double, _ lat: Double) -> Point {
        let m = WebMercator.project(LngLat(lng: lng, lat: lat))
        let det = s.ax * s.by - s.bx * s.ay, dx = m.x - s.tx, dy = m.y - s.ty
        return Point((s.by * dx - s.bx * dy) / det, (-s.ay * dx + s.ax * dy) / det)
    }

    /// `rings` (longitude, latitude corners; edges straight in Mercator) filled on the globe.
    static func draw(_ s: SphereProjection, _ rings: [[(Double, Double)]], folding: Bool, step: Double = 1000) -> [UInt32] {
        var r = Rasterizer(width: 400, height: 400)
        r.foldsFarSide = folding
        r.sphere = s
        for ring in rings {
            r.moveTo(flat(s, ring[0].0, ring[0].1))
            for (k, c) in ring.enumerated() {
                // (Each edge in pieces of at most `step` degrees, as tiles give them.)
                let b = ring[(k + 1) % ring.count]
                let n = max(1, Int((max(abs(b.0 - c.0), abs(b.1 - c.1)) / step).rounded(.up)))
                for i in 1...n {
                    let t = Double(i) / Double(n)
                    r.lineTo(flat(s, c.0 + (b.0 - c.0) * t, c.1 + (b.1 - c.1) * t))
                }
            }
            r.close()
        }
        let pm = Pixmap(width: 400, height: 400)
        r.fill(pm, color: PremultipliedColor(RGBA8(200, 100, 50)), rule: .nonZero)
        return Array(UnsafeBufferPointer(start: pm.pixels, count: 400 * 400))
    }

    @Test func theFarSideFoldedDrawsWhatItsEdgesDraw() {
        let shapes: [[[(Double, Double)]]] = [
            // The whole world (it holds the far side's middle: the disc is added to make up).
            [[(-180, -85), (180, -85), (180, 85), (-180, 85)]],
            // A band round the globe, the other way round.
            [[(-180, -60), (-180, 60), (0, 60), (180, 60), (180, -60), (0, -60)]],
            // A band round the far side, its ends on the seen side, and a hole in it.
            [[(60, -60), (300, -60), (300, 60), (60, 60)], [(150, -20), (150, 20), (210, 20), (210, -20)]],
            // Behind, across the antimeridian (nothing shows).
            [[(95, -10), (265, -30), (250, 40), (100, 70)]],
        ]
        let views: [(zoom: Double, pitch: Double, bearing: Double, lat: Double)] = [(0.5, 0, 0, 0), (1.5, 50, 30, 40), (2, 20, -70, -60)]
        for v in views {
            let globe = GlobeTransform(center: LngLat(lng: 10, lat: v.lat), zoom: v.zoom, pitch: v.pitch, bearing: v.bearing, width: 400, height: 400)
            let s = globe.surface(mercator: nil, globeness: 1, mesh: nil)
            var drawn = 0
            for rings in shapes {
                let folded = Self.draw(s, rings, folding: true), plain = Self.draw(s, rings, folding: false)
                let differ = zip(folded, plain).filter { $0 != $1 }.count
                #expect(differ == 0, "view \(v), \(rings[0][0]): \(differ) pixels differ")
                // (Edges as tiles give them: pieces of 2 degrees.)
                let foldedFine = Self.draw(s, rings, folding: true, step: 2), plainFine = Self.draw(s, rings, folding: false, step: 2)
                let differFine = zip(foldedFine, plainFine).filter { $0 != $1 }.count
                #expect(differFine == 0, "view \(v), \(rings[0][0]) in pieces: \(differFine) pixels differ")
                drawn += plain.filter { $0 != 0 }.count
            }
            #expect(drawn > 50_000, "view \(v): \(drawn) pixels drawn")
        }
    }

    @Test func aBoxIsBehindExactlyWhenAllOfItIs() {
        // Boxes of every size and place against the horizon, sampled point by point: a box said
        // to be behind has no point within the margin of it; one wholly well behind is said to be.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double { seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Double(seed >> 11) / Double(1 << 53) }
        for view in [(0.5, 0.0, 0.0), (1.5, 50, 40), (2.5, 20, -60)] {
            let globe = GlobeTransform(center: LngLat(lng: 10, lat: view.2), zoom: view.0, pitch: view.1, bearing: 30, width: 400, height: 400)
            let s = globe.surface(mercator: nil, globeness: 1, mesh: nil)
            var said = 0, clear = 0
            for _ in 0..<400 {
                let w = 0.6 * random() * random(), h = 0.6 * random() * random()
                let x0 = random() * (1 - w), y0 = random() * (1 - h)
                var highest = -Double.infinity
                for i in 0...24 {
                    for j in 0...24 {
                        highest = max(highest, s.side(SphereProjection.unit(x0 + w * Double(i) / 24, y0 + h * Double(j) / 24)))
                    }
                }
                let behind = s.isBehind(minX: x0, minY: y0, maxX: x0 + w, maxY: y0 + h)
                if behind { said += 1; #expect(highest < -1e-3, "box \(x0), \(y0), \(w) x \(h): a point \(highest) from the horizon") }
                if highest < -0.05 { clear += 1; #expect(behind, "box \(x0), \(y0), \(w) x \(h) wholly behind (\(highest)) not said to be") }
            }
            #expect(said > 20 && clear > 20, "\(said) said behind, \(clear) clearly behind")
        }
    }
}
