import Foundation
import MapCore
import Raster

/// Background layers: a colour over every row drawn. (An opaque one is left to the frame
/// renderer, which paints it in the pass of the fill above it when it can, see
/// `FrameRenderer.draw`.) A pitched view's background covers the ground, the rows below the
/// horizon, as MapLibre draws it on the ground's tiles.
final class BackgroundRenderLayer: RenderLayer {
    func draw(_ color: PremultipliedColor, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        let rows = p.groundRows(t)
        guard !rows.isEmpty else { return }
        if color.alpha == 255 { t.pixmap.clear(color, rows: rows); return }
        let buf = t.pixmap.buffer
        for i in (rows.lowerBound * t.pixmap.width)..<(rows.upperBound * t.pixmap.width) { buf[i] = Blend.over(color.packed, buf[i]) }
    }
}
