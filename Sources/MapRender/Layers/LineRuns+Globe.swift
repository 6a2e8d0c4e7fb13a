import Foundation
import MapCore
import Raster

extension LineRenderLayer {
    /// On the globe: the collected runs without their stretches behind it (each segment with
    /// both ends behind the horizon left out, a run cut where it leaves the seen side and
    /// started again where it comes back), so that strokes go only as far as the horizon
    /// (where the rest of a stroke would land on the globe's edge, cut away there).
    func cutRunsBehind(_ sphere: SphereProjection) {
        guard !runEnds.isEmpty else { return }
        var behind: [Bool] = []
        behind.reserveCapacity(runPoints.count)
        var any = false
        let kept = runUnits.count == 3 * runPoints.count
        for (i, p) in runPoints.enumerated() {
            let v: SIMD3<Double>
            if kept { v = SIMD3(runUnits[3 * i], runUnits[3 * i + 1], runUnits[3 * i + 2]) } else { let m = sphere.mercator(p); v = SphereProjection.unit(m.x, m.y) }
            let b = sphere.side(v) < 0
            behind.append(b)
            any = any || b
        }
        runUnits.removeAll(keepingCapacity: true)
        guard any else { return }
        var points: [Point] = [], ends: [Int] = [], offsets: [Double] = [], closed: [Bool] = [], continues: [Bool] = []
        points.reserveCapacity(runPoints.count)
        var start = 0
        for (r, end) in runEnds.enumerated() {
            defer { start = end }
            let wasClosed = r < runClosed.count && runClosed[r]
            let continuing = r < runContinues.count && runContinues[r]
            let offset = r < runOffsets.count ? runOffsets[r] : 0
            // (A closed ring is walked from its first point round to it again.)
            let count = end - start + (wasClosed ? 1 : 0)
            @inline(__always) func at(_ k: Int) -> Int { start + (k < end - start ? k : 0) }
            if !behind[start..<end].contains(true) {
                // Wholly on the seen side: as it was.
                if !points.isEmpty { ends.append(points.count) }
                points.append(contentsOf: runPoints[start..<end])
                offsets.append(offset); closed.append(wasClosed); continues.append(continuing)
                continue
            }
            var pieces = 0, along = 0.0, open = false
            for k in 1..<max(count, 1) {
                let i0 = at(k - 1), i1 = at(k)
                if !behind[i0] || !behind[i1] {
                    if !open {
                        open = true
                        if !points.isEmpty { ends.append(points.count) }
                        points.append(runPoints[i0])
                        offsets.append(offset + along); closed.append(false); continues.append(pieces > 0 || continuing)
                        pieces += 1
                    }
                    points.append(runPoints[i1])
                } else {
                    open = false
                }
                along += (runPoints[i1] - runPoints[i0]).length
            }
        }
        if !points.isEmpty { ends.append(points.count) }
        // Pieces of one point are no line.
        var keptPoints: [Point] = [], keptEnds: [Int] = [], keptOffsets: [Double] = [], keptClosed: [Bool] = [], keptContinues: [Bool] = []
        var s = 0
        for (j, e) in ends.enumerated() {
            defer { s = e }
            guard e - s >= 2 else { continue }
            keptPoints.append(contentsOf: points[s..<e])
            keptEnds.append(keptPoints.count)
            keptOffsets.append(offsets[j]); keptClosed.append(closed[j]); keptContinues.append(continues[j])
        }
        runPoints = keptPoints; runEnds = keptEnds; runOffsets = keptOffsets; runClosed = keptClosed; runContinues = keptContinues
    }

    /// On the globe: the collected runs (on the flat screen) laid on the screen, each segment
    /// cut on the globe's subdivision grid and its points projected; a run is cut where it goes
    /// behind the horizon (found by halving) and goes on where it comes back.
    func projectRunsOntoScreen(_ sphere: SphereProjection) {
        var points: [Point] = [], ends: [Int] = [], offsets: [Double] = [], closed: [Bool] = [], continues: [Bool] = []
        points.reserveCapacity(runPoints.count * 2)
        var start = 0
        func seen(_ p: Point) -> (Bool, SIMD3<Double>) {
            let m = sphere.mercator(p)
            let v = SphereProjection.unit(m.x, m.y)
            return (sphere.side(v) >= 0, v)
        }
        // (Run point i's place on the sphere as `collectRuns` kept it, when it did.)
        let kept = runUnits.count == 3 * runPoints.count
        func seen(at i: Int) -> (Bool, SIMD3<Double>) {
            guard kept else { return seen(runPoints[i]) }
            let v = SIMD3(runUnits[3 * i], runUnits[3 * i + 1], runUnits[3 * i + 2])
            return (sphere.side(v) >= 0, v)
        }
        defer { runUnits.removeAll(keepingCapacity: true) }
        for (r, end) in runEnds.enumerated() {
            defer { start = end }
            guard end > start else { continue }
            let wasClosed = r < runClosed.count && runClosed[r]
            let continuing = r < runContinues.count && runContinues[r]
            let offset = r < runOffsets.count ? runOffsets[r] : 0
            var pieceStart = points.count, pieces = 0, along = 0.0, open = false
            func begin() {
                if open { return }
                open = true
                pieceStart = points.count
                offsets.append(offset + along); closed.append(false); continues.append(pieces > 0 || continuing)
                pieces += 1
            }
            func finish() {
                guard open else { return }
                open = false
                if points.count - pieceStart >= 2 { ends.append(points.count) } else {
                    points.removeSubrange(pieceStart...); offsets.removeLast(); closed.removeLast(); continues.removeLast()
                }
            }
            var prev = runPoints[start]
            var (prevSeen, prevV) = seen(at: start)
            var allSeen = prevSeen
            if prevSeen { begin(); points.append(sphere.screen(prevV, flat: prev)) }
            let count = end - start + (wasClosed ? 1 : 0)
            for k in 1..<max(count, 1) {
                let index = start + (k < end - start ? k : 0)
                let p = runPoints[index]
                let pm = sphere.mercator(prev), m = sphere.mercator(p)
                let cells = (abs(m.x - pm.x) + abs(m.y - pm.y)) / sphere.step
                let n = cells <= 1 ? 1 : Int(min(cells.rounded(.up), 1024))
                var last = prev
                for j in 1...n {
                    let f = Double(j) / Double(n)
                    let q = j == n ? p : Point(prev.x + (p.x - prev.x) * f, prev.y + (p.y - prev.y) * f)
                    let (qSeen, qV) = j == n ? seen(at: index) : seen(q)
                    if qSeen != prevSeen {
                        // The horizon between `last` and `q`, by halving.
                        var lo = 0.0, hi = 1.0
                        for _ in 0..<14 {
                            let mid = (lo + hi) / 2
                            if seen(Point(last.x + (q.x - last.x) * mid, last.y + (q.y - last.y) * mid)).0 == prevSeen { lo = mid } else { hi = mid }
                        }
                        let c = Point(last.x + (q.x - last.x) * lo, last.y + (q.y - last.y) * lo)
                        let cm = sphere.mercator(c)
                        let cs = sphere.screen(sphere.onSeenSide(SphereProjection.unit(cm.x, cm.y)), flat: c)
                        if prevSeen { points.append(cs); finish() } else { begin(); points.append(cs) }
                    }
                    if qSeen { points.append(sphere.screen(qV, flat: q)) } else { allSeen = false }
                    prevSeen = qSeen; prevV = qV; last = q
                }
                along += (p - prev).length
                prev = p
            }
            finish()
            // A ring wholly seen stays closed.
            if pieces == 1 && wasClosed && closed.count == offsets.count && !closed.isEmpty && ends.last == points.count {
                if allSeen {
                    closed[closed.count - 1] = true
                    points.removeLast()
                    ends[ends.count - 1] = points.count
                }
            }
        }
        runPoints = points; runEnds = ends; runOffsets = offsets; runClosed = closed; runContinues = continues
    }
}

extension LineRenderLayer {
    /// On the globe: each segment of the collected runs cut on the globe's subdivision grid, on
    /// the flat screen, so that the triangles of a mesh made from them bend with the sphere.
    /// `progress` (one value per point, or empty) is interpolated onto the new points.
    func subdivideRuns(_ sphere: SphereProjection, progress: inout [Double]) {
        let tracks = progress.count == runPoints.count
        var points: [Point] = [], ends: [Int] = [], values: [Double] = []
        points.reserveCapacity(runPoints.count * 2)
        var start = 0
        for end in runEnds {
            defer { start = end }
            guard end > start else { continue }
            points.append(runPoints[start])
            if tracks { values.append(progress[start]) }
            for i in (start + 1)..<end {
                let a = runPoints[i - 1], b = runPoints[i]
                let ma = sphere.mercator(a), mb = sphere.mercator(b)
                let cells = (abs(mb.x - ma.x) + abs(mb.y - ma.y)) / sphere.step
                let n = cells <= 1 ? 1 : Int(min(cells.rounded(.up), 1024))
                for j in 1...n {
                    let f = Double(j) / Double(n)
                    points.append(j == n ? b : Point(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f))
                    if tracks { values.append(j == n ? progress[i] : progress[i - 1] + (progress[i] - progress[i - 1]) * f) }
                }
            }
            ends.append(points.count)
        }
        runPoints = points; runEnds = ends
        if tracks { progress = values }
    }
}

/// A line mesh on the globe: vertices on the flat screen laid on the sphere, extruded as wide
/// on the sphere as at the screen's centre; the far side laid at the globe's edge and cut
/// there.
struct GlobeLineSurface: LineSurface {
    let sphere: SphereProjection
    /// The cosine of the latitude at the screen's centre.
    let centreCos: Double

    /// How much wider on the flat screen a line is stroked at flat point `p` to be as wide on
    /// the sphere as at the centre: cos(centre latitude) / cos(latitude), blended by the
    /// globeness (MapLibre's line thickness on the globe).
    func widthScale(_ p: Point) -> Double {
        let k = centreCos / max(sphere.cosLatitude(atFlat: p), 1e-3)
        return 1 + (k - 1) * sphere.globeness
    }

    func place(_ x: Double, _ y: Double, extrusion ex: Double, _ ey: Double) -> (x: Double, y: Double, seen: Bool) {
        let k = widthScale(Point(x, y))
        let p = Point(x + ex * k, y + ey * k)
        let m = sphere.mercator(p)
        let v = SphereProjection.unit(m.x, m.y)
        let seen = sphere.side(v) >= 0
        let q = sphere.screen(seen ? v : sphere.onSeenSide(v), flat: p)
        return (q.x, q.y, seen)
    }

    func span(row y: Double) -> (Double, Double)? { sphere.discSpan(y) }
}
