import MapCore
import Raster

/// The drawing of one kind of layer: one type per kind, owning the scratch state it keeps
/// between frames. `FrameRenderer` holds one of each and hands each layer's draw to its kind's
/// render layer, with the placement of the view and the target, and lends it the frame's
/// rasterizer.
protocol RenderLayer: AnyObject {
    /// What a layer of this kind draws (a case of `LayerDraw`).
    associatedtype Draw
    func draw(_ draw: Draw, _ placement: Placement, _ target: RenderTarget, _ rasterizer: inout Rasterizer)
}
