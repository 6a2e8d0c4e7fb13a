import MapCore
import Raster

/// What the renderer keeps in its pixel cache besides the bottom layers: runs of layers that
/// stay the same above a layer that changes every frame (the borders and labels above a radar
/// whose frames swap), and the frames of a radar loop over a still camera.
extension FrameRenderer {
    /// Whether a run is worth keeping: it places labels (compositing the kept pixels touches
    /// only the non-clear ones, a fraction of drawing the labels and the lines with them). A rule
    /// on what the layers are, not on how long they took, so that instruction counts stay the
    /// same from run to run.
    func worthKeeping(_ layers: ArraySlice<FrameDescription.DrawLayer>) -> Bool {
        layers.contains { $0.symbols?.set.hasText ?? false }
    }

    /// Draws the unchanged layers `range`: from the pixels kept of this run's first layers (the
    /// rest drawn over them); into new kept pixels when the same run was drawn in the frame
    /// before and is worth keeping; else directly.
    func drawUnchangedRun(_ layers: [FrameDescription.DrawLayer], _ range: Range<Int>, _ placement: Placement,
                          _ frame: FrameDescription, _ target: RenderTarget, under: inout PremultipliedColor?) {
        if let kept = cache.entry(.run, range.lowerBound, layers[range]) {
            // The kept layers, then those of the run above them (a run grows and shrinks as the
            // layers over it start and stop changing; the kept part stays).
            paint(&under, target)
            kept.draw(into: target)
            for i in (range.lowerBound + kept.layers.count)..<range.upperBound { draw(layers[i], i, placement, frame, target, under: &under) }
            return
        }
        if cache.drew(run: range.lowerBound, count: range.count, inFrame: frameNumber - 1), worthKeeping(layers[range]) {
            paint(&under, target)
            cache.keepSparse(.run, range.lowerBound, layers[range], into: target) { kept in
                var below: PremultipliedColor? = nil
                for i in range { draw(layers[i], i, placement, frame, kept, under: &below) }
                paint(&below, kept)
            }
            return
        }
        for i in range { draw(layers[i], i, placement, frame, target, under: &under) }
        cache.drew(run: range.lowerBound, count: range.count, frame: frameNumber)
    }

    /// Draws the raster layer `layer` (at `index` in the frame): its tiles, then its image
    /// source's frame, from the pixels kept for this view when there are; else it draws it, and
    /// keeps what it drew when its image shows for the second time in this view, the camera
    /// stood still since the frame before and the image is not cross-fading (a loop that comes
    /// round again over a still camera; a moving camera draws each frame once and keeps nothing).
    func drawRaster(_ layer: FrameDescription.DrawLayer, _ index: Int, _ raster: RasterDraw, _ placement: Placement,
                    _ target: RenderTarget) {
        guard raster.paint.opacity > 0 else { return }
        rasters.drawTiles(raster, placement, target, &rasterizer)
        guard let image = raster.image else { return }
        let run = CollectionOfOne(layer)
        if let kept = cache.entry(.layer, index, ArraySlice(run)) {
            kept.draw(into: target)
            return
        }
        guard cache.drew(image: image.image), viewIsStill, image.previous == nil else {
            rasters.drawImage(image, raster.paint, placement, target, &rasterizer)
            return
        }
        cache.keepSparse(.layer, index, ArraySlice(run), into: target) { kept in
            rasters.drawImage(image, raster.paint, placement, kept, &rasterizer)
        }
    }
}
