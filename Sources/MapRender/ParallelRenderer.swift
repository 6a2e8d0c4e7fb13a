import Dispatch
import Foundation
import MapCore
import Raster

/// Draws frames with several threads: the frame is cut into horizontal bands, one
/// `FrameRenderer` each (its own rasterizer, stroker and cache), drawn at once. Bands write
/// disjoint rows of the pixmap and only read the frame description, which is immutable.
///
/// A map's detail is uneven (a coastline full of lakes in one half, open sea in the other), so
/// equal bands leave one thread waiting for the other. While the camera moves, the cuts follow
/// how long each band took: each frame they move halfway towards where the last frame's cost,
/// spread evenly over each band's rows, would have been shared equally. While the camera stays,
/// the cuts stay too, so each band keeps its cache of the layers that did not change.
public final class ParallelRenderer: @unchecked Sendable {
    public let threads: Int
    private let renderers: [FrameRenderer]
    /// Label glyphs shaded so far, by all bands.
    public var glyphsShaded: Int { renderers.reduce(0) { $0 + $1.glyphsShaded } }
    /// Band i draws rows cuts[i] ..< cuts[i + 1].
    private var cuts: [Int] = []
    /// Where the last frame's time says the cuts belong (kept, so that a frame does not allocate).
    private var target: [Int] = []
    /// Seconds each band took to draw the last frame.
    private let seconds: UnsafeMutableBufferPointer<Double>
    private var lastView: ViewTransform?

    /// `threads` bands (default: one per core, at most 8).
    public init(threads: Int? = nil) {
        let n = max(1, min(8, threads ?? ProcessInfo.processInfo.activeProcessorCount))
        self.threads = n
        renderers = (0..<n).map { _ in FrameRenderer() }
        seconds = .allocate(capacity: n)
        seconds.initialize(repeating: 0)
        if n > 1 { for r in renderers { r.usePlacement(placement) } }
        crew = BandCrew(bands: n, work: ParallelRenderer.draw)
    }

    deinit { crew.stop(); seconds.deallocate() }

    /// The threads that draw bands 1 ..< threads (band 0 is drawn by the caller).
    private let crew: BandCrew<BandJob>

    /// Symbols are placed once for the whole frame, then read by every band.
    private let placement = SymbolPlacement()

    /// The rows each band draws now (for tests).
    public var bands: [Range<Int>] { cuts.indices.dropLast().map { cuts[$0]..<cuts[$0 + 1] } }

    /// Symbols are still fading or a placement waits for its turn: draw the frame again soon,
    /// even if its description does not change.
    public var symbolsAnimating: Bool { threads == 1 ? renderers[0].symbolsAnimating : placement.isAnimating }
    /// Symbols are fading (draw again at the display's pace), and when a placement that waits
    /// for its turn may run (draw again then).
    public var symbolsFading: Bool { threads == 1 ? renderers[0].symbolsFading : placement.isFading }
    public var symbolPassDueAt: Double? { threads == 1 ? renderers[0].symbolPassDueAt : placement.passDueAt }
    /// The placement the bands read their symbols from (its time and passes: `placeSeconds`, `passes`).
    public var symbolPlacement: SymbolPlacement { threads == 1 ? renderers[0].symbolPlacement : placement }

    public func render(_ frame: FrameDescription, into pixmap: Pixmap) {
        let n = threads, h = pixmap.height
        if n == 1 { renderers[0].render(frame, into: pixmap); return }
        if cuts.count != n + 1 || cuts[n] != h {
            cuts = (0...n).map { h * $0 / n }
        } else if let lastView, lastView != frame.view {
            rebalance()
        }
        lastView = frame.view
        // The symbols are placed by this thread while the other bands start drawing the layers
        // under them (they wait for the placement only when they reach a symbol layer); the time
        // it takes counts as the first band's, so the cuts give that band fewer rows.
        let placing = !placement.isCurrent(for: frame)
        if placing { placement.willPlace() }
        crew.run(BandJob(frame: frame, pixmap: pixmap, renderers: renderers, cuts: cuts, seconds: seconds)) {
            let start = DispatchTime.now().uptimeNanoseconds
            if placing { placement.place(frame) }
            renderers[0].render(frame, into: pixmap, rows: cuts[0]..<cuts[1])
            seconds[0] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }

    /// What the other bands need of a frame; each touches its own renderer, rows and time only.
    private struct BandJob {
        let frame: FrameDescription
        let pixmap: Pixmap
        let renderers: [FrameRenderer]
        let cuts: [Int]
        let seconds: UnsafeMutableBufferPointer<Double>
    }

    /// Draws band k of a job (on its worker thread).
    private static func draw(_ k: Int, _ job: BandJob) {
        let start = DispatchTime.now().uptimeNanoseconds
        job.renderers[k].render(job.frame, into: job.pixmap, rows: job.cuts[k]..<job.cuts[k + 1])
        job.seconds[k] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func rebalance() {
        if target.count != cuts.count { target = cuts }
        Self.rebalance(&cuts, seconds: UnsafeBufferPointer(seconds), scratch: &target)
    }

    /// Moves the cuts between bands (`cuts[0]` and the last stay) halfway towards an equal share
    /// of the time the bands took, `seconds[i]` for rows cuts[i] ..< cuts[i + 1], taking each
    /// band's time as spread evenly over its rows; every band keeps `minimumRows`. `scratch`
    /// has as many elements as `cuts`.
    public static func rebalance(_ cuts: inout [Int], seconds: UnsafeBufferPointer<Double>, scratch target: inout [Int]) {
        let n = cuts.count - 1, top = cuts[0], h = cuts[n]
        let total = seconds.reduce(0, +)
        guard n > 1, seconds.count == n, target.count == cuts.count, total > 0, total.isFinite,
              h - top >= n * minimumRows else { return }
        var band = 0, before = 0.0            // the time of the bands above `band`
        for k in 1..<n {
            let share = total * Double(k) / Double(n)
            while band < n - 1 && before + seconds[band] < share { before += seconds[band]; band += 1 }
            let rows = Double(cuts[band + 1] - cuts[band])
            let perRow = seconds[band] / max(rows, 1)
            let into = perRow > 0 ? min(rows, (share - before) / perRow) : rows / 2
            target[k] = cuts[band] + Int(into.rounded())
        }
        for k in 1..<n {
            let moved = (cuts[k] + target[k]) / 2
            cuts[k] = min(max(moved, cuts[k - 1] + minimumRows), h - (n - k) * minimumRows)
        }
    }

    /// The fewest rows a band keeps.
    public static let minimumRows = 8
}
