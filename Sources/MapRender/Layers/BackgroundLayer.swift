import Foundation
import MapCore
import Raster

/// Background layers: a colour over every row drawn. (An opaque one is left to the frame
/// renderer, which paints it in the pass of the fill above it when it can, see
/// `FrameRenderer.draw`.) A pitched view's background covers the ground of the world (its
/// Web Mercator square, every copy across), as MapLibre draws it on the ground's tiles: beyond
/// the world's north and south edges and above the horizon nothing is drawn. On the globe it
/// covers the sphere's seen side, poles included, by pixel centres.
final class BackgroundRenderLayer: RenderLayer {
    func draw(_ color: PremultipliedColor, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if p.isPitched { drawPitched(color, p, t, &rasterizer); return }
        if let sphere = p.sphere { drawGlobe(color, p, sphere, t, &rasterizer); return }
        fill(color, rows: t.rows, t)
    }

    /// `color` over rows `rows` of the target, whole.
    private func fill(_ color: PremultipliedColor, rows: Range<Int>, _ t: RenderTarget) {
        if color.alpha == 255 { t.pixmap.clear(color, rows: rows); return }
        let buf = t.pixmap.buffer
        for i in (rows.lowerBound * t.pixmap.width)..<(rows.upperBound * t.pixmap.width) { buf[i] = Blend.over(color.packed, buf[i]) }
    }

    /// The world's strip across the ground seen, projected, by pixel centres (a GPU's tiles).
    private func drawPitched(_ color: PremultipliedColor, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        let rows = p.groundRows(t)
        guard !rows.isEmpty else { return }
        // Away from the world's north and south edges the strip holds all the ground these rows
        // show: the ground's rows are its, from side to side.
        if p.groundWithinWorld {
            fill(color, rows: rows, t)
            return
        }
        let map = RotatedMap(p, copy: 0, translate: (0, 0))
        let x0 = p.visible.minX - 1, x1 = p.visible.maxX + 1
        let corners = [map.point(x0, 0), map.point(x1, 0), map.point(x1, 1), map.point(x0, 1)]
        rasterizer.ground = p.ground
        corners.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
        rasterizer.ground = nil
        rasterizer.fill(t.pixmap, with: SolidBlitter(pixmap: t.pixmap, color: color), aliased: true)
    }

    /// The world's square on the sphere (its top and bottom edges at the poles): the seen disc.
    private func drawGlobe(_ color: PremultipliedColor, _ p: Placement, _ sphere: SphereProjection, _ t: RenderTarget,
                           _ rasterizer: inout Rasterizer) {
        let map = RotatedMap(p, copy: 0, translate: (0, 0))
        let corners = [map.point(0, 0), map.point(1, 0), map.point(1, 1), map.point(0, 1)]
        rasterizer.sphere = sphere
        corners.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
        rasterizer.fill(t.pixmap, with: SolidBlitter(pixmap: t.pixmap, color: color), aliased: true)
        rasterizer.sphere = nil
    }
}
