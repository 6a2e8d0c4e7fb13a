import Foundation
import Raster

/// One glyph of a line label on screen: where its centre on the line goes and its turn.
///
/// `angle` is in radians, clockwise on the y-down screen, summed as MapLibre sums it (the
/// segment's direction, plus π walking backwards, plus π when the label is flipped) and not
/// brought into (−π, π]: compare it modulo 2π.
struct GlyphPose: Equatable {
    var x: Double
    var y: Double
    var angle: Double
}

/// Labels along roads and rivers (`symbol-placement` `line` and `line-center`) laid out on the
/// screen every placement, glyph by glyph, as MapLibre GL JS does it at run time
/// (`symbol/projection.ts`: `updateLineLabels`, `placeGlyphsAlongLine`, `placeGlyphAlongLine`;
/// collision circles from `symbol/collision_index.ts`: `placeCollisionCircles`).
///
/// Each glyph's centre is found by walking the projected line from the label's anchor, in the
/// direction of the glyph's offset, until the walked distance equals the offset; the glyph turns
/// with the segment it lands on. With keep-upright, the first and last glyphs are placed first
/// and the label is placed again walking the other way (every glyph turned by π) when the first
/// would lie right of the last. Everything here is on the screen, in device pixels, y down; the
/// map has no pitch yet, so the label plane is the screen, MapLibre's clip-space tests become
/// tests on screen points, and the perspective ratio is 1 (kept as a parameter for later).
enum LineLabelLayout {
    /// A line label laid out on the screen.
    struct Placed {
        /// Each glyph's pose, in glyph order (when flipped, the first glyph is at the far end).
        /// Empty when `useVertical` is set.
        var poses: [GlyphPose]
        /// Placed walking the other way to keep the text upright.
        var flipped: Bool
        /// The label runs steeply (rise over run) and has a vertical shaping: MapLibre hides this
        /// horizontal layout and draws the vertical one instead (`place` again with `vertical`).
        var useVertical: Bool
        /// The path on screen from the first glyph to the last, through the line's vertices
        /// between (on the offset polyline with `text-offset` y), for collision circles. It is the
        /// unflipped layout's, as MapLibre's collision index always takes that one.
        var path: [Point]
    }

    /// Lays out a line label's glyphs along its line on screen, as MapLibre does every frame.
    ///
    /// - `vertex(i)` gives the line's i-th vertex on screen; `count` vertices. Vertices are asked
    ///   for lazily, only those the label walks over (and, with a line offset, the one beyond),
    ///   each about once however many glyphs pass it.
    /// - The anchor lies on segment `segment` (between vertices `segment` and `segment + 1`).
    /// - `offsets`: each glyph's centre along the line relative to the anchor, in px, in glyph
    ///   order (MapLibre's glyphOffset.x · fontSize / 24).
    /// - `lineOffsetX`, `lineOffsetY`: `text-offset` in px (already font-scaled). X shifts every
    ///   glyph along the line (against the walk when flipped); y moves the glyphs onto the offset
    ///   polyline (each segment moved along its normal, neighbours meeting at their miter point).
    /// - `keepUpright`: flip labels whose first glyph would be right of their last.
    /// - `rotateGlyphs`: false for `text-rotation-alignment: viewport-glyph` (positions follow the
    ///   line, every angle is 0).
    /// - `hasVertical`: the label has a vertical shaping, which MapLibre switches to when the
    ///   label's rise exceeds its run. `vertical`: this is that vertical shaping's layout (it
    ///   flips when its first glyph would be below its last, and never switches).
    /// - `perspectiveRatio` scales every offset: MapLibre's pitch-scaled font size over the font
    ///   size at the anchor. Always 1 until the map has pitch.
    ///
    /// Returns nil when MapLibre never shows the label: its first or last glyph falls off the
    /// line (then MapLibre finds no collision circles either), or it had to be flipped and
    /// flipped it does not fit.
    static func place(vertex: (Int) -> Point, count: Int, anchor: Point, segment: Int, offsets: [Double],
                      lineOffsetX: Double, lineOffsetY: Double, keepUpright: Bool, rotateGlyphs: Bool,
                      hasVertical: Bool, vertical: Bool = false, perspectiveRatio: Double = 1) -> Placed? {
        guard let firstOffset = offsets.first, let lastOffset = offsets.last,
              segment >= 0, segment + 1 < count else { return nil }
        var line = LineWalk(anchor: anchor, segment: segment, count: count,
                            shiftX: lineOffsetX * perspectiveRatio, offsetY: lineOffsetY * perspectiveRatio)
        let scale = perspectiveRatio
        // The unflipped first and last glyphs: the collision path, and (for more than one
        // glyph) the points the keep-upright test looks at.
        guard let first = line.reach(firstOffset * scale, flip: false, vertex: vertex),
              let last = line.reach(lastOffset * scale, flip: false, vertex: vertex) else { return nil }
        let path = line.collisionPath(from: first, to: last)

        var flip = false
        if keepUpright {
            // A single glyph takes the direction of its anchor's segment.
            let a = offsets.count > 1 ? first.point : anchor
            let b = offsets.count > 1 ? last.point : line.forward.first?.lineTo ?? vertex(segment + 1)
            switch orientation(from: a, to: b, switchesToVertical: hasVertical && !vertical, vertical: vertical) {
            case .switchToVertical: return Placed(poses: [], flipped: false, useVertical: true, path: path)
            case .flip: flip = true
            case .keep: break
            }
        }

        var poses = [GlyphPose]()
        poses.reserveCapacity(offsets.count)
        if !flip {
            for (i, offset) in offsets.enumerated() {
                let reached = i == 0 ? first : i == offsets.count - 1 ? last : line.reach(offset * scale, flip: false, vertex: vertex)
                guard let reached else { return nil }
                poses.append(reached.pose(rotated: rotateGlyphs))
            }
        } else {
            // MapLibre places the flipped first and last glyphs before the rest and hides the
            // label when either falls off; once they fit, every glyph between does.
            guard let flippedFirst = line.reach(firstOffset * scale, flip: true, vertex: vertex),
                  let flippedLast = line.reach(lastOffset * scale, flip: true, vertex: vertex) else { return nil }
            for (i, offset) in offsets.enumerated() {
                let reached = i == 0 ? flippedFirst : i == offsets.count - 1 ? flippedLast : line.reach(offset * scale, flip: true, vertex: vertex)
                guard let reached else { return nil }
                poses.append(reached.pose(rotated: rotateGlyphs))
            }
        }
        return Placed(poses: poses, flipped: flip, useVertical: false, path: path)
    }

    /// What keep-upright does with a label: keep it, flip it, or switch to its vertical shaping.
    enum Orientation { case keep, flip, switchToVertical }

    /// What keep-upright makes of a label running from `a` to `b` (its first and last glyphs,
    /// or a single glyph's anchor and segment end): MapLibre's `requiresOrientationChange`,
    /// which tests clip-space points. There rise is |Δy| and run is |Δx| · width / height, so on
    /// the screen (2/height and 2/width px per clip unit) the switch is |Δy| > |Δx| in pixels,
    /// and clip x grows with screen x while clip y grows against screen y.
    static func orientation(from a: Point, to b: Point, switchesToVertical: Bool, vertical: Bool) -> Orientation {
        if switchesToVertical, abs(b.y - a.y) > abs(b.x - a.x) { return .switchToVertical }
        if vertical ? a.y > b.y : a.x > b.x { return .flip }
        return .keep
    }

    /// MapLibre's collision circles along `path` (a label's `Placed.path`) for a label of
    /// `radius` px (half its diameter max(10, shaping height) · size / 24, times the perspective
    /// ratio, plus `text-padding`), covering only the part of the path within the viewport grown
    /// by `padding` px on every side (MapLibre's viewportPadding, 100). Circles are in screen px
    /// (MapLibre's grid adds the padding to both coordinates).
    ///
    /// Each piece of the clipped path gets circles from a quarter radius after its start to a
    /// quarter radius before its end (at most half its length), evenly spread, at most 2.5 radii
    /// apart along the path; a piece no longer than half a radius gets one circle.
    static func collisionCircles(path: [Point], radius: Double, viewport: (width: Double, height: Double),
                                 padding: Double) -> [(x: Double, y: Double, r: Double)] {
        guard let start = path.first else { return [] }
        let minX = -padding, minY = -padding, maxX = viewport.width + padding, maxY = viewport.height + padding
        var lo = start, hi = start
        for p in path.dropFirst() {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y); hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        var circles: [(x: Double, y: Double, r: Double)] = []
        if lo.x >= minX, hi.x <= maxX, lo.y >= minY, hi.y <= maxY {
            addCircles(along: path, radius: radius, to: &circles)
        } else if !(hi.x < minX || lo.x > maxX || hi.y < minY || lo.y > maxY) {
            for piece in clip(path, minX: minX, minY: minY, maxX: maxX, maxY: maxY) {
                addCircles(along: piece, radius: radius, to: &circles)
            }
        }
        return circles
    }

    /// The circles for one unclipped piece of path (MapLibre's PathInterpolator walk).
    private static func addCircles(along piece: [Point], radius: Double, to circles: inout [(x: Double, y: Double, r: Double)]) {
        guard let start = piece.first else { return }
        var distances = [Double](repeating: 0, count: piece.count)
        for i in piece.indices.dropFirst() { distances[i] = distances[i - 1] + (piece[i] - piece[i - 1]).length }
        let length = distances[distances.count - 1]
        let endPadding = min(radius * 0.25, length * 0.5)
        let paddedLength = length - endPadding * 2
        let n = length <= 0.5 * radius ? 1 : Int((paddedLength / (radius * 2.5)).rounded(.up)) + 1
        for i in 0..<n {
            let t = min(max(Double(i) / Double(max(n - 1, 1)), 0), 1)
            var p = start
            if piece.count > 1 {
                let target = t * paddedLength + endPadding
                var j = 1
                while j < distances.count - 1, distances[j] < target { j += 1 }
                let segmentLength = distances[j] - distances[j - 1]
                let u = segmentLength > 0 ? (target - distances[j - 1]) / segmentLength : 0
                p = Point(piece[j - 1].x * (1 - u) + piece[j].x * u, piece[j - 1].y * (1 - u) + piece[j].y * u)
            }
            circles.append((p.x, p.y, radius))
        }
    }

    /// The pieces of `path` inside the box (MapLibre's `clipLine`): each segment is cut at the
    /// left, top, right and bottom edges in turn (cut points rounded to whole pixels, as
    /// JavaScript's Math.round does), and a segment continues the previous piece only when it
    /// starts where that piece ended.
    static func clip(_ path: [Point], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [[Point]] {
        func round(_ x: Double, _ y: Double) -> Point { Point((x + 0.5).rounded(.down), (y + 0.5).rounded(.down)) }
        var pieces: [[Point]] = []
        guard path.count > 1 else { return pieces }
        for i in 0..<(path.count - 1) {
            var p0 = path[i], p1 = path[i + 1]
            if p0.x < minX && p1.x < minX { continue }
            if p0.x < minX { p0 = round(minX, p0.y + (p1.y - p0.y) * ((minX - p0.x) / (p1.x - p0.x))) }
            else if p1.x < minX { p1 = round(minX, p0.y + (p1.y - p0.y) * ((minX - p0.x) / (p1.x - p0.x))) }
            if p0.y < minY && p1.y < minY { continue }
            if p0.y < minY { p0 = round(p0.x + (p1.x - p0.x) * ((minY - p0.y) / (p1.y - p0.y)), minY) }
            else if p1.y < minY { p1 = round(p0.x + (p1.x - p0.x) * ((minY - p0.y) / (p1.y - p0.y)), minY) }
            if p0.x >= maxX && p1.x >= maxX { continue }
            if p0.x >= maxX { p0 = round(maxX, p0.y + (p1.y - p0.y) * ((maxX - p0.x) / (p1.x - p0.x))) }
            else if p1.x >= maxX { p1 = round(maxX, p0.y + (p1.y - p0.y) * ((maxX - p0.x) / (p1.x - p0.x))) }
            if p0.y >= maxY && p1.y >= maxY { continue }
            if p0.y >= maxY { p0 = round(p0.x + (p1.x - p0.x) * ((maxY - p0.y) / (p1.y - p0.y)), maxY) }
            else if p1.y >= maxY { p1 = round(p0.x + (p1.x - p0.x) * ((maxY - p0.y) / (p1.y - p0.y)), maxY) }
            if let last = pieces.last?.last, last == p0 {
                pieces[pieces.count - 1].append(p1)
            } else {
                pieces.append([p0, p1])
            }
        }
        return pieces
    }
}

/// A line label's line walked from its anchor both ways, step by step (one step per segment),
/// each step computed once however many glyphs walk over it: the same caching MapLibre's
/// projection cache gives, since every walk in one direction takes the same steps.
private struct LineWalk {
    /// One segment walked: from the previous vertex (the anchor at first) to the next one.
    struct Step {
        /// The segment on the line (its direction turns the glyphs).
        var lineFrom: Point, lineTo: Point
        /// The segment glyphs go along: the line's own, or the offset polyline's.
        var from: Point, to: Point
        /// Distance walked before this step, and this step's length (along `from`–`to`).
        var start: Double, length: Double
        /// The vertex this step walks to.
        var index: Int
        /// The vertex after it, when the offset polyline needed it.
        var next: Point?
    }

    /// Where a glyph landed: on step `step` of the walk in `direction`.
    struct Reached {
        var point: Point
        var angle: Double
        var direction: Int
        var step: Int

        func pose(rotated: Bool) -> GlyphPose { GlyphPose(x: point.x, y: point.y, angle: rotated ? angle : 0) }
    }

    let anchor: Point, segment: Int, count: Int
    /// Text-offset x and y in px.
    let shiftX: Double, offsetY: Double
    var forward: [Step] = [], backward: [Step] = []
    /// The line ran out walking that way.
    var forwardEnded = false, backwardEnded = false

    init(anchor: Point, segment: Int, count: Int, shiftX: Double, offsetY: Double) {
        self.anchor = anchor; self.segment = segment; self.count = count; self.shiftX = shiftX; self.offsetY = offsetY
    }

    /// MapLibre's `placeGlyphAlongLine`: the glyph whose centre is `offset` px from the anchor,
    /// walking the way its offset (plus text-offset x) points, or the other way when flipped;
    /// nil when the line ends first.
    mutating func reach(_ offset: Double, flip: Bool, vertex: (Int) -> Point) -> Reached? {
        let combined = flip ? offset - shiftX : offset + shiftX
        var direction = combined > 0 ? 1 : -1
        var turn = 0.0
        if flip { direction = -direction; turn = Double.pi }
        if direction < 0 { turn += Double.pi }
        let distance = abs(combined)
        // The first step whose end lies beyond the distance (MapLibre walks on while the
        // distance walked plus the step's length is at most the glyph's distance).
        var k = 0
        while true {
            if k == (direction > 0 ? forward.count : backward.count) {
                guard extend(direction, vertex: vertex) else { return nil }
            }
            let s = direction > 0 ? forward[k] : backward[k]
            if !(s.start + s.length <= distance) {
                let t = (distance - s.start) / s.length
                let p = Point((s.to.x - s.from.x) * t + s.from.x, (s.to.y - s.from.y) * t + s.from.y)
                let angle = turn + atan2(s.lineTo.y - s.lineFrom.y, s.lineTo.x - s.lineFrom.x)
                return Reached(point: p, angle: angle, direction: direction, step: k)
            }
            k += 1
        }
    }

    /// MapLibre's collision path: the first glyph's walk backwards (without the anchor), then
    /// the last glyph's walk (without the anchor).
    func collisionPath(from first: Reached, to last: Reached) -> [Point] {
        var path = [Point]()
        path.reserveCapacity(first.step + last.step + 2)
        path.append(first.point)
        let firstSteps = first.direction > 0 ? forward : backward
        for k in stride(from: first.step, to: 0, by: -1) { path.append(firstSteps[k].from) }
        let lastSteps = last.direction > 0 ? forward : backward
        for k in stride(from: 1, through: last.step, by: 1) { path.append(lastSteps[k].from) }
        path.append(last.point)
        return path
    }

    /// Walks one more segment in `direction`; false when the line has ended.
    private mutating func extend(_ direction: Int, vertex: (Int) -> Point) -> Bool {
        if direction > 0 ? forwardEnded : backwardEnded { return false }
        let previous = direction > 0 ? forward.last : backward.last
        let index = previous.map { $0.index + direction } ?? (direction > 0 ? segment + 1 : segment)
        guard index >= 0, index < count else {
            if direction > 0 { forwardEnded = true } else { backwardEnded = true }
            return false
        }
        let lineFrom = previous?.lineTo ?? anchor
        let lineTo = previous?.next ?? vertex(index)
        var from = lineFrom, to = lineTo
        var nextVertex: Point?
        if offsetY != 0 {
            // The segment's normal, offset-long, on the same side of the line whichever way it
            // is walked; a zero-length segment (the anchor on a vertex) takes the next one's.
            let along = lineTo - lineFrom
            let nextIndex = index + direction
            nextVertex = nextIndex >= 0 && nextIndex < count ? vertex(nextIndex) : nil
            let normal: Point
            if along.length == 0 {
                normal = nextVertex.map { Self.normal($0 - lineTo, offsetY, direction) } ?? Point(0, 0)
            } else {
                normal = Self.normal(along, offsetY, direction)
            }
            from = previous?.to ?? lineFrom + normal
            // Where this segment's offset line meets the next segment's (MapLibre's
            // findOffsetIntersectionPoint); at the line's end, or when they are parallel, the
            // offset vertex itself.
            to = lineTo + normal
            if let nextVertex {
                let nextNormal = Self.normal(nextVertex - lineTo, offsetY, direction)
                if let meet = Self.intersection(from, to, lineTo + nextNormal, nextVertex + nextNormal) { to = meet }
            }
        }
        let start = previous.map { $0.start + $0.length } ?? 0
        let step = Step(lineFrom: lineFrom, lineTo: lineTo, from: from, to: to, start: start, length: (to - from).length,
                        index: index, next: nextVertex)
        if direction > 0 { forward.append(step) } else { backward.append(step) }
        return true
    }

    /// The unit normal of `v` (its perpendicular (−y, x)) times `offset · direction`; zero for
    /// a zero vector (where MapLibre's would be NaN).
    private static func normal(_ v: Point, _ offset: Double, _ direction: Int) -> Point {
        let length = v.length
        guard length > 0 else { return Point(0, 0) }
        let scale = offset * Double(direction)
        return Point(-(v.y / length) * scale, (v.x / length) * scale)
    }

    /// Where the line through a1 and a2 meets the line through b1 and b2; nil when parallel.
    private static func intersection(_ a1: Point, _ a2: Point, _ b1: Point, _ b2: Point) -> Point? {
        let ady = a2.y - a1.y, adx = a2.x - a1.x, bdy = b2.y - b1.y, bdx = b2.x - b1.x
        let denominator = bdy * adx - bdx * ady
        guard denominator != 0 else { return nil }
        let t = (bdx * (a1.y - b1.y) - bdy * (a1.x - b1.x)) / denominator
        return Point(a1.x + t * adx, a1.y + t * ady)
    }
}
