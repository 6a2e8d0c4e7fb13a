import Foundation
import MapCore
import Raster

/// The glow of the air about the globe (`GlobeAtmosphere`), over the layers as MapLibre draws
/// it, in the halo between the globe's edge and the air's top; each pixel shaded from the
/// shader's values at the corners of its 8-pixel cell on its side of the edge (the glow changes
/// slowly; the ray march costs a few hundred operations a sample). Over the globe's face, where
/// MapLibre's glow fades within a few pixels of the edge, nothing is drawn yet: at this cell
/// size it came out in patches.
final class AtmosphereRenderLayer {
    static let cell = 8
    /// The samples of the cells' corners this frame (NaN: not worked out yet), and their grid.
    private var samples: [SIMD4<Float>] = []
    /// Whether each sample's line of sight meets the globe (the glow jumps at its edge: a pixel
    /// is shaded only from the corners on its own side of it, where it has any).
    private var onGlobe: [Bool] = []
    private var columns = 0, firstRow = 0
    /// What the samples were worked out for: the glow seen depends only on the camera's place
    /// relative to the sphere and on the sun (not on the longitude under it, nor on the bearing
    /// with the sun anchored to the viewport), so a still camera, or a globe turning under it,
    /// keeps them.
    private struct Key: Equatable {
        var radius: Double, pitch: Double, fieldOfView: Double, width: Double, height: Double
        var sun: SIMD3<Double>, blend: Double, rows: Range<Int>
    }
    private var key: Key?

    func draw(_ atmosphere: GlobeAtmosphere.Draw, _ view: ViewTransform, _ sphere: SphereProjection?, _ t: RenderTarget) {
        guard let globe = view.globe, let sphere, atmosphere.blend > 0 else { return }
        let origin = globe.atmosphereCamera, sun = atmosphere.sun, blend = atmosphere.blend
        let air = GlobeAtmosphere.airRadius / GlobeAtmosphere.planetRadius
        let cell = Self.cell, width = t.pixmap.width
        columns = width / cell + 2
        firstRow = t.rows.lowerBound / cell
        let rowCount = (t.rows.upperBound - 1) / cell - firstRow + 2
        let nan = SIMD4<Float>(.nan, .nan, .nan, .nan)
        let now = Key(radius: globe.radius, pitch: globe.pitch, fieldOfView: globe.fieldOfView, width: globe.width, height: globe.height,
                      sun: sun, blend: blend, rows: t.rows)
        if samples.count < columns * rowCount {
            samples = [SIMD4<Float>](repeating: nan, count: columns * rowCount)
            onGlobe = [Bool](repeating: false, count: columns * rowCount)
        } else if now != key {
            for i in 0..<(columns * rowCount) { samples[i] = nan }
        }
        key = now
        func sample(_ i: Int, _ j: Int) -> SIMD4<Float> {
            let k = (j - firstRow) * columns + i
            if !samples[k].x.isNaN { return samples[k] }
            let x = Double(i * cell) + 0.5, y = Double(j * cell) + 0.5
            let p = GlobeAtmosphere.pixel(ray: globe.viewDirection(x: x, y: y), origin: origin, sun: sun, blend: blend)
            let v = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), Float(p.w))
            samples[k] = v
            onGlobe[k] = sphere.discSpan(y).map { x > $0.0 && x < $0.1 } ?? false
            return v
        }
        let buf = t.pixmap.buffer
        for y in t.rows {
            let py = Double(y) + 0.5
            guard let outer = sphere.discSpan(py, radius: air) else { continue }
            let inner = sphere.discSpan(py)
            let x0 = max(0, Int((outer.0 - 0.5).rounded(.up))), x1 = min(width - 1, Int((outer.1 - 0.5).rounded(.down)))
            guard x0 <= x1 else { continue }
            let j = y / cell, fy = Float(y - j * cell) / Float(cell)
            let skipFrom = inner.map { Double($0.0) } ?? .infinity, skipTo = inner.map { Double($0.1) } ?? -.infinity
            let row = y * width
            var x = x0
            while x <= x1 {
                // One cell's stretch of the row: its corners fetched once, blended down to the row.
                let i = x / cell, cellEnd = min(x1, (i + 1) * cell - 1)
                // (Over the globe's face: on to where it ends.)
                if Double(x) + 0.5 > skipFrom && Double(cellEnd) + 0.5 < skipTo {
                    x = max(cellEnd + 1, Int((skipTo - 0.5).rounded(.up)))
                    continue
                }
                defer { x = cellEnd + 1 }
                let c00 = sample(i, j), c10 = sample(i + 1, j), c01 = sample(i, j + 1), c11 = sample(i + 1, j + 1)
                let peak = Swift.max(Swift.max(c00.max(), c10.max()), Swift.max(c01.max(), c11.max()))
                guard peak > 0.5 / 255 else { continue }
                let base = (j - firstRow) * columns + i
                let g00 = onGlobe[base], g10 = onGlobe[base + 1], g01 = onGlobe[base + columns], g11 = onGlobe[base + columns + 1]
                let mixed = !(g00 == g10 && g00 == g01 && g00 == g11)
                let rowGlobe = sphere.discSpan(Double(y) + 0.5)
                let left = c00 + (c01 - c00) * fy, right = c10 + (c11 - c10) * fy
                for px in x...cellEnd {
                    let centre = Double(px) + 0.5
                    if centre > skipFrom && centre < skipTo { continue }
                    let fx = Float(px - i * cell) / Float(cell)
                    var c = left + (right - left) * fx
                    if mixed {
                        // Across the globe's edge: the corners on this pixel's side alone.
                        let own = rowGlobe.map { centre > $0.0 && centre < $0.1 } ?? false
                        var w = SIMD4<Float>((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
                        w *= SIMD4<Float>(g00 == own ? 1 : 0, g10 == own ? 1 : 0, g01 == own ? 1 : 0, g11 == own ? 1 : 0)
                        let total = w.sum()
                        if total > 0 { c = (c00 * w[0] + c10 * w[1] + c01 * w[2] + c11 * w[3]) / total }
                    }
                    // Premultiplied rgb and alpha, over what is there (the glow's colour may pass
                    // its opacity: each channel added, capped).
                    let a = min(max(c.w, 0), 1)
                    let k = row + px, d = buf[k], keep = 1 - a
                    func channel(_ v: Float, _ shift: UInt32) -> UInt32 {
                        let under = Float((d >> shift) & 255)
                        return UInt32(min(max(v * 255 + under * keep + 0.5, 0), 255)) << shift
                    }
                    buf[k] = channel(a, 24) | channel(c.x, 16) | channel(c.y, 8) | channel(c.z, 0)
                }
            }
        }
    }
}
