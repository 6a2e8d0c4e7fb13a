import Foundation
import Raster
import Testing
import TestSupport

/// Reference images of the rasterizer's features, checked against PNGs in References/.
@Suite struct RasterReferenceTests {
    let white = RGBA8(255, 255, 255).premultiplied
    let black = RGBA8(0, 0, 0).premultiplied

    /// A black pixmap to draw on (with a `Rasterizer` of its size).
    func canvas(_ w: Int = 128, _ h: Int = 128) -> Pixmap {
        let p = Pixmap(width: w, height: h)
        p.clear(black)
        return p
    }

    func star(_ c: Point, _ r: Double) -> Path {
        var path = Path()
        for k in 0..<5 {
            let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            let p = Point(c.x + r * cos(a), c.y + r * sin(a))
            if k == 0 { path.moveTo(p) } else { path.lineTo(p) }
        }
        path.close()
        return path
    }

    @Test func fillRules() throws {
        let pm = canvas(256, 128)
        var r = Rasterizer(width: pm.width, height: pm.height)
        star(Point(64, 66), 56).replay(into: &r)
        r.fill(pm, color: white, rule: .nonZero)
        star(Point(192, 66), 56).replay(into: &r)
        r.fill(pm, color: white, rule: .evenOdd)
        // The centre of the star is inside for non-zero, outside for even-odd.
        #expect(pm.color(atX: 64, y: 66) == RGBA8(255, 255, 255))
        #expect(pm.color(atX: 192, y: 66) == RGBA8(0, 0, 0))
        try GoldenImage.check(pm, named: "fill-rules")
    }

    @Test func holesByOrientation() throws {
        let pm = canvas()
        var r = Rasterizer(width: pm.width, height: pm.height)
        var p = Path()
        p.addRect(Rect(minX: 10, minY: 10, maxX: 118, maxY: 118))
        // Hole wound the other way.
        p.moveTo(40, 40); p.lineTo(40, 88); p.lineTo(88, 88); p.lineTo(88, 40); p.close()
        p.replay(into: &r)
        r.fill(pm, color: white)
        #expect(pm.color(atX: 64, y: 64) == RGBA8(0, 0, 0))
        #expect(pm.color(atX: 20, y: 64) == RGBA8(255, 255, 255))
    }

    @Test func subpixelPositionsGiveExactCoverage() {
        // A 1-px wide rectangle shifted by a quarter pixel covers two columns 75 % / 25 %.
        let pm = canvas(8, 4)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var p = Path()
        p.addRect(Rect(minX: 2.25, minY: 0, maxX: 3.25, maxY: 4))
        p.replay(into: &r)
        r.fill(pm, color: white)
        let a = Int(pm.color(atX: 2, y: 1).r), b = Int(pm.color(atX: 3, y: 1).r)
        #expect(abs(a - 191) <= 2 && abs(b - 64) <= 2, "got \(a), \(b)")
        #expect(pm.color(atX: 1, y: 1).r == 0 && pm.color(atX: 4, y: 1).r == 0)
    }

    @Test func adjacentPolygonsHaveNoSeam() {
        // Two triangles sharing a diagonal, added to one rasterizer: the diagonal must vanish.
        let pm = canvas(64, 64)
        var r = Rasterizer(width: pm.width, height: pm.height)
        r.moveTo(Point(3.3, 5.1)); r.lineTo(Point(60.7, 5.1)); r.lineTo(Point(60.7, 58.9)); r.close()
        r.moveTo(Point(3.3, 5.1)); r.lineTo(Point(60.7, 58.9)); r.lineTo(Point(3.3, 58.9)); r.close()
        r.fill(pm, color: white)
        for y in 8..<56 { for x in 8..<56 { #expect(pm[x, y] == white.packed, "seam at \(x),\(y)") } }
    }

    @Test func edgesOutsideTheBoxKeepWinding() {
        // A rectangle much larger than the device, far to the left, still covers everything.
        let pm = canvas(32, 32)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var p = Path()
        p.addRect(Rect(minX: -1e6, minY: -5e5, maxX: 1e6, maxY: 5e5))
        p.replay(into: &r)
        r.fill(pm, color: white)
        #expect(pm[0, 0] == white.packed && pm[31, 31] == white.packed && pm[16, 5] == white.packed)
    }

    @Test func joinsAndCaps() throws {
        let pm = canvas(384, 256)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var s = Stroker()
        let zig = [Point(20, 90), Point(60, 20), Point(100, 90)]
        for (col, join) in LineJoin.allCases.enumerated() {
            for (row, cap) in LineCap.allCases.enumerated() {
                let o = Point(Double(col) * 125, Double(row) * 80 - 10)
                let pts = zig.map { $0 + o }.map { Point($0.x, $0.y * 0.8 + 10) }
                s.stroke(pts, closed: false, style: StrokeStyle(width: 14, cap: cap, join: join, miterLimit: 4), into: &r)
            }
        }
        r.fill(pm, color: white)
        try GoldenImage.check(pm, named: "joins-caps")
    }

    @Test func sharpJoinHasNoSpike() {
        // An acute miter beyond the limit falls back to bevel: nothing far beyond the vertex.
        let pm = canvas(128, 128)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var s = Stroker()
        s.stroke([Point(10, 100), Point(64, 20), Point(70, 100)], closed: false,
                 style: StrokeStyle(width: 10, join: .miter, miterLimit: 2), into: &r)
        r.fill(pm, color: white)
        for y in 0..<12 { for x in 0..<128 { #expect(pm[x, y] == black.packed, "spike at \(x),\(y)") } }
        #expect(pm.color(atX: 64, y: 22).r > 200)
    }

    @Test func wideRoundStrokeIsSmooth() throws {
        let pm = canvas(256, 128)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var s = Stroker()
        s.stroke([Point(30, 90), Point(90, 30), Point(150, 95), Point(220, 40)], closed: false,
                 style: StrokeStyle(width: 40, cap: .round, join: .round), into: &r)
        r.fill(pm, color: RGBA8(255, 255, 255, 128).premultiplied)
        // Translucent: overlapping pieces of one stroke do not double up.
        let c = pm.color(atX: 90, y: 30)
        #expect(abs(Int(c.r) - 128) <= 2, "got \(c)")
        try GoldenImage.check(pm, named: "round-40")
    }

    @Test func dashes() throws {
        let pm = canvas(256, 64)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var s = Stroker()
        s.stroke([Point(8, 16), Point(248, 16)], closed: false, style: StrokeStyle(width: 4, dashes: [20, 10]), into: &r)
        s.stroke([Point(8, 40), Point(128, 56), Point(248, 40)], closed: false,
                 style: StrokeStyle(width: 6, cap: .round, join: .round, dashes: [0, 12]), into: &r)
        r.fill(pm, color: white)
        // First dash covers x in [8, 28), then a gap [28, 38).
        #expect(pm.color(atX: 20, y: 16).r == 255)
        #expect(pm.color(atX: 33, y: 16).r == 0)
        #expect(pm.color(atX: 45, y: 16).r == 255)
        try GoldenImage.check(pm, named: "dashes")
    }

    @Test func hairlines() throws {
        let pm = canvas(128, 128)
        var r = Rasterizer(width: pm.width, height: pm.height)
        var s = Stroker()
        for k in 0..<12 {
            let a = Double(k) * Double.pi / 12
            s.stroke([Point(64, 64), Point(64 + 60 * cos(a), 64 + 60 * sin(a))], closed: false,
                     style: StrokeStyle(width: 0.5 + Double(k) * 0.1), into: &r)
        }
        r.fill(pm, color: white)
        try GoldenImage.check(pm, named: "hairlines")
    }

    /// The coverage of a fixed set of random shapes, to the byte: short coastline-like edges,
    /// long ones, flat and steep ones, ones crossing every side of the device (left of it they
    /// become vertical edges at x = 0), both fill rules, and a band of a taller device. Its hash
    /// was taken before the cell generation was rewritten without branches; a change that
    /// moves any cell's cover or area by one changes it. (Re-record only for an intended change
    /// of the scan conversion, never for a speed-up.)
    @Test func coverageOfRandomShapesIsPinned() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let w = 203, h = 131
        var mask = [UInt8](repeating: 0, count: w * h)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix() {
            for b in mask { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
            mask = [UInt8](repeating: 0, count: w * h)
        }
        var r = Rasterizer(width: w, height: h)
        for shape in 0..<60 {
            // A random walk: steps from a fraction of a pixel to 40 px, the longer ones rarer.
            var p = Point(random() * 260 - 30, random() * 190 - 30)
            var ring = [p]
            let reach = shape % 3 == 0 ? 40.0 : (shape % 3 == 1 ? 4.0 : 1.5)
            for _ in 0..<(20 + Int(random() * 80)) {
                let a = random() * 2 * Double.pi, l = random() * random() * reach
                p = Point(p.x + cos(a) * l * (shape % 5 == 0 ? 6 : 1), p.y + sin(a) * l)
                ring.append(p)
            }
            ring.withUnsafeBufferPointer { r.addPolygon($0) }
            mask.withUnsafeMutableBufferPointer { r.fill(mask: $0.baseAddress!, rule: shape % 2 == 0 ? .nonZero : .evenOdd) }
            mix()
        }
        // A band: rows 40..<100 of a taller device.
        r.reset(width: w, height: 60, originY: 40)
        var band = [UInt8](repeating: 0, count: w * 60)
        for k in 0..<8 {
            let c = Point(Double(k) * 27 + 10, 70 + Double(k % 3) * 20)
            let ring = (0..<40).map { i in
                let a = Double(i) / 40 * 2 * Double.pi
                return Point(c.x + cos(a) * (30 + 9 * random()), c.y + sin(a) * (45 + 9 * random()))
            }
            ring.withUnsafeBufferPointer { r.addPolygon($0) }
        }
        band.withUnsafeMutableBufferPointer { r.fill(mask: $0.baseAddress! - 40 * w) }
        for b in band { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
        #expect(hash == 0x90F7_E2ED_28BC_B0CF, "coverage hash \(String(hash, radix: 16))")
    }
}
