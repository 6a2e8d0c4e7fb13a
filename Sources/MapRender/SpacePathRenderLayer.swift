import Foundation
import MapCore
import Raster

/// Paths through space over the globe (`SpacePath`): each point lifted off the sphere by its
/// altitude and projected by the globe's camera; the parts the Earth hides left out (cut where
/// the line of sight grazes it), the parts in its shadow in their own colour; the head a dot
/// with a thin line down to the ground. Owns its stroker.
final class SpacePathRenderLayer {
    private var stroker = Stroker()
    private var run: [Point] = []

    func draw(_ paths: [SpacePath], _ view: ViewTransform, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        guard let globe = view.globe, !paths.isEmpty else { return }
        for path in paths {
            drawLine(path, globe, pixmap, &rasterizer)
            if let head = path.head { drawHead(head, path, globe, pixmap, &rasterizer) }
        }
    }

    private func screen(_ globe: GlobeTransform, _ v: SIMD3<Double>) -> Point {
        let s = globe.project(v)
        return Point(s.x, s.y)
    }

    /// The line, run by run: a run ends where the path goes behind the Earth or into or out of
    /// its shadow (halfway between the samples either side).
    private func drawLine(_ path: SpacePath, _ globe: GlobeTransform, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        let pts = path.points
        guard pts.count >= 2 else { return }
        run.removeAll(keepingCapacity: true)
        var lit = pts[0].lit
        var prev = pts[0].unitVector
        var prevHidden = globe.isHidden(prev)
        if !prevHidden { run.append(screen(globe, prev)) }
        for i in 1..<pts.count {
            let v = pts[i].unitVector
            let hidden = globe.isHidden(v)
            if pts[i].lit != lit {
                // Into or out of the shadow halfway: the run so far ends there, the next starts there.
                let mid = (prev + v) / 2
                let midHidden = globe.isHidden(mid)
                if !midHidden && !prevHidden { run.append(screen(globe, mid)) }
                stroke(path, lit, pixmap, &rasterizer)
                lit = pts[i].lit
                if !midHidden { run.append(screen(globe, mid)) }
                prev = mid; prevHidden = midHidden
            }
            if hidden != prevHidden {
                // Where the line of sight grazes the Earth, by halving.
                var lo = 0.0, hi = 1.0
                for _ in 0..<24 {
                    let m = (lo + hi) / 2
                    if globe.isHidden(prev + (v - prev) * m) == prevHidden { lo = m } else { hi = m }
                }
                let edge = screen(globe, prev + (v - prev) * (prevHidden ? hi : lo))
                if prevHidden {
                    run.append(edge)
                    run.append(screen(globe, v))
                } else {
                    run.append(edge)
                    stroke(path, lit, pixmap, &rasterizer)
                }
            } else if !hidden {
                run.append(screen(globe, v))
            }
            prev = v; prevHidden = hidden
        }
        stroke(path, lit, pixmap, &rasterizer)
    }

    /// Strokes the run collected, in the colour for `lit`, and starts a new one.
    private func stroke(_ path: SpacePath, _ lit: Bool, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        defer { run.removeAll(keepingCapacity: true) }
        guard run.count >= 2 else { return }
        let color = (lit ? path.color : path.shadowColor).premultiplied(opacity: 1)
        run.withUnsafeBufferPointer { stroker.stroke($0, closed: false, style: StrokeStyle(width: path.width, cap: .round, join: .round), into: &rasterizer) }
        rasterizer.fill(pixmap, color: color, rule: .nonZero)
    }

    /// The body now, where it stands clear of the ground under it (towards the globe's edge): a
    /// line down to the ground, then a dot ringed in the path's colour.
    private func drawHead(_ head: SpacePath.Point, _ path: SpacePath, _ globe: GlobeTransform, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        let v = head.unitVector
        guard !globe.isHidden(v) else { return }
        let top = screen(globe, v)
        let ground = GlobeTransform.surface(head.position)
        let foot = screen(globe, ground)
        // (Seen from above, the station stands on its place: the icon there marks it.)
        let groundSeen = !globe.isHidden(ground)
        if groundSeen && (top - foot).length < 8 * path.width { return }
        let color = head.lit ? path.color : path.shadowColor
        if groundSeen {
            run = [top, foot]
            run.withUnsafeBufferPointer {
                stroker.stroke($0, closed: false, style: StrokeStyle(width: max(1, path.width * 0.6), cap: .round), into: &rasterizer)
            }
            rasterizer.fill(pixmap, color: color.premultiplied(opacity: 0.7), rule: .nonZero)
            run.removeAll(keepingCapacity: true)
        }
        let r = path.width * 2.5
        var circle = Path()
        circle.addCircle(center: top, radius: r)
        stroker.stroke(path: circle, style: StrokeStyle(width: path.width), into: &rasterizer)
        rasterizer.fill(pixmap, color: color.premultiplied(opacity: 1), rule: .nonZero)
        Geometry.circle(center: top, radius: r * 0.55, into: &rasterizer)
        rasterizer.fill(pixmap, color: MapCore.Color.white.premultiplied(opacity: 1), rule: .nonZero)
    }
}
