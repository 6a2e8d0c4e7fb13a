import Dispatch
import Foundation
import MapCore
import Raster

/// Draws frames with several threads: the frame is cut into horizontal bands, one
/// `FrameRenderer` each (its own rasterizer, stroker and cache), drawn at once. Bands write
/// disjoint rows of the pixmap and only read the frame description, which is immutable.
public final class ParallelRenderer: @unchecked Sendable {
    public let threads: Int
    private let renderers: [FrameRenderer]

    /// `threads` bands (default: one per core, at most 8).
    public init(threads: Int? = nil) {
        let n = max(1, min(8, threads ?? ProcessInfo.processInfo.activeProcessorCount))
        self.threads = n
        renderers = (0..<n).map { _ in FrameRenderer() }
        if n > 1 { for r in renderers { r.usePlacement(placement) } }
    }

    /// Labels are placed once for the whole frame, then read by every band.
    private let placement = LabelPlacement()

    public func render(_ frame: FrameDescription, into pixmap: Pixmap) {
        let n = threads, h = pixmap.height
        if n == 1 { renderers[0].render(frame, into: pixmap); return }
        if !placement.isCurrent(for: frame) { placement.place(frame) }
        let box = UncheckedBox((frame, pixmap, renderers))
        DispatchQueue.concurrentPerform(iterations: n) { i in
            let (frame, pixmap, renderers) = box.value
            renderers[i].render(frame, into: pixmap, rows: (h * i / n)..<(h * (i + 1) / n))
        }
    }
}

/// Hands non-Sendable references to `concurrentPerform`; each band touches its own renderer
/// and its own rows only.
private struct UncheckedBox<T>: @unchecked Sendable { let value: T; init(_ v: T) { value = v } }
