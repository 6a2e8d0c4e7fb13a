import Foundation
import Raster
import Testing

/// Thin lines covered by distance: the profile across a line, its ends, joins counted once,
/// dashes, bands and bad input.
@Suite struct ThinStrokeTests {
    /// The coverage a stroke leaves in the mask, read out (the mask itself is released).
    struct Coverage {
        let width: Int, rows: Range<Int>, values: [UInt8]
        func value(x: Int, y: Int) -> UInt8 {
            guard x >= 0, x < width, rows.contains(y) else { return 0 }
            return values[(y - rows.lowerBound) * width + x]
        }
    }

    func stroked(_ pts: [Point], width: Double = 1, cap: LineCap = .butt, dashes: [Double] = [], closed: Bool = false,
                 size: Int = 40, rows: Range<Int>? = nil) -> Coverage {
        var t = ThinStroke()
        let r = rows ?? 0..<size
        t.reset(width: size, height: r.count, originY: r.lowerBound)
        pts.withUnsafeBufferPointer {
            t.stroke($0, closed: closed, style: StrokeStyle(width: width, cap: cap, dashes: dashes))
        }
        return Coverage(width: size, rows: r, values: r.flatMap { y in (0..<size).map { t.value(x: $0, y: y) } })
    }

    @Test func profileAcrossALineIsTheShadersRamp() {
        // A 1-px horizontal line through the centres of row 10: that row full, its neighbours empty.
        let t = stroked([Point(5, 10.5), Point(35, 10.5)])
        #expect(t.value(x: 20, y: 10) == 255)
        #expect(t.value(x: 20, y: 9) == 0)
        #expect(t.value(x: 20, y: 11) == 0)
        // On the boundary between rows 9 and 10: half in each (distance 0.5 from both centres).
        let u = stroked([Point(5, 10), Point(35, 10)])
        #expect(u.value(x: 20, y: 9) == 128)
        #expect(u.value(x: 20, y: 10) == 128)
        // 0.9 px wide, centred on a row: clamp(0.45 + 0.5 - 0, 0, 1) = 0.95 there.
        let v = stroked([Point(5, 10.5), Point(35, 10.5)], width: 0.9)
        #expect(v.value(x: 20, y: 10) == 242)
        #expect(v.value(x: 20, y: 11) == 0)
    }

    @Test func totalCoverageOfADiagonalMatchesItsArea() {
        // Along a long diagonal the summed coverage is length x width, as exact area would give.
        let t = stroked([Point(3.2, 4.1), Point(36.7, 33.9)], width: 1.4, cap: .butt)
        var sum = 0.0
        for y in 0..<40 { for x in 0..<40 { sum += Double(t.value(x: x, y: y)) / 255 } }
        let length = ((36.7 - 3.2) * (36.7 - 3.2) + (33.9 - 4.1) * (33.9 - 4.1)).squareRoot()
        #expect(abs(sum - length * 1.4) / (length * 1.4) < 0.03, "sum \(sum), area \(length * 1.4)")
    }

    /// Every pixel of the mask against the coverage formula evaluated at every pixel centre, for
    /// random single segments of each cap, width, direction and length: the stroke looks only at
    /// the pixels it thinks it can reach, and a pixel it skips wrongly (a square cap's corner,
    /// the far side of a round end) shows here. (Long segments step along their rows, which may
    /// round a byte the other way: 1 apart at most.)
    @Test func everyPixelMatchesTheCoverageFormula() {
        var rng = SystemRandomNumberGenerator()
        let size = 48
        var worst = 0, covered = 0
        var example = ""
        for _ in 0..<1000 {
            let width = Double.random(in: 0.2...2, using: &rng)
            let cap = [LineCap.butt, .round, .square].randomElement(using: &rng)!
            let a = Point(Double.random(in: 14...34, using: &rng), Double.random(in: 14...34, using: &rng))
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng), len = Double.random(in: 0.3...12, using: &rng)
            let b = Point(a.x + cos(angle) * len, a.y + sin(angle) * len)
            let got = stroked([a, b], width: width, cap: cap, size: size)
            let hw = width / 2, r = hw + 0.5
            let d = Point((b.x - a.x) / len, (b.y - a.y) / len)
            let extend = cap == .square ? hw : 0
            for y in 0..<size {
                for x in 0..<size {
                    let vx = Double(x) + 0.5 - a.x, vy = Double(y) + 0.5 - a.y
                    let t = vx * d.x + vy * d.y, p = abs(vy * d.x - vx * d.y)
                    let e = t < 0 ? -t : (t > len ? t - len : 0)
                    let c = cap == .round || e == 0 ? r - (e * e + p * p).squareRoot()
                                                     : min(r - p, 1) * min(max(extend + 0.5 - e, 0), 1)
                    let expected = Int((min(max(c, 0), 1) * 255).rounded())
                    let off = abs(Int(got.value(x: x, y: y)) - expected)
                    if expected > 0 { covered += 1 }
                    if off > worst { worst = off; example = "\(cap) w \(width) \(a) -> \(b) at (\(x), \(y)): \(got.value(x: x, y: y)) not \(expected)" }
                }
            }
        }
        #expect(worst <= 1, "\(example)")
        #expect(covered > 10_000)
    }

    @Test func buttEndsFadeAtTheEndAndRoundCapsReachPastIt() {
        let butt = stroked([Point(10, 20.5), Point(30, 20.5)], width: 2)
        // Pixel 29's centre lies 0.5 inside the end: full; pixel 30's lies 0.5 past it: empty.
        #expect(butt.value(x: 29, y: 20) == 255)
        #expect(butt.value(x: 30, y: 20) == 0)
        #expect(butt.value(x: 9, y: 20) == 0)
        let round = stroked([Point(10, 20.5), Point(30, 20.5)], width: 2, cap: .round)
        #expect(round.value(x: 30, y: 20) == 255)         // 0.5 past the end, radius 1.5 to zero
        #expect(round.value(x: 32, y: 20) == 0)           // 2.5 past it
        let square = stroked([Point(10, 20.5), Point(30, 20.5)], width: 2, cap: .square)
        #expect(square.value(x: 30, y: 20) == 255)        // the square cap adds half the width
        #expect(square.value(x: 31, y: 20) == 0)
    }

    @Test func aSharpCornerIsCoveredOnce() {
        // A translucent V: where its two arms overlap near the vertex the colour is laid once.
        var t = ThinStroke()
        t.reset(width: 40, height: 40)
        [Point(5, 35), Point(20, 5.5), Point(35, 35)].withUnsafeBufferPointer {
            t.stroke($0, closed: false, style: StrokeStyle(width: 2))
        }
        let pm = Pixmap(width: 40, height: 40)
        pm.clear(PremultipliedColor(packed: 0))
        t.composite(RGBA8(255, 255, 255, 128).premultiplied, onto: pm)
        var maxAlpha = 0
        for y in 0..<40 { for x in 0..<40 { maxAlpha = max(maxAlpha, Int(pm.color(atX: x, y: y).a)) } }
        #expect(maxAlpha == 128)
        #expect(pm.color(atX: 19, y: 5).a == 128)         // at the vertex, where both arms reach
        // Compositing left the mask clear: a second composite paints nothing.
        let again = Pixmap(width: 40, height: 40)
        again.clear(PremultipliedColor(packed: 0))
        t.composite(RGBA8(255, 255, 255).premultiplied, onto: again)
        #expect(again.color(atX: 19, y: 5).a == 0)
    }

    @Test func dashesLeaveGaps() {
        // Dashes of 4 px and gaps of 4 px from x = 2: pixels 2...5 on, 6...9 off, 10...13 on.
        let t = stroked([Point(2, 20.5), Point(38, 20.5)], width: 1, dashes: [4, 4])
        #expect(t.value(x: 3, y: 20) == 255)
        #expect(t.value(x: 7, y: 20) == 0)
        #expect(t.value(x: 8, y: 20) == 0)
        #expect(t.value(x: 11, y: 20) == 255)
        // A dash runs on around a corner: (30, 20.5) -> (30, 30) with the dash still on at the turn.
        let c = stroked([Point(22, 20.5), Point(30.5, 20.5), Point(30.5, 30)], width: 1, dashes: [12, 4])
        #expect(c.value(x: 30, y: 21) == 255)
        #expect(c.value(x: 30, y: 23) == 255)
        #expect(c.value(x: 30, y: 26) == 0)                // 8.5 + 3.5: into the gap
    }

    @Test func bandsTogetherEqualTheWhole() {
        let pts = [Point(1, 3), Point(22.3, 17.8), Point(30, 9), Point(38, 37)]
        let whole = stroked(pts, width: 1.6, size: 40)
        let top = stroked(pts, width: 1.6, size: 40, rows: 0..<17)
        let bottom = stroked(pts, width: 1.6, size: 40, rows: 17..<40)
        for y in 0..<40 {
            for x in 0..<40 {
                let band = y < 17 ? top.value(x: x, y: y) : bottom.value(x: x, y: y)
                #expect(band == whole.value(x: x, y: y), "(\(x), \(y))")
            }
        }
    }

    @Test func clipKeepsTheMaskOutsideItUnpainted() {
        var t = ThinStroke()
        t.reset(width: 40, height: 40)
        [Point(0, 10.5), Point(40, 10.5)].withUnsafeBufferPointer {
            t.stroke($0, closed: false, style: StrokeStyle(width: 1))
        }
        let pm = Pixmap(width: 40, height: 40)
        pm.clear(PremultipliedColor(packed: 0))
        t.composite(RGBA8(255, 255, 255).premultiplied, onto: pm, clip: PixelRect(x0: 10, y0: 0, x1: 20, y1: 40))
        #expect(pm.color(atX: 15, y: 10).a == 255)
        #expect(pm.color(atX: 5, y: 10).a == 0)
        #expect(pm.color(atX: 25, y: 10).a == 0)
        // The clipped-away coverage is cleared too.
        #expect(t.isEmpty && t.value(x: 5, y: 10) == 0)
    }

    @Test func badCoordinatesDrawNothingAndHugeOnesStayCheap() {
        let t = stroked([Point(.nan, 3), Point(10, .infinity), Point(5, 5)], width: 1)
        var any = false
        for y in 0..<40 { for x in 0..<40 where t.value(x: x, y: y) != 0 { any = true } }
        #expect(!any)
        // A segment a billion pixels long across the device: only its visible part is visited.
        let u = stroked([Point(-1e9, -1e9 + 20), Point(1e9, 1e9 + 20)], width: 1)
        #expect(u.value(x: 20, y: 37) == 0)
        #expect(u.value(x: 10, y: 30) == 255)
        // A dot far away (all points the same) is nothing, without trapping.
        let far = stroked([Point(1e300, -1e300), Point(1e300, -1e300)], width: 2, cap: .round)
        #expect(far.values.allSatisfy { $0 == 0 })
        // A dot: all points the same with round caps.
        let d = stroked([Point(20, 20), Point(20, 20)], width: 2, cap: .round)
        #expect(d.value(x: 19, y: 19) == 202)             // 0.71 from the centre: 1.5 - 0.71
        #expect(d.value(x: 22, y: 22) == 0)
    }

    /// Compositing paints exactly the coverage stroked, source-over each pixel as `Blend.over`
    /// does, wherever it lies in a row and however wide the device, and leaves the whole mask
    /// clear for the next layer. (Over a random destination in a translucent colour: the
    /// four-pixel blend must leave uncovered pixels of a group as they were and scale the
    /// others by their own inverse alpha.)
    @Test(arguments: [100, 1280, 2048, 2049, 5000])
    func compositePaintsExactlyTheMaskAndClearsIt(_ width: Int) {
        var rng = SystemRandomNumberGenerator()
        let height = 24
        var t = ThinStroke()
        for round in 0..<2 {
            t.reset(width: width, height: height)
            // Scattered short segments and dots, one touching the last column, one the first.
            var lines: [[Point]] = [[Point(Double(width) - 0.5, 3), Point(Double(width) - 0.5, 9)], [Point(0.2, 12), Point(0.2, 20)]]
            for _ in 0..<40 {
                let x = Double.random(in: 0..<Double(width), using: &rng), y = Double.random(in: 0..<Double(height), using: &rng)
                lines.append([Point(x, y), Point(x + Double.random(in: -9...9, using: &rng), y + Double.random(in: -3...3, using: &rng))])
            }
            for pts in lines { pts.withUnsafeBufferPointer { t.stroke($0, closed: false, style: StrokeStyle(width: 1.4, cap: .round)) } }
            var expected = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { expected[y * width + x] = t.value(x: x, y: y) } }
            let pm = Pixmap(width: width, height: height)
            for i in 0..<(width * height) {
                let a = UInt32.random(in: 0...255, using: &rng)
                pm.pixels[i] = a << 24 | UInt32.random(in: 0...a, using: &rng) << 16 | UInt32.random(in: 0...a, using: &rng) << 8 | UInt32.random(in: 0...a, using: &rng)
            }
            let before = Array(UnsafeBufferPointer(start: pm.pixels, count: width * height))
            let color: UInt32 = 0xB080_6040
            t.composite(PremultipliedColor(packed: color), onto: pm)
            var wrong = 0, left = 0
            for y in 0..<height {
                for x in 0..<width {
                    let a = UInt32(expected[y * width + x]), old = before[y * width + x]
                    let want = a == 0 ? old : Blend.over(a == 255 ? color : Blend.scale(color, a + (a >> 7)), old)
                    if pm[x, y] != want { wrong += 1 }
                    if t.value(x: x, y: y) != 0 { left += 1 }
                }
            }
            #expect(expected.contains { $0 != 0 }, "round \(round): nothing stroked")
            #expect(wrong == 0, "round \(round): \(wrong) pixels differ from the mask")
            #expect(left == 0 && t.isEmpty, "round \(round): \(left) mask pixels left behind")
        }
    }

    /// The mask scan finds exactly the non-zero bytes, in its SSE2 and its portable spelling.
    @Test func byteScanFindsTheNonZeroBytes() {
        var rng = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for k in 0..<5_000 {
            for i in 0..<16 { bytes[i] = k % 3 == 0 ? UInt8.random(in: 0...255, using: &rng) : (Int.random(in: 0..<4, using: &rng) == 0 ? UInt8.random(in: 1...255, using: &rng) : 0) }
            var expected: UInt32 = 0
            for i in 0..<16 where bytes[i] != 0 { expected |= 1 << UInt32(i) }
            bytes.withUnsafeBufferPointer { b in
                #expect(ByteScan.nonZero16(b.baseAddress!) == expected)
                #expect(ByteScan.portable(b.baseAddress!) == expected)
                #if arch(x86_64)
                #expect(ByteScan.sse2(b.baseAddress!) == expected)
                #endif
            }
        }
    }
}

/// The SSE2 row kernel of short segments against the pixel-by-pixel reference.
@Suite struct ThinSegmentRowTests {
    /// Random segments (every pair of ends, joined or not, any direction and length up to a few
    /// pixels), rows and column ranges that cut through them, over random mask bytes: the two
    /// spellings leave every byte alike, including the bytes past the range (the SSE2 form
    /// writes four at a time), and say alike whether they covered anything.
    @Test func sse2EqualsThePixelByPixelKernel() {
        var rng = SystemRandomNumberGenerator()
        let caps: [LineCap] = [.round, .butt, .square]
        let stride = 48
        var differing: [String] = []
        var covered = 0
        for _ in 0..<20_000 {
            let hw = [0.5, 0.75, 1.0, Double.random(in: 0.05...1, using: &rng)].randomElement(using: &rng)!
            let r = hw + 0.5
            let start = caps.randomElement(using: &rng)!, end = caps.randomElement(using: &rng)!
            func reach(_ c: LineCap) -> Double { c == .round ? r : (c == .square ? hw + 0.5 : 0.5) }
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            let len = Double.random(in: 0.01...8, using: &rng)
            let joined = start == .round && Bool.random(using: &rng)
            let s = ThinSegmentRow.Segment(
                ax: Double.random(in: 8...30, using: &rng), ay: Double.random(in: 8...30, using: &rng),
                dx: cos(angle), dy: sin(angle), len: len, r: r,
                lo: joined ? 0 : -reach(start), hi: len + reach(end),
                roundStart: start == .round, roundEnd: end == .round,
                squareStart: start == .square ? hw : 0, squareEnd: end == .square ? hw : 0)
            // A row and columns near the segment, the range often ending inside its reach.
            let y = Int(s.ay) + Int.random(in: -4...4, using: &rng)
            let x0 = Int(s.ax) + Int.random(in: -8...3, using: &rng), x1 = min(stride - 5, x0 + Int.random(in: 0...9, using: &rng))
            let before = (0..<stride).map { _ in Bool.random(using: &rng) ? 0 : UInt8.random(in: 0...255, using: &rng) }
            var reference = before, vector = before
            let a = reference.withUnsafeMutableBufferPointer { ThinSegmentRow.portable(s, y: y, x0: x0, x1: x1, base: $0.baseAddress!) }
            #if arch(x86_64)
            let b = vector.withUnsafeMutableBufferPointer { ThinSegmentRow.sse2(s, y: y, x0: x0, x1: x1, base: $0.baseAddress!, flatEnds: !s.roundEnds) }
            #else
            let b = vector.withUnsafeMutableBufferPointer { ThinSegmentRow.cover(s, y: y, x0: x0, x1: x1, base: $0.baseAddress!) }
            #endif
            if a { covered += 1 }
            if (reference != vector || a != b) && differing.count < 3 { differing.append("\(s) y \(y) x \(x0)...\(x1)") }
        }
        #expect(differing.isEmpty, "\(differing)")
        #expect(covered > 5_000, "too few cases covered anything (\(covered)) to compare")
    }
}
