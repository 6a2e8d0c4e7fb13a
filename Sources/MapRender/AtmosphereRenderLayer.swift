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
/// to the viewport, on the bearing; a radius within 1 % of the grid's is taken as the same). Over the globe's face, where MapLibre's glow fades within a
/// few pixels of the edge, nothing is drawn yet.
final class AtmosphereRenderLayer {
    static let angles = 96, heights = 6
    /// The grid: [angle * heights + height], premultiplied rgba.
    private var grid: [SIMD4<Float>] = []
    private struct Key: Equatable {
        var radius: Double, pitch: Double, fieldOfView: Double, width: Double, height: Double
        var sun: SIMD3<Double>, blend: Double

        /// Close enough to draw with the other's grid: the same but for a radius within 1 %
        /// (the grid is by direction and by height within the halo, which a slightly larger
        /// globe scales with it; panning north or south changes the radius a little each frame).
        func allows(_ other: Key) -> Bool {
            var o = other
            o.radius = radius
            return o == self && abs(other.radius - radius) <= radius * 0.01
        }
    }
    private var key: Key?

    func draw(_ atmosphere: GlobeAtmosphere.Draw, _ view: ViewTransform, _ sphere: SphereProjection?, _ t: RenderTarget) {
        guard let globe = view.globe, let sphere, atmosphere.blend > 0 else { return }
        let air = GlobeAtmosphere.airRadius / GlobeAtmosphere.planetRadius
        let centre = sphere.centreOnScreen
        let now = Key(radius: globe.radius, pitch: globe.pitch, fieldOfView: globe.fieldOfView, width: globe.width, height: globe.height,
                      sun: atmosphere.sun, blend: atmosphere.blend)
        if !(key?.allows(now) ?? false) || grid.count != Self.angles * Self.heights {
            fill(globe, sphere, atmosphere, centre: centre, air: air)
            key = now
        }
        let width = t.pixmap.width, buf = t.pixmap.buffer
        let angles = Double(Self.angles), heights = Double(Self.heights - 1)
        let g = grid
        for y in t.rows {
            let py = Double(y) + 0.5
            guard let outer = sphere.discSpan(py, radius: air) else { continue }
            let inner = sphere.discSpan(py)
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
                let h = (sphere.closestApproach(px, py) - 1) / (air - 1) * heights
                guard h >= 0, h <= heights else { continue }
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
                    return UInt32(min(max(v * 255 + under * keep + 0.5, 0), 255)) << shift
                }
                buf[k] = channel(alpha, 24) | channel(c.x, 16) | channel(c.y, 8) | channel(c.z, 0)
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
                let height = 1 + (air - 1) * Double(j) / Double(Self.heights - 1)
                // The distance out from the middle where the line of sight passes at `height`.
                var lo = 0.0, hi = reach
                for _ in 0..<24 {
                    let mid = (lo + hi) / 2
                    if sphere.closestApproach(centre.x + dx * mid, centre.y + dy * mid) < height { lo = mid } else { hi = mid }
                }
                let x = centre.x + dx * hi, y = centre.y + dy * hi
                let p = GlobeAtmosphere.pixel(ray: globe.viewDirection(x: x, y: y), origin: origin, sun: atmosphere.sun, blend: atmosphere.blend)
                grid[i * Self.heights + j] = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), Float(p.w))
            }
        }
    }
}
