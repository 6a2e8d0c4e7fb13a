import Foundation

/// Lines cut into triangles the way the reference GPU engines (MapLibre GL JS and Native) cut
/// them, so that `LineShading` can shade them the way their line shader does.
///
/// Every vertex sits on the line and carries an extrusion: a vector, in units of the line's
/// outer half-width, that moves it out to the stroke's side, and the two flags of the shader's
/// `v_normal` (round: x = 1; up: y = +1, else -1). Interpolated over a triangle, the length of
/// that normal is the distance from the centre line in half-widths, which is all the shader
/// needs. Segments are quads; joins are miters, bevels (one pie slice), flipped bevels for very
/// sharp corners, fake-round fans, or round caps on both sides; caps are butt, square, or round.
/// The engines' own artefacts come along on purpose: inner miter vertices overshooting short
/// segments, aliased butt ends (no fade across a cap), triangles overlapping at joins.
///
/// The mesh keeps its storage between lines: `removeAll()` then `add` for each run.
public struct LineMesh {
    public struct Vertex: Equatable {
        /// The vertex on the line, in device pixels.
        public var x: Double, y: Double
        /// The extrusion in outer half-widths, quantised to 1/63 as the engines store it.
        public var ex: Double, ey: Double
        /// `v_normal`: x is 1 for round-cap vertices, y is +1 (up) or -1.
        public var nx: Double, ny: Double
        /// -1, 0 or 1: which way a round or square end's extrusion turns (it turns an offset too).
        public var direction: Double
    }

    public private(set) var vertices: [Vertex] = []
    /// Three vertex indices per triangle, in the order the engines emit them (and blend them).
    public private(set) var triangles: [Int32] = []
    /// With `tracksProgress` (gradients), for each vertex: how far along its line it is
    /// (`line-progress`, 0...1) and device pixels along its run from the run's start (dashes).
    public private(set) var progresses: [Double] = []
    public private(set) var alongs: [Double] = []
    /// Whether `progresses` and `alongs` are kept (set before adding runs).
    public var tracksProgress = false

    // The last three vertices emitted (-1: none), as the engines' strip-like emission keeps them.
    private var e1 = -1, e2 = -1, e3 = -1
    private var scratch: [Point] = []
    /// The progress of each point of `scratch` (empty: the run has none) and of the vertices emitted now.
    private var progressScratch: [Double] = []
    private var vertexProgress = 0.0
    private var alongScratch: [Double] = []
    private var vertexAlong = 0.0

    /// The engines' corner tolerances: joins sharper than 75 degrees get extra vertices near the
    /// corner; fake-round joins use a triangle per 20 degrees; bevel joins use a miter limit of 1.05.
    static let cosHalfSharpCorner = cos(75.0 / 2 * Double.pi / 180)
    static let degreesPerTriangle = 20.0

    public init() {}

    public mutating func removeAll() {
        vertices.removeAll(keepingCapacity: true)
        triangles.removeAll(keepingCapacity: true)
        progresses.removeAll(keepingCapacity: true)
        alongs.removeAll(keepingCapacity: true)
    }

    /// Adds one run of points (device pixels; `closed`: a ring, its last point joined back to the
    /// first with no caps). `sharpCornerOffset` is how far (px) from a sharp corner the extra
    /// vertices go: 15 px at the zoom of the tile the line comes from, 0 for none.
    /// `progress`: each point's progress along its line (gradients), nil for none;
    /// `measuresAlong`: each vertex's distance along the run is kept (dashes of gradients). Both
    /// are recorded only with `tracksProgress`.
    public mutating func add(_ points: UnsafeBufferPointer<Point>, closed: Bool, cap: LineCap, join: LineJoin,
                             miterLimit: Double, roundLimit: Double = 1.05, sharpCornerOffset: Double = 0,
                             progress: UnsafeBufferPointer<Double>? = nil, measuresAlong: Bool = false) {
        // A ring is handled as the engines handle polygon outlines: with its first point repeated
        // at the end.
        scratch.removeAll(keepingCapacity: true)
        progressScratch.removeAll(keepingCapacity: true)
        vertexProgress = 0
        for (k, q) in points.enumerated() where q.x.isFinite && q.y.isFinite {
            scratch.append(q)
            if let progress, k < progress.count { progressScratch.append(progress[k]) }
        }
        if progressScratch.count != scratch.count { progressScratch.removeAll(keepingCapacity: true) }
        if closed, let first = scratch.first, scratch.count >= 2, first != scratch[scratch.count - 1] {
            scratch.append(first)
            if let p = progressScratch.first { progressScratch.append(p) }
        }
        let hasProgress = !progressScratch.isEmpty
        alongScratch.removeAll(keepingCapacity: true)
        vertexAlong = 0
        if measuresAlong {
            var total = 0.0
            for (k, q) in scratch.enumerated() {
                if k > 0 { total += (q - scratch[k - 1]).length }
                alongScratch.append(total)
            }
        }
        var prevProgress = 0.0
        var len = scratch.count
        while len >= 2 && scratch[len - 1] == scratch[len - 2] { len -= 1 }
        var first = 0
        while first < len - 1 && scratch[first] == scratch[first + 1] { first += 1 }
        guard len >= (closed ? 3 : 2) else { return }
        let coords = scratch

        let miterLimit = join == .bevel ? 1.05 : miterLimit
        let beginCap: LineCap = closed ? .butt : cap, endCap: LineCap = closed ? .butt : cap
        var startOfLine = true
        var current: Point? = nil, prev: Point? = nil, next: Point? = nil
        var prevNormal: Point? = nil, nextNormal: Point? = nil
        e1 = -1; e2 = -1; e3 = -1

        if closed {
            current = coords[len - 2]
            if hasProgress { vertexProgress = progressScratch[len - 2] }
            nextNormal = perp(unit(coords[first] - coords[len - 2]))
        }

        for i in first..<len {
            if closed && i == len - 1 {
                next = coords[first + 1]
            } else if i + 1 < len {
                next = coords[i + 1]
            } else {
                next = nil
            }
            if let n = next, coords[i] == n { continue }
            if let n = nextNormal { prevNormal = n }
            if let c = current { prev = c }
            var cur = coords[i]
            current = cur
            if hasProgress {
                prevProgress = vertexProgress
                vertexProgress = progressScratch[i]
            }
            if measuresAlong { vertexAlong = alongScratch[i] }
            nextNormal = next.map { perp(unit($0 - cur)) } ?? prevNormal
            if prevNormal == nil { prevNormal = nextNormal }
            guard let pn = prevNormal, let nn = nextNormal else { continue }

            // The join's extrusion bisects the two segments' normals (zero for a U-turn, whose
            // miter is then infinitely long).
            var joinNormal = pn + nn
            if joinNormal.x != 0 || joinNormal.y != 0 { joinNormal = unit(joinNormal) }
            let cosAngle = pn.dot(nn)
            let cosHalfAngle = joinNormal.dot(nn)
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : Double.infinity
            let approxAngle = 2 * (2 - 2 * cosHalfAngle).squareRoot()
            let isSharpCorner = cosHalfAngle < Self.cosHalfSharpCorner && prev != nil && next != nil

            if isSharpCorner && i > first && sharpCornerOffset > 0, let p = prev {
                let length = (cur - p).length
                if length > 2 * sharpCornerOffset {
                    let np = cur - (cur - p) * (sharpCornerOffset / length)
                    let here = vertexProgress
                    vertexProgress = here - (here - prevProgress) * (sharpCornerOffset / length)
                    vertexAlong -= sharpCornerOffset
                    addCurrentVertex(np, pn, 0, 0, round: false)
                    vertexProgress = here
                    vertexAlong += sharpCornerOffset
                    prev = np
                }
            }

            let middle = prev != nil && next != nil
            var currentJoin: Join = join == .miter ? .miter : (join == .bevel ? .bevel : .round)
            let currentCap = next != nil ? beginCap : endCap
            if middle {
                if currentJoin == .round {
                    if miterLength < roundLimit { currentJoin = .miter } else if miterLength <= 2 { currentJoin = .fakeRound }
                }
                if currentJoin == .miter && miterLength > miterLimit { currentJoin = .bevel }
                if currentJoin == .bevel {
                    // Extrusions are stored up to 2 widths: a longer bevel is drawn flipped.
                    if miterLength > 2 { currentJoin = .flipBevel }
                    if miterLength < miterLimit { currentJoin = .miter }
                }
            }

            if middle && currentJoin == .miter {
                addCurrentVertex(cur, joinNormal * miterLength, 0, 0, round: false)
            } else if middle && currentJoin == .flipBevel {
                var n: Point
                if miterLength > 100 {
                    n = nn * -1                 // (almost parallel)
                } else {
                    let direction: Double = pn.cross(nn) > 0 ? -1 : 1
                    let bevelLength = miterLength * (pn + nn).length / (pn - nn).length
                    n = perp(joinNormal) * (bevelLength * direction)
                }
                addCurrentVertex(cur, n, 0, 0, round: false)
                addCurrentVertex(cur, n * -1, 0, 0, round: false)
            } else if middle && (currentJoin == .bevel || currentJoin == .fakeRound) {
                let turnsLeft = pn.cross(nn) > 0
                let offset = -(miterLength * miterLength - 1).squareRoot()
                let offsetA = turnsLeft ? offset : 0, offsetB = turnsLeft ? 0 : offset
                if !startOfLine { addCurrentVertex(cur, pn, offsetA, offsetB, round: false) }
                if currentJoin == .fakeRound {
                    // Pie slices every 20 degrees, spread by an approximate spherical interpolation.
                    let slices = (approxAngle * 180 / Double.pi / Self.degreesPerTriangle).rounded(.toNearestOrAwayFromZero)
                    let n = slices >= 0 && slices <= 18 ? Int(slices) : 0
                    if n > 1 {
                        for m in 1..<n {
                            var t = Double(m) / Double(n)
                            if t != 0.5 {
                                let t2 = t - 0.5
                                let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                                let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                                t = t + t * t2 * (t - 1) * (a * t2 * t2 + b)
                            }
                            addPieSliceVertex(cur, unit(pn * (1 - t) + nn * t), turnsLeft: turnsLeft)
                        }
                    }
                }
                if next != nil { addCurrentVertex(cur, nn, -offsetA, -offsetB, round: false) }
            } else if !middle && currentCap == .butt {
                if !startOfLine { addCurrentVertex(cur, pn, 0, 0, round: false) }
                if next != nil { addCurrentVertex(cur, nn, 0, 0, round: false) }
            } else if !middle && currentCap == .square {
                if !startOfLine {
                    addCurrentVertex(cur, pn, 1, 1, round: false)
                    e1 = -1; e2 = -1
                }
                if next != nil { addCurrentVertex(cur, nn, -1, -1, round: false) }
            } else if middle ? currentJoin == .round : currentCap == .round {
                if !startOfLine {
                    addCurrentVertex(cur, pn, 0, 0, round: false)
                    addCurrentVertex(cur, pn, 1, 1, round: true)
                    e1 = -1; e2 = -1
                }
                if next != nil {
                    addCurrentVertex(cur, nn, -1, -1, round: true)
                    addCurrentVertex(cur, nn, 0, 0, round: false)
                }
            }

            if isSharpCorner && i < len - 1 && sharpCornerOffset > 0, let n = next {
                let length = (cur - n).length
                if length > 2 * sharpCornerOffset {
                    let nc = cur + (n - cur) * (sharpCornerOffset / length)
                    if hasProgress, let k = nextIndex(i, len: len, first: first, closed: closed) {
                        vertexProgress += (progressScratch[k] - vertexProgress) * (sharpCornerOffset / length)
                    }
                    vertexAlong += sharpCornerOffset
                    addCurrentVertex(nc, nn, 0, 0, round: false)
                    cur = nc
                    current = nc
                }
            }
            startOfLine = false
        }
    }

    private enum Join { case miter, bevel, round, fakeRound, flipBevel }

    /// The index of the point after `i` (a ring's last goes on to its second).
    private func nextIndex(_ i: Int, len: Int, first: Int, closed: Bool) -> Int? {
        if closed && i == len - 1 { return first + 1 }
        return i + 1 < len ? i + 1 : nil
    }

    @inline(__always) private func perp(_ p: Point) -> Point { Point(-p.y, p.x) }
    @inline(__always) private func unit(_ p: Point) -> Point {
        let m = p.length
        return m > 0 ? Point(p.x / m, p.y / m) : p
    }
    /// The engines store an extrusion component as a byte: round(63 e) + 128.
    @inline(__always) private func quantised(_ v: Double) -> Double {
        min(max((v * 63).rounded(.toNearestOrAwayFromZero), -128), 127) / 63
    }

    private mutating func emit(_ p: Point, _ e: Point, round: Bool, up: Bool, direction: Double) {
        vertices.append(Vertex(x: p.x, y: p.y, ex: quantised(e.x), ey: quantised(e.y), nx: round ? 1 : 0, ny: up ? 1 : -1,
                               direction: direction))
        if tracksProgress { progresses.append(vertexProgress); alongs.append(vertexAlong) }
        e3 = vertices.count - 1
        if e1 >= 0 && e2 >= 0 { triangles.append(Int32(e1)); triangles.append(Int32(e2)); triangles.append(Int32(e3)) }
    }

    /// The two vertices either side of the line at `p`, extruded along `normal` and `±normal`
    /// and pulled back along the line by `endLeft` / `endRight` normals (caps, bevel closes).
    private mutating func addCurrentVertex(_ p: Point, _ normal: Point, _ endLeft: Double, _ endRight: Double, round: Bool) {
        var e = normal
        if endLeft != 0 { e = e - perp(normal) * endLeft }
        emit(p, e, round: round, up: false, direction: Self.direction(endLeft))
        e1 = e2; e2 = e3
        e = normal * -1
        if endRight != 0 { e = e - perp(normal) * endRight }
        emit(p, e, round: round, up: true, direction: Self.direction(-endRight))
        e1 = e2; e2 = e3
    }

    /// The byte the engines keep of an end's pull: truncated toward zero, then its sign.
    @inline(__always) static func direction(_ v: Double) -> Double {
        let t = v.rounded(.towardZero)
        return t > 0 ? 1 : (t < 0 ? -1 : 0)
    }

    private mutating func addPieSliceVertex(_ p: Point, _ extrude: Point, turnsLeft: Bool) {
        emit(p, extrude * (turnsLeft ? -1 : 1), round: false, up: turnsLeft, direction: 0)
        if turnsLeft { e2 = e3 } else { e1 = e3 }
    }
}
