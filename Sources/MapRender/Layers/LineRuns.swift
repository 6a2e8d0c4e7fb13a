import Foundation
import MapCore
import Raster

/// Which stretches of a line are stroked: the runs of screen points the line layer collects
/// (`runPoints`, `runEnds`; where each run starts along its line, whether it is a closed ring and
/// whether it goes on with the run before), from a geometry set culled block by block, from a
/// feature's parts, or cut to the tiles dashes restart in.
extension LineRenderLayer {
    /// Gathers the layer's visible polylines in screen space into `runPoints` / `runEnds`.
    /// Segments wholly outside the viewport grown by `margin` are skipped: the polyline is cut
    /// there into runs, whose ends (and caps) are out of sight.
    func collectRuns(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, _ t: RenderTarget,
                             dashed: Bool) {
        if p.turn == nil {
            collectRuns(g, level, p, margin: margin, t, dashed: dashed, AxisMap.self)
        } else {
            collectRuns(g, level, p, margin: margin, t, dashed: dashed, RotatedMap.self)
        }
    }

    func collectRuns<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, margin: Double, _ t: RenderTarget,
                                           dashed: Bool, _: M.Type) {
        clearRuns()
        let minXView = p.cull.minX - margin, minYView = p.cull.minY - margin
        let maxXView = p.cull.maxX + margin, maxYView = p.cull.maxY + margin
        @inline(__always) func outcode(_ q: Point) -> UInt8 {
            (q.x < minXView ? 1 : 0) | (q.x > maxXView ? 2 : 0) | (q.y < minYView ? 4 : 0) | (q.y > maxYView ? 8 : 0)
        }
        let sphere = p.sphere
        // On the globe, the points' places on the sphere, kept by the set, and the run points'.
        let units = sphere == nil ? [] : g.unitVectors()
        @inline(__always) func keepUnit(_ i: Int) { runUnits.append(units[3 * i]); runUnits.append(units[3 * i + 1]); runUnits.append(units[3 * i + 2]) }
        var runStart = 0
        // Distance along the part where the current run starts: dashes continue across culled
        // stretches, so cutting a line (off screen, or at a band edge) never shifts its pattern.
        var along = 0.0, runAlong = 0.0
        var partRuns = 0                    // the runs before the current part's
        @inline(__always) func endRun() {
            if runPoints.count - runStart >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(runAlong); runContinues.append(runEnds.count - 1 > partRuns)
            } else {
                runPoints.removeLast(runPoints.count - runStart)
                if !units.isEmpty { runUnits.removeLast(runUnits.count - 3 * runStart) }
            }
            runStart = runPoints.count
        }
        g.points.withUnsafeBufferPointer { pts in
            g.blockBoxes.withUnsafeBufferPointer { boxes in
                p.forEachVisibleChunk(g, level, margin: margin, M.self) { chunk, map in
                    @inline(__always) func point(_ i: Int) -> Point { map.point(pts[2 * i], pts[2 * i + 1]) }
                    for part in chunk.parts {
                        let start = g.partOffsets[part], n = g.partLengths[part]
                        guard n >= 2 else { continue }
                        var prev = point(start)
                        var prevCode = outcode(prev)
                        along = 0
                        partRuns = runEnds.count
                        var first = 0
                        for b in g.blockStart[part]..<g.blockStart[part + 1] {
                            let last = min(first + g.blockLength, n - 1)
                            defer { first = last }
                            // A block wholly beyond one side of the grown viewport, or on the
                            // globe wholly behind it: each of its segments would end the run.
                            // (Not for dashes, whose pattern goes on by the length of every
                            // segment.)
                            if !dashed {
                                let (minX, minY, maxX, maxY) = map.box(boxes, b)
                                if maxX < minXView || minX > maxXView || maxY < minYView || minY > maxYView
                                    || sphere?.isBehind(minX: boxes[4 * b], minY: boxes[4 * b + 1], maxX: boxes[4 * b + 2], maxY: boxes[4 * b + 3]) == true {
                                    endRun()
                                    prev = point(start + last); prevCode = outcode(prev)
                                    continue
                                }
                            }
                            for k in (first + 1)...last {
                                let cur = point(start + k)
                                let code = outcode(cur)
                                if prevCode & code != 0 {
                                    endRun()
                                } else {
                                    if runPoints.count == runStart {
                                        runPoints.append(prev); runAlong = along
                                        if !units.isEmpty { keepUnit(start + k - 1) }
                                    }
                                    runPoints.append(cur)
                                    if !units.isEmpty { keepUnit(start + k) }
                                }
                                if dashed { along += (cur - prev).length }
                                prev = cur; prevCode = code
                            }
                        }
                        endRun()
                    }
                }
            }
        }
    }

    /// Cuts the collected runs (solid: their dash offsets are not carried) to where the depth
    /// of `ground` lies in `low...high`: a run that leaves the range ends there, and a new one
    /// starts where it comes back; a closed run cut becomes open pieces (one wholly inside stays).
    func cutRuns(depth ground: GroundProjection, from low: Double, to high: Double) {
        guard runPoints.contains(where: { let w = ground.depth($0.x, $0.y); return !(w >= low && w <= high) }) else { return }
        let points = runPoints, ends = runEnds, closed = runClosed
        clearRuns()
        var start = 0
        for (r, end) in ends.enumerated() {
            defer { start = end }
            let isClosed = r < closed.count && closed[r]
            if points[start..<end].allSatisfy({ let w = ground.depth($0.x, $0.y); return w >= low && w <= high }) {
                runPoints.append(contentsOf: points[start..<end])
                runEnds.append(runPoints.count); runOffsets.append(0); runClosed.append(isClosed)
                continue
            }
            let count = end - start + (isClosed ? 1 : 0)
            guard count >= 2 else { continue }
            @inline(__always) func point(_ i: Int) -> Point { points[start + i % (end - start)] }
            var open = false
            func finish() {
                if open && runPoints.count - (runEnds.last ?? 0) >= 2 {
                    runEnds.append(runPoints.count); runOffsets.append(0); runClosed.append(false)
                } else if open {
                    runPoints.removeLast(runPoints.count - (runEnds.last ?? 0))
                }
                open = false
            }
            for i in 1..<count {
                let a = point(i - 1), b = point(i)
                let wa = ground.depth(a.x, a.y), wb = ground.depth(b.x, b.y)
                // The part of a -> b inside the range (depth is affine along it).
                var t0 = 0.0, t1 = 1.0
                if wa != wb {
                    let tl = (low - wa) / (wb - wa), th = (high - wa) / (wb - wa)
                    t0 = max(t0, min(tl, th)); t1 = min(t1, max(tl, th))
                } else if !(wa >= low && wa <= high) {
                    t1 = -1
                }
                guard t0 < t1 else { finish(); continue }
                let p0 = t0 > 0 ? a + (b - a) * t0 : a, p1 = t1 < 1 ? a + (b - a) * t1 : b
                if !open { runPoints.append(p0); open = true }
                runPoints.append(p1)
                if t1 < 1 { finish() }
            }
            finish()
        }
    }

    /// Every part of a feature as a run for the stroker (rings as closed runs, so their first
    /// vertex is joined like the others).
    /// Forgets the runs collected (keeping the storage; an array already empty is left alone,
    /// as a layer of small features clears them once per feature).
    func clearRuns() {
        if !runPoints.isEmpty { runPoints.removeAll(keepingCapacity: true) }
        if !runEnds.isEmpty { runEnds.removeAll(keepingCapacity: true) }
        if !runOffsets.isEmpty { runOffsets.removeAll(keepingCapacity: true) }
        if !runClosed.isEmpty { runClosed.removeAll(keepingCapacity: true) }
        if !runContinues.isEmpty { runContinues.removeAll(keepingCapacity: true) }
        if !runUnits.isEmpty { runUnits.removeAll(keepingCapacity: true) }
    }

    func collectParts<M: ScreenMap>(_ g: FeatureGeometry, _ map: M, closeRings: Bool) {
        clearRuns()
        let c = g.coordinates
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            let start = runPoints.count
            for i in r {
                let q = map.point(c[2 * i], c[2 * i + 1])
                if runPoints.count > start, runPoints[runPoints.count - 1] == q { continue }
                runPoints.append(q)
            }
            var closed = false
            if closeRings && runPoints.count - start >= 3 {
                if runPoints[start] == runPoints[runPoints.count - 1] { runPoints.removeLast() }
                closed = runPoints.count - start >= 3
            }
            if runPoints.count - start >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(0); runClosed.append(closed)
            } else {
                runPoints.removeLast(runPoints.count - start)
            }
        }
    }

    /// The part t0...t1 of a -> a + d (within `t0...t1` given) inside `box` (Liang-Barsky), or nil.
    @inline(__always)
    func clipSegment(_ a: Point, _ d: Point, _ box: (Double, Double, Double, Double),
                             _ t0: Double, _ t1: Double) -> (Double, Double)? {
        var t0 = t0, t1 = t1
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            return t0 <= t1
        }
        guard edge(-d.x, a.x - box.0), edge(d.x, box.2 - a.x), edge(-d.y, a.y - box.1), edge(d.y, box.3 - a.y) else { return nil }
        return (t0, t1)
    }

    /// Every part of a feature cut to `box` (Liang-Barsky per segment): a new piece starts
    /// wherever the line enters the box, so its dash pattern starts there. Of each piece only
    /// what lies in `view` is collected, as runs whose offsets carry the pattern on from where
    /// the piece starts.
    func collectClippedParts(_ g: FeatureGeometry, _ sx: Double, _ ox: Double, _ sy: Double, _ oy: Double,
                                     box: (Double, Double, Double, Double), view: (Double, Double, Double, Double)) {
        clearRuns()
        let c = g.coordinates
        var start = 0
        var runAlong = 0.0
        var partRuns = 0                    // the runs before the current part's
        func endRun() {
            if runPoints.count - start >= 2 {
                runEnds.append(runPoints.count); runOffsets.append(runAlong); runContinues.append(runEnds.count - 1 > partRuns)
            } else {
                runPoints.removeLast(runPoints.count - start)
            }
            start = runPoints.count
        }
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            endRun()
            partRuns = runEnds.count
            var inPiece = false
            var along = 0.0                 // from the piece's start to where this segment enters the box
            var a = Point(c[2 * r.lowerBound] * sx + ox, c[2 * r.lowerBound + 1] * sy + oy)
            for i in (r.lowerBound + 1)..<r.upperBound {
                let b = Point(c[2 * i] * sx + ox, c[2 * i + 1] * sy + oy)
                defer { a = b }
                let d = b - a
                guard let (t0, t1) = clipSegment(a, d, box, 0, 1) else { endRun(); inPiece = false; continue }
                if t0 > 0 || !inPiece { endRun(); inPiece = true; along = 0 }
                let length = d.length
                if let (s0, s1) = clipSegment(a, d, view, t0, t1) {
                    let q0 = Point(a.x + d.x * s0, a.y + d.y * s0), q1 = Point(a.x + d.x * s1, a.y + d.y * s1)
                    if s0 > t0 || runPoints.count == start {
                        endRun()
                        runPoints.append(q0)
                        runAlong = along + length * (s0 - t0)
                    }
                    if q1 != runPoints[runPoints.count - 1] { runPoints.append(q1) }
                    if s1 < t1 { endRun() }
                } else {
                    endRun()
                }
                along += length * (t1 - t0)
                if t1 < 1 { endRun(); inPiece = false }
            }
            endRun()
        }
    }
}
