import Foundation
import MapCore
import Raster

/// What a line layer keeps between gradient lines: the progress of each collected point, the
/// mesh and its screen positions.
struct LineGradientScratch {
    var progress: [Double] = []
    var mesh = LineMesh()
    var positions: [Double] = []
}

/// `line-gradient`: a feature's lines cut into the engines' triangles with each vertex's
/// progress along its line, and every pixel coloured from the gradient's ramp at its progress.
extension LineRenderLayer {
    func drawGradient<M: ScreenMap>(_ g: FeatureGeometry, _ paint: LinePaint, _ gradient: LineGradient, _ map: M,
                                    tileZoom: Int?, _ p: Placement, _ t: RenderTarget) {
        collectProgressParts(g, map)
        guard !runEnds.isEmpty else { return }
        // On the globe: cut on its grid, the mesh made on the flat screen and laid on the sphere.
        if let sphere { subdivideRuns(sphere, progress: &gradientScratch.progress) }
        gradientScratch.mesh.removeAll()
        gradientScratch.mesh.tracksProgress = true
        let tz = Double(tileZoom ?? Int(max(p.zoom, 0).rounded(.down)))
        let sharp = 15 * p.world / (512 * exp2(tz))
        var start = 0
        let dashes = paint.dasharray.map { $0 * max(paint.width, 1) }
        runPoints.withUnsafeBufferPointer { all in
            gradientScratch.progress.withUnsafeBufferPointer { progress in
                for end in runEnds {
                    gradientScratch.mesh.add(UnsafeBufferPointer(rebasing: all[start..<end]), closed: false, cap: paint.cap,
                                             join: paint.join, miterLimit: paint.miterLimit, sharpCornerOffset: sharp,
                                             progress: UnsafeBufferPointer(rebasing: progress[start..<end]),
                                             measuresAlong: !dashes.isEmpty)
                    start = end
                }
            }
        }
        let shading = LineShading(width: paint.width, gapWidth: paint.gapWidth, blur: paint.blur, offset: paint.offset,
                                  color: PremultipliedColor(packed: 0))
        gradientScratch.mesh.drawGradient(shading, gradient, opacity: paint.opacity, dashes: dashes, roundDashes: paint.cap == .round,
                                          onto: t.pixmap, rows: t.rows,
                                          surface: sphere.map { GlobeLineSurface(sphere: $0, centreCos: centreCos) },
                                          scratch: &gradientScratch.positions)
    }

    /// Every part of the feature as a run, each point with its progress (0 where the source
    /// measured none).
    private func collectProgressParts<M: ScreenMap>(_ g: FeatureGeometry, _ map: M) {
        runPoints.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        gradientScratch.progress.removeAll(keepingCapacity: true)
        let c = g.coordinates
        let measured = g.lineProgress ?? []
        let hasProgress = measured.count == c.count / 2
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 2 else { continue }
            let start = runPoints.count
            for i in r {
                let q = map.point(c[2 * i], c[2 * i + 1])
                if runPoints.count > start, runPoints[runPoints.count - 1] == q { continue }
                runPoints.append(q)
                gradientScratch.progress.append(hasProgress ? measured[i] : 0)
            }
            if runPoints.count - start >= 2 {
                runEnds.append(runPoints.count)
            } else {
                runPoints.removeLast(runPoints.count - start)
                gradientScratch.progress.removeLast(gradientScratch.progress.count - start)
            }
        }
    }
}
