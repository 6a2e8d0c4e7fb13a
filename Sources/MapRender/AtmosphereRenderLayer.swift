import Foundation
import MapCore
import Raster

/// The glow of the air about the globe (`GlobeAtmosphere`), over the layers as MapLibre draws
/// it, in the halo between the globe's edge and the air's top. The halo is a few pixels thick and
/// the ray march costs a few hundred operations a sample, so the shader's values are worked out on
/// a polar grid about the disc's middle, `angles` directions by `heights` lines of sight from
/// grazing the globe to grazing the air's top, and each pixel is shaded from the four around it
/// (by its direction and by how near its own line of sight passes the globe's centre). The grid is
/// kept while the camera's place relative to the sphere stays (a still window, or a globe turning
/// under it: the glow does not depend on the longitude under the camera nor, with the sun anchored
/// to the viewport, on the bearing; a radius within 1 % of the grid's is taken as the same).
///
/// Over the globe's face the glow is smooth but for the line past which the sun's light reaches
/// the air only through the planet (there it drops at once): the shader's values are worked
/// out on a grid of `faceCell`-pixel cells and each pixel taken bilinearly from its cell's
/// corners (a corner past the globe's edge takes the value just inside it), unless the cell's
/// middle differs from that by more than `faceTolerance`, when its quarters are taken the same
/// way, down to single pixels.
/// The face is kept while the camera's place relative to the sphere and the globe's place on
/// screen stay (a still window, a globe turning east or west under it; a radius within 0.3 %).
final class AtmosphereRenderLayer {
    static let faceCell = 16
    static let faceTolerance: Float = 2 / 255
    static let angles = 96, heights = 24

    /// The grid's lines of sight are spaced by the square root of their height within the halo:
    /// the air thins by e every 8 km of the 100 (`GlobeAtmosphere`), so the glow changes fastest
    /// where the line of sight grazes the globe, and evenly spaced lines there put the glow's
    /// edge pixels off by a fifth of their opacity.
    @inline(__always) static func gridHeight(share: Double) -> Double { share.squareRoot() }
    @inline(__always) static func share(gridHeight g: Double) -> Double { g * g }
    /// The grid: [angle * heights + height], premultiplied rgba.
    private var grid: [SIMD4<Float>] = []
    private struct Key: Equatable {
        var radius: Double, pitch: Double, fieldOfView: Double, width: Double, height: Double
        var sun: SIMD3<Double>, blend: Double

        /// Close enough to draw with the other's values: the same but for a radius within
        /// `share` of this one (panning north or south changes the radius a little each frame).
        func allows(_ other: Key, within share: Double) -> Bool {
            var o = other
            o.radius = radius
            return o == self && abs(other.radius - radius) <= radius * share
        }
    }
    private var key: Key?
    /// The face: premultiplied rgba packed per pixel of `faceRows` (0: nothing), for `faceKey`.
    private var face: [UInt32] = []
    private var faceRows = 0..<0
    /// The face's runs of pixels that are not nothing, [x0, x1): row r of `faceRows`'s are
    /// `faceRuns[faceRowRuns[r] ..< faceRowRuns[r + 1]]` (most of the face is nothing: the glow
    /// shows over it near the edge).
    private var faceRuns: [SIMD2<Int32>] = []
    private var faceRowRuns: [Int] = []
    private struct FaceKey {
        var key: Key, centre: Point, rows: Range<Int>, pixmapWidth: Int

        /// Close enough to draw with the other's face: the same but for a radius within 0.3 %
        /// and the globe's middle within a quarter pixel (the face then lies within about a
        /// pixel of where it would be worked out anew, at the edge of a globe 350 pixels across).
        func allows(_ other: FaceKey) -> Bool {
            key.allows(other.key, within: 0.003) && other.rows == rows && other.pixmapWidth == pixmapWidth
                && abs(other.centre.x - centre.x) <= 0.25 && abs(other.centre.y - centre.y) <= 0.25
        }
    }
    private var faceKey: FaceKey?

    func draw(_ atmosphere: GlobeAtmosphere.Draw, _ view: ViewTransform, _ sphere: SphereProjection?, _ t: RenderTarget) {
        guard let globe = view.globe, let sphere, atmosphere.blend > 0 else { return }
        let air = GlobeAtmosphere.airRadius / GlobeAtmosphere.planetRadius
        let centre = sphere.centreOnScreen
        let now = Key(radius: globe.radius, pitch: globe.pitch, fieldOfView: globe.fieldOfView, width: globe.width, height: globe.height,
                      sun: atmosphere.sun, blend: atmosphere.blend)
        // (The grid is by direction and by height within the halo, which a slightly larger
        // globe scales with it: a radius within 1 % keeps it.)
        if !(key?.allows(now, within: 0.01) ?? false) || grid.count != Self.angles * Self.heights {
            fill(globe, sphere, atmosphere, centre: centre, air: air)
            key = now
        }
        let width = t.pixmap.width, buf = t.pixmap.buffer
        let nowFace = FaceKey(key: now, centre: centre, rows: t.rows, pixmapWidth: width)
        if !(faceKey?.allows(nowFace) ?? false) {
            fillFace(globe, sphere, atmosphere, rows: t.rows, width: width)
            faceKey = nowFace
        }
        drawFace(sphere, t)
        let angles = Double(Self.angles), heights = Double(Self.heights - 1)
        let g = grid
        for y in t.rows {
            let py = Double(y) + 0.5
            guard let outer = sphere.discSpan(py, radius: air) else { continue }
            let inner = sphere.discSpan(py, radius: 1)
            let x0 = max(0, Int((outer.0 - 0.5).rounded(.up))), x1 = min(width - 1, Int((outer.1 - 0.5).rounded(.down)))
            guard x0 <= x1 else { continue }
            let row = y * width
            var x = x0
            while x <= x1 {
                let px = Double(x) + 0.5
                if let inner, px > inner.0, px < inner.1 {
                    // (Over the globe's face: on to where it ends.)
                    x = max(x + 1, Int((inner.1 - 0.5).rounded(.up)))
                    continue
                }
                defer { x += 1 }
                // Where the pixel is on the grid: its direction, and its line of sight's height.
                var a = atan2(py - centre.y, px - centre.x) / (2 * Double.pi) * angles
                if a < 0 { a += angles }
                let share = (sphere.closestApproach(px, py) - 1) / (air - 1)
                guard share >= 0, share <= 1 else { continue }
                let h = Self.gridHeight(share: share) * heights
                let i0 = Int(a) % Self.angles, i1 = (i0 + 1) % Self.angles, fa = Float(a - a.rounded(.down))
                let j0 = min(Int(h), Self.heights - 2), fh = Float(h - Double(j0))
                let top = g[i0 * Self.heights + j0] + (g[i1 * Self.heights + j0] - g[i0 * Self.heights + j0]) * fa
                let bottom = g[i0 * Self.heights + j0 + 1] + (g[i1 * Self.heights + j0 + 1] - g[i0 * Self.heights + j0 + 1]) * fa
                let c = top + (bottom - top) * fh
                let alpha = min(max(c.w, 0), 1)
                guard alpha > 0.5 / 255 || c.x > 0.5 / 255 || c.y > 0.5 / 255 || c.z > 0.5 / 255 else { continue }
                // Premultiplied rgb and alpha over what is there (the glow's colour may pass its
                // opacity: each channel added, capped).
                let k = row + x, d = buf[k], keep = 1 - alpha
                func channel(_ v: Float, _ shift: UInt32) -> UInt32 {
                    let under = Float((d >> shift) & 255)
                    // (NaN, where the shader's exponentials overflow, as nothing.)
                    let f = v * 255 + under * keep + 0.5
                    return (f > 0 ? (f < 255 ? UInt32(f) : 255) : 0) << shift
                }
                buf[k] = channel(alpha, 24) | channel(c.x, 16) | channel(c.y, 8) | channel(c.z, 0)
            }
        }
    }

    /// Blends the kept face over the target's rows.
    private func drawFace(_ sphere: SphereProjection, _ t: RenderTarget) {
        let width = t.pixmap.width, buf = t.pixmap.buffer
        guard face.count == faceRows.count * width, faceRowRuns.count == faceRows.count + 1 else { return }
        for y in t.rows where faceRows.contains(y) {
            let r = y - faceRows.lowerBound
            guard faceRowRuns[r] < faceRowRuns[r + 1], let span = sphere.discSpan(Double(y) + 0.5, radius: 1) else { continue }
            let x0 = max(0, Int((span.0 - 0.5).rounded(.up))), x1 = min(width, Int((span.1 - 0.5).rounded(.down)) + 1)
            guard x0 < x1 else { continue }
            let row = y * width, source = r * width
            for run in faceRuns[faceRowRuns[r]..<faceRowRuns[r + 1]] {
                let from = max(x0, Int(run.x)), to = min(x1, Int(run.y))
                guard from < to else { continue }
                for x in from..<to { buf[row + x] = Self.blend(face[source + x], over: buf[row + x]) }
            }
        }
    }

    /// Premultiplied packed `c` over `d`, each channel capped (the glow's colour may pass its
    /// opacity).
    @inline(__always) static func blend(_ c: UInt32, over d: UInt32) -> UInt32 {
        let keep = 255 - (c >> 24)
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let v = ((c >> shift) & 255) * 255 + ((d >> shift) & 255) * keep + 127
            return min(v / 255, 255) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    /// Works the face out for `rows` (see the type's note).
    private func fillFace(_ globe: GlobeTransform, _ sphere: SphereProjection, _ atmosphere: GlobeAtmosphere.Draw, rows: Range<Int>, width: Int) {
        faceRows = rows
        face = [UInt32](repeating: 0, count: rows.count * width)
        guard !rows.isEmpty, width > 0 else { return }
        let origin = globe.atmosphereCamera, sun = atmosphere.sun, blend = atmosphere.blend
        let middle = sphere.centreOnScreen
        // The shader's value at screen point (x, y); for a point past the globe's edge, the
        // value just inside the edge towards the middle (the face's values run on smoothly to
        // the edge, where the glow's jumps).
        func value(_ x: Double, _ y: Double) -> SIMD4<Float> {
            var x = x, y = y
            if sphere.closestApproach(x, y) >= 1 - 1e-6 {
                var lo = 0.0, hi = 1.0      // (towards the middle: 0 here, 1 there)
                for _ in 0..<16 {
                    let f = (lo + hi) / 2
                    if sphere.closestApproach(x + (middle.x - x) * f, y + (middle.y - y) * f) < 1 - 1e-6 { hi = f } else { lo = f }
                }
                x += (middle.x - x) * hi; y += (middle.y - y) * hi
            }
            let p = GlobeAtmosphere.pixel(ray: globe.viewDirection(x: x, y: y), origin: origin, sun: sun, blend: blend)
            return SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), Float(p.w))
        }
        func pack(_ v: SIMD4<Float>) -> UInt32 {
            // (NaN, where the shader's exponentials overflow, as nothing.)
            func q(_ f: Float) -> UInt32 { f > 0 ? (f < 1 ? UInt32(f * 255 + 0.5) : 255) : 0 }
            return q(v.w) << 24 | q(v.x) << 16 | q(v.y) << 8 | q(v.z)
        }
        // The rows of the band the disc reaches, and their spans.
        var spans: [(Int, Int)?] = []
        spans.reserveCapacity(rows.count)
        for y in rows {
            guard let s = sphere.discSpan(Double(y) + 0.5, radius: 1) else { spans.append(nil); continue }
            let x0 = max(0, Int((s.0 - 0.5).rounded(.up))), x1 = min(width, Int((s.1 - 0.5).rounded(.down)) + 1)
            spans.append(x0 < x1 ? (x0, x1) : nil)
        }
        let cell = Self.faceCell
        let top = rows.lowerBound
        let cellRows = (rows.count + cell - 1) / cell
        // The value at pixel (x, y)'s centre, worked out once when first needed (neighbouring
        // cells share their corners, neighbouring squares the middles of their sides).
        var known: [Int: SIMD4<Float>] = [:]
        func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            let k = y * (width + 1) + x
            if let v = known[k] { return v }
            let v = value(Double(x) + 0.5, Double(y) + 0.5)
            known[k] = v
            return v
        }

        for j in 0..<cellRows {
            let y0 = top + j * cell, y1 = min(y0 + cell, rows.upperBound)
            // The columns the disc reaches in this cell's rows.
            var lo = width, hi = 0
            for y in y0..<y1 { if let s = spans[y - top] { lo = min(lo, s.0); hi = max(hi, s.1) } }
            guard lo < hi else { continue }
            for i in (lo / cell)...((hi - 1) / cell) {
                let x0 = i * cell
                square(x0, y0, cell, pixel(x0, y0), pixel(x0 + cell, y0), pixel(x0, y0 + cell), pixel(x0 + cell, y0 + cell))
            }
        }
        faceRuns = []
        faceRowRuns = [0]
        faceRowRuns.reserveCapacity(rows.count + 1)
        for r in 0..<rows.count {
            var x = 0
            let row = r * width
            while x < width {
                guard face[row + x] != 0 else { x += 1; continue }
                let start = x
                while x < width && face[row + x] != 0 { x += 1 }
                faceRuns.append(SIMD2(Int32(start), Int32(x)))
            }
            faceRowRuns.append(faceRuns.count)
        }

        // The square of `size` pixels from (x0, y0) with the values at its corners: bilinear when
        // its middle is as the corners give it, else its four quarters the same way (a pixel's
        // own value at the end).
        func square(_ x0: Int, _ y0: Int, _ size: Int, _ c00: SIMD4<Float>, _ c10: SIMD4<Float>, _ c01: SIMD4<Float>, _ c11: SIMD4<Float>) {
            let x1 = min(x0 + size, width), y1 = min(y0 + size, rows.upperBound)
            guard x0 < x1, y0 < y1 else { return }
            var reached = false
            for y in y0..<y1 { if let s = spans[y - top], max(x0, s.0) < min(x1, s.1) { reached = true; break } }
            guard reached else { return }
            if size == 1 {
                face[(y0 - top) * width + x0] = pack(c00)
                return
            }
            let half = size / 2
            let m = pixel(x0 + half, y0 + half)
            let d = m - (c00 + c10 + c01 + c11) * 0.25
            if max(max(Swift.abs(d.x), Swift.abs(d.y)), max(Swift.abs(d.z), Swift.abs(d.w))) > Self.faceTolerance {
                let n = pixel(x0 + half, y0), so = pixel(x0 + half, y0 + size)
                let w = pixel(x0, y0 + half), e = pixel(x0 + size, y0 + half)
                square(x0, y0, half, c00, n, w, m)
                square(x0 + half, y0, half, n, c10, m, e)
                square(x0, y0 + half, half, w, m, c01, so)
                square(x0 + half, y0 + half, half, m, e, so, c11)
                return
            }
            for y in y0..<y1 {
                guard let s = spans[y - top], max(x0, s.0) < min(x1, s.1) else { continue }
                let fy = Float(y - y0) / Float(size)
                let row = (y - top) * width
                for x in max(x0, s.0)..<min(x1, s.1) {
                    let fx = Float(x - x0) / Float(size)
                    let a = c00 + (c10 - c00) * fx, b = c01 + (c11 - c01) * fx
                    face[row + x] = pack(a + (b - a) * fy)
                }
            }
        }
    }

    /// The grid's values: for each direction about the disc's middle, the screen points along it
    /// whose lines of sight pass the globe's centre at heights from the globe's radius to the
    /// air's top (found by halving), and the shader's value there.
    private func fill(_ globe: GlobeTransform, _ sphere: SphereProjection, _ atmosphere: GlobeAtmosphere.Draw, centre: Point, air: Double) {
        grid = [SIMD4<Float>](repeating: .zero, count: Self.angles * Self.heights)
        let origin = globe.atmosphereCamera
        let reach = (globe.width * globe.width + globe.height * globe.height).squareRoot() * 4
        for i in 0..<Self.angles {
            let angle = Double(i) / Double(Self.angles) * 2 * Double.pi
            let dx = cos(angle), dy = sin(angle)
            for j in 0..<Self.heights {
                let height = 1 + (air - 1) * Self.share(gridHeight: Double(j) / Double(Self.heights - 1))
                // The distance out from the middle where the line of sight passes at `height`.
                var lo = 0.0, hi = reach
                for _ in 0..<24 {
                    let mid = (lo + hi) / 2
                    if sphere.closestApproach(centre.x + dx * mid, centre.y + dy * mid) < height { lo = mid } else { hi = mid }
                }
                let x = centre.x + dx * hi, y = centre.y + dy * hi
                let p = GlobeAtmosphere.pixel(ray: globe.viewDirection(x: x, y: y), origin: origin, sun: atmosphere.sun, blend: atmosphere.blend)
                // (NaN, where the shader's exponentials overflow, as nothing; no infinity, which
                // would make the values interpolated from it NaN.)
                let v = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), Float(p.w))
                grid[i * Self.heights + j] = v.replacing(with: 0, where: .!(v .== v)).clamped(lowerBound: SIMD4(repeating: -1e4), upperBound: SIMD4(repeating: 1e4))
            }
        }
    }
}
