import Foundation
import MapCore
import Raster

/// Background layers: a colour over every row drawn. (An opaque one is left to the frame
/// renderer, which paints it in the pass of the fill above it when it can, see
/// `FrameRenderer.draw`.)
final class BackgroundRenderLayer: RenderLayer {
    func draw(_ color: PremultipliedColor, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if color.alpha == 255 { t.pixmap.clear(color, rows: t.rows); return }
        let buf = t.pixmap.buffer
        for i in (t.rows.lowerBound * t.pixmap.width)..<(t.rows.upperBound * t.pixmap.width) { buf[i] = Blend.over(color.packed, buf[i]) }
    }
}
