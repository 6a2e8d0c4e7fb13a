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
}
