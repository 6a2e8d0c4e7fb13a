import Foundation
import MapCore
import Raster

/// The camera of a frame as fill-extrusion layers use it: world pixels relative to the view's
/// centre (x east, y south, z up) to (x w, y w, w), where (x, y) is the screen position and w
/// the clip w (the depth along the view axis), and the eye's position.
struct ExtrusionCamera {
    /// Rows of the affine map: screen x times w, screen y times w, w.
    let sx: SIMD4<Double>, sy: SIMD4<Double>, sw: SIMD4<Double>
    let near: Double, far: Double
    /// The eye in the same world pixels.
    let eye: SIMD3<Double>
    /// The centre in world pixels, the world's size, and world pixels per metre at the centre.
    let centerX: Double, centerY: Double, worldSize: Double, pixelsPerMetre: Double
    /// 24-bit window depth of w: depthScale x (1 - near / w) (MapLibre's projection, depth range 0...1).
    let depthScale: Double

    init(_ view: ViewTransform) {
        let p = ViewTransform.perspective(view.camera, view.size)
        worldSize = p.worldSize
        centerX = p.centerX; centerY = p.centerY
        near = p.near; far = p.far
        // The map is affine in world pixels: found from four points about the centre.
        let d = 64.0
        func clip(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Double> {
            let s = p.project(MercatorPoint(x: (p.centerX + x) / p.worldSize, y: (p.centerY + y) / p.worldSize), height: z)
            return SIMD3(s.x * s.w, s.y * s.w, s.w)
        }
        let o = clip(0, 0, 0), ex = (clip(d, 0, 0) - o) / d, ey = (clip(0, d, 0) - o) / d, ez = (clip(0, 0, d) - o) / d
        sx = SIMD4(ex.x, ey.x, ez.x, o.x); sy = SIMD4(ex.y, ey.y, ez.y, o.y); sw = SIMD4(ex.z, ey.z, ez.z, o.z)
        let ctc = p.cameraToCenterDistance
        eye = SIMD3(-sin(p.bearing) * ctc * sin(p.pitch), cos(p.bearing) * ctc * sin(p.pitch), ctc * cos(p.pitch))
        let lat = view.camera.center.lat * Double.pi / 180
        pixelsPerMetre = p.worldSize / (2 * Double.pi * 6371008.8 * max(cos(lat), 1e-9))
        depthScale = p.far / (p.far - p.near) * 16_777_215
    }

    /// Whether the box (world pixels about the centre) from `base` to `height` may cover a pixel
    /// of `rows` (false only when all its corners are in front of the camera and project outside).
    func mayShow(minX: Double, minY: Double, maxX: Double, maxY: Double, base: Double, height: Double, width: Int, rows: Range<Int>) -> Bool {
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        for i in 0..<8 {
            let c = clip(i & 1 == 0 ? minX : maxX, i & 2 == 0 ? minY : maxY, i & 4 == 0 ? base : height)
            guard c.z > near else { return true }
            let sx = c.x / c.z, sy = c.y / c.z
            x0 = min(x0, sx); x1 = max(x1, sx); y0 = min(y0, sy); y1 = max(y1, sy)
        }
        return x1 >= -1 && x0 <= Double(width) + 1 && y1 >= Double(rows.lowerBound) - 1 && y0 <= Double(rows.upperBound) + 1
    }

    /// (x w, y w, w) of a world point.
    @inline(__always) func clip(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Double> {
        let v = SIMD4(x, y, z, 1)
        return SIMD3((sx * v).sum(), (sy * v).sum(), (sw * v).sum())
    }

    /// The linear part of the map applied to a direction.
    @inline(__always) func direction(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Double> {
        let v = SIMD4(x, y, z, 0)
        return SIMD3((sx * v).sum(), (sy * v).sum(), (sw * v).sum())
    }
}

/// One planar face of an extrusion (a wall, or a roof with its holes) on its way to pixels: its
/// rings clipped to the near and far planes in clip space, projected, and filled by pixel
/// centres (as a GPU fills triangles without multisampling), with what is affine on screen over
/// a planar face: 1 / w, and u / w, v / w of its two parameters.
struct ExtrusionFace {
    /// Clipped rings, projected: x, y per point; `ringEnds[i]` ends ring i.
    var points: [SIMD2<Double>] = []
    var ringEnds: [Int] = []
    /// Scratch: the ring being clipped (clip-space points).
    private var ring: [SIMD3<Double>] = [], half: [SIMD3<Double>] = []
    /// Screen (x, y, 1) to (u / w, v / w, 1 / w).
    var inverse = (SIMD3<Double>(), SIMD3<Double>(), SIMD3<Double>())
    var minY = Double.infinity, maxY = -Double.infinity

    mutating func reset() {
        points.removeAll(keepingCapacity: true); ringEnds.removeAll(keepingCapacity: true)
        minY = .infinity; maxY = -.infinity
    }

    /// Sets the face's plane: world point `origin` + u `du` + v `dv` (world pixels). False when
    /// the face is seen edge-on (it covers no pixel).
    mutating func setPlane(_ cam: ExtrusionCamera, origin: SIMD3<Double>, du: SIMD3<Double>, dv: SIMD3<Double>) -> Bool {
        let c0 = cam.clip(origin.x, origin.y, origin.z)
        let cu = cam.direction(du.x, du.y, du.z), cv = cam.direction(dv.x, dv.y, dv.z)
        // M = [cu cv c0] (columns); its inverse's rows by cofactors.
        let r0 = simd_cross3(cv, c0), r1 = simd_cross3(c0, cu), r2 = simd_cross3(cu, cv)
        let det = (cu * r0).sum()
        guard det.isFinite, abs(det) > 1e-300 else { return false }
        inverse = (r0 / det, r1 / det, r2 / det)
        return true
    }

    /// Adds a ring of clip-space points (x w, y w, w), clipped to near <= w <= far.
    mutating func addRing(_ input: [SIMD3<Double>], near: Double, far: Double) {
        // (Copied into the face's own storage: assigning would share the caller's, and the clip
        // would copy it.)
        ring.removeAll(keepingCapacity: true)
        ring.append(contentsOf: input)
        // (Most faces lie wholly between the planes.)
        if !input.allSatisfy({ $0.z >= near && $0.z <= far }) {
            clip(&ring, into: &half) { $0.z - near }
            clip(&half, into: &ring) { far - $0.z }
        }
        guard ring.count >= 3 else { return }
        for c in ring {
            // (Snapped to 1/256 pixel, as a GPU's rasterizer holds vertex positions: an edge
            // through pixel centres then covers them by the fill rule, not by rounding noise.)
            let p = (SIMD2(c.x / c.z, c.y / c.z) * 256).rounded(.toNearestOrEven) / 256
            points.append(p)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        ringEnds.append(points.count)
    }

    /// Sutherland-Hodgman against one plane (`inside` >= 0 keeps): a ring of any shape clipped
    /// so, filled with the others by non-zero winding, covers the part inside.
    private func clip(_ input: inout [SIMD3<Double>], into out: inout [SIMD3<Double>], _ inside: (SIMD3<Double>) -> Double) {
        out.removeAll(keepingCapacity: true)
        guard let last = input.last else { return }
        var prev = last, dp = inside(last)
        for c in input {
            let dc = inside(c)
            if (dc >= 0) != (dp >= 0) {
                let t = dp / (dp - dc)
                out.append(prev + (c - prev) * t)
            }
            if dc >= 0 { out.append(c) }
            prev = c; dp = dc
        }
    }

    /// An edge that is not level: the rows of pixel centres `lo <= y < hi` it crosses, its x at
    /// y = 0 and dx / dy, and its direction (+1 down, -1 up) for the winding.
    struct Edge {
        var lo: Double, hi: Double, x: Double, slope: Double, direction: Double
    }

    /// Appends the face's edges that are not level to `edges`, sorted by `lo` unless `convex`
    /// (see `scan`); returns the rows of `rows` whose pixel centres the face may cover.
    func appendEdges(to edges: inout [Edge], convex: Bool, rows: Range<Int>) -> Range<Int> {
        guard !ringEnds.isEmpty, minY <= maxY else { return rows.lowerBound..<rows.lowerBound }
        let top = max(rows.lowerBound, Int(max(min((minY - 0.5).rounded(.up), 1e9), -1e9)))
        let bottom = min(rows.upperBound, Int(max(min((maxY - 0.5).rounded(.up), 1e9), -1e9)))
        guard top < bottom else { return rows.lowerBound..<rows.lowerBound }
        let first = edges.count
        var start = 0
        for end in ringEnds {
            var j = end - 1
            for i in start..<end {
                let a = points[j], b = points[i]
                j = i
                guard a.y != b.y else { continue }
                let slope = (b.x - a.x) / (b.y - a.y)
                edges.append(Edge(lo: min(a.y, b.y), hi: max(a.y, b.y), x: a.x - a.y * slope, slope: slope, direction: b.y > a.y ? 1 : -1))
            }
            start = end
        }
        // (Sorted where they lie: sorting the slice would copy it.)
        if !convex {
            edges.withUnsafeMutableBufferPointer { all in
                var mine = UnsafeMutableBufferPointer(rebasing: all[first...])
                mine.sort { $0.lo < $1.lo }
            }
        }
        return top..<bottom
    }

    /// Calls `span(y, x0, x1)` for the pixels of each row of `rows` (x in 0..<width) whose centres
    /// the face of `edges` (from `appendEdges`) covers, by non-zero winding. `convex`: one convex
    /// ring (a wall), which crosses a row twice at most. `active` and `crossings` are scratch.
    @inline(__always)
    static func scan(_ edges: UnsafeBufferPointer<Edge>, rows: Range<Int>, width: Int, convex: Bool,
                     active: inout [Int32], crossings: inout [SIMD2<Double>], _ span: (Int, Int, Int) -> Void) {
        if convex {
            for y in rows {
                let yc = Double(y) + 0.5
                var lo = Double.infinity, hi = -Double.infinity
                for e in edges where e.lo <= yc && yc < e.hi {
                    let x = e.x + yc * e.slope
                    lo = min(lo, x); hi = max(hi, x)
                }
                guard lo < hi else { continue }
                let x0 = max(0, pixelIndex(lo)), x1 = min(width, pixelIndex(hi))
                if x0 < x1 { span(y, x0, x1) }
            }
            return
        }
        // (Scratch as large as the face's edges, used through pointers: no growth checks per row.)
        if active.count < edges.count {
            active = [Int32](repeating: 0, count: edges.count)
            crossings = [SIMD2<Double>](repeating: .zero, count: edges.count)
        }
        active.withUnsafeMutableBufferPointer { active in
            crossings.withUnsafeMutableBufferPointer { crossings in
                // The edges a row's centre line crosses: those begun (edges come sorted by `lo`)
                // and not yet ended.
                var count = 0, next = 0
                for y in rows {
                    let yc = Double(y) + 0.5
                    var kept = 0
                    for k in 0..<count where yc < edges[Int(active[k])].hi { active[kept] = active[k]; kept += 1 }
                    count = kept
                    while next < edges.count && edges[next].lo <= yc {
                        if yc < edges[next].hi { active[count] = Int32(next); count += 1 }
                        next += 1
                    }
                    guard count >= 2 else { continue }
                    // (Insertion sort: a face crosses a row a few times.)
                    for k in 0..<count {
                        let e = edges[Int(active[k])]
                        let c = SIMD2(e.x + yc * e.slope, e.direction)
                        var i = k
                        while i > 0 && crossings[i - 1].x > c.x { crossings[i] = crossings[i - 1]; i -= 1 }
                        crossings[i] = c
                    }
                    var winding = 0.0
                    for i in 0..<(count - 1) {
                        winding += crossings[i].y
                        guard winding != 0 else { continue }
                        let x0 = max(0, pixelIndex(crossings[i].x)), x1 = min(width, pixelIndex(crossings[i + 1].x))
                        if x0 < x1 { span(y, x0, x1) }
                    }
                }
            }
        }
    }
}

@inline(__always) func simd_cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
