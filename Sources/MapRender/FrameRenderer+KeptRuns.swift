import MapCore
import Raster

/// Runs of layers that stay the same above a layer that changes every frame (the borders and
/// labels above a radar whose frames swap): drawn once onto clear pixels and composited each
/// frame after, as the bottom cache is for the layers below every change.
extension FrameRenderer {
    /// A kept run: its layers, for which view and rows, its pixels and their runs.
    final class KeptRun {
        let start: Int
        let layers: [FrameDescription.DrawLayer]
        let view: ViewTransform
        let rows: Range<Int>
        let image: Pixmap
        let runs: ImageRuns
        init(start: Int, layers: [FrameDescription.DrawLayer], view: ViewTransform, rows: Range<Int>, image: Pixmap, runs: ImageRuns) {
            self.start = start; self.layers = layers; self.view = view; self.rows = rows; self.image = image; self.runs = runs
        }
    }

    /// Whether a run is worth an image of its own: it places labels (compositing the kept
    /// image touches only its non-clear runs, a fraction of drawing the labels and the lines
    /// with them). A rule on what the layers are, not on how long they took, so that instruction
    /// counts stay the same from run to run.
    func worthKeeping(_ layers: [FrameDescription.DrawLayer], _ range: Range<Int>) -> Bool {
        layers[range].contains { $0.symbols?.set.hasText ?? false }
    }

    /// Draws the unchanged layers `range`: from the kept image when it holds this run's first
    /// layers for this view (the rest drawn over it); into a new kept image when the same run
    /// was drawn in the frame before and is worth keeping; else directly.
    func drawUnchangedRun(_ layers: [FrameDescription.DrawLayer], _ range: Range<Int>, _ placement: Placement,
                          _ frame: FrameDescription, _ target: RenderTarget, under: inout PremultipliedColor?) {
        let pixmap = target.pixmap, rows = target.rows
        if let k = keptRun, k.start == range.lowerBound, k.layers.count <= range.count, k.view == frame.view, k.rows == rows,
           k.image.width == pixmap.width, k.image.height == pixmap.height,
           zip(k.layers, layers[range]).allSatisfy({ $0 == $1 }) {
            // The kept layers, then those of the run above them (a run grows and shrinks as the
            // layers over it start and stop changing; the kept part stays).
            paint(&under, target)
            k.runs.composite(k.image, onto: pixmap, rows: rows)
            for i in (range.lowerBound + k.layers.count)..<range.upperBound { draw(layers[i], i, placement, frame, target, under: &under) }
            return
        }
        if recentRuns.contains(where: { $0.start == range.lowerBound && $0.count == range.count && $0.frame == frameNumber - 1 }),
           worthKeeping(layers, range) {
            paint(&under, target)
            let image = keptRun.flatMap { $0.image.width == pixmap.width && $0.image.height == pixmap.height ? $0.image : nil }
                ?? Pixmap(width: pixmap.width, height: pixmap.height)
            image.clear(PremultipliedColor(packed: 0), rows: rows)
            keptRun = nil
            let kept = RenderTarget(pixmap: image, rows: rows)
            var below: PremultipliedColor? = nil
            for i in range { draw(layers[i], i, placement, frame, kept, under: &below) }
            paint(&below, kept)
            let k = KeptRun(start: range.lowerBound, layers: Array(layers[range]), view: frame.view, rows: rows, image: image,
                            runs: ImageRuns(image, rows: rows))
            keptRun = k
            k.runs.composite(image, onto: pixmap, rows: rows)
            return
        }
        for i in range { draw(layers[i], i, placement, frame, target, under: &under) }
        // This run's slot, else the stalest one.
        var slot = 0
        for i in recentRuns.indices {
            if recentRuns[i].start == range.lowerBound { slot = i; break }
            if recentRuns[i].frame < recentRuns[slot].frame { slot = i }
        }
        recentRuns[slot] = (range.lowerBound, range.count, frameNumber)
    }
}
