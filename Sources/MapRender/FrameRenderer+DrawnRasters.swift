import MapCore
import Raster

/// Raster layers drawn for a still camera, kept as their packed pixels: a loop of radar frames
/// over a still map composites each frame's pixels instead of sampling its image again, once
/// every frame of the loop has been drawn for the view.
extension FrameRenderer {
    /// A raster layer as drawn for `drawnView`: the layer (its image, corners, paint) and the
    /// pixels it drew.
    final class DrawnRaster {
        let layer: FrameDescription.DrawLayer
        let pixels: SparseImage
        var lastUsed: Int
        init(layer: FrameDescription.DrawLayer, pixels: SparseImage, lastUsed: Int) {
            self.layer = layer; self.pixels = pixels; self.lastUsed = lastUsed
        }
    }

    /// Bytes of drawn rasters kept (for the view shown; all go when it changes).
    static let drawnRasterBudget = 8 * 1024 * 1024
    /// The largest drawing kept: a twelfth of the budget, so that a loop of twelve frames fits
    /// (a larger one would push out the frame needed next, and drawing it to keep costs more
    /// than drawing it).
    static var drawnRasterLimit: Int { drawnRasterBudget / 12 }

    /// Draws the raster layer `layer` from its kept pixels when it was kept for this view
    /// already; else draws it, and keeps what it drew when its image shows for the second time
    /// in this view, the camera stood still since the frame before and the image is not
    /// cross-fading.
    func drawRasterLayer(_ layer: FrameDescription.DrawLayer, _ draw: FrameDescription.ImageDraw, _ paint: RasterPaint,
                         _ placement: Placement, _ frame: FrameDescription, _ pixmap: Pixmap) {
        if drawnView != frame.view || drawnRows != rows || drawnRasters.first.map({ $0.pixels.width != pixmap.width || $0.pixels.height != pixmap.height }) ?? false {
            drawnRasters.removeAll()
            drawnSeen.removeAll(keepingCapacity: true)
            drawnView = frame.view
            drawnRows = rows
        }
        if let kept = drawnRasters.first(where: { $0.layer == layer }) {
            kept.lastUsed = frameNumber
            kept.pixels.composite(onto: pixmap, rows: rows)
            drawnScratch = nil          // (a loop drawn whole needs it no more: its pixels go back)
            return
        }
        // Kept from its second showing for this view: a loop that comes round again over a
        // still camera (a camera that moves on draws each frame once, and keeps nothing).
        let seen = drawnSeen.contains(ObjectIdentifier(draw.image))
        guard viewIsStill, draw.previous == nil, seen else {
            if !seen && drawnSeen.count < 64 { drawnSeen.append(ObjectIdentifier(draw.image)) }
            drawRaster(draw, paint, placement, pixmap)
            return
        }
        let scratch = drawnScratch.flatMap { $0.width == pixmap.width && $0.height == pixmap.height ? $0 : nil }
            ?? Pixmap(width: pixmap.width, height: pixmap.height)
        drawnScratch = scratch
        scratch.clear(PremultipliedColor(packed: 0), rows: rows)
        drawRaster(draw, paint, placement, scratch)
        let pixels = SparseImage(scratch, rows: rows)
        pixels.composite(onto: pixmap, rows: rows)
        guard pixels.bytes <= Self.drawnRasterLimit else { return }
        var held = drawnRasters.reduce(0) { $0 + $1.pixels.bytes }
        while held + pixels.bytes > Self.drawnRasterBudget, let oldest = drawnRasters.indices.min(by: { drawnRasters[$0].lastUsed < drawnRasters[$1].lastUsed }) {
            held -= drawnRasters[oldest].pixels.bytes
            drawnRasters.remove(at: oldest)
        }
        drawnRasters.append(DrawnRaster(layer: layer, pixels: pixels, lastUsed: frameNumber))
    }
}
