import MapCore
import Raster

/// Pixels of runs of layers as drawn for one view, kept so that a later frame composites them
/// instead of drawing those layers again: the layers at the bottom that stay while a route pulses
/// over them (kept opaque, copied back), labels and borders that stay over a changing radar, and
/// each frame of a radar loop over a still map (kept as their non-clear pixels).
///
/// An entry is the run of layers starting at `start` in the frame, for a view and the rows a
/// renderer draws, in a role (the bottom, a run, one layer) that says who looks it up; it serves
/// a frame whose layers from `start` begin with the same layers. Only entries of the view being
/// drawn are kept (`keep(view:rows:width:height:)` drops the rest), so the cache never holds
/// pixels for a place the camera has left. It holds at most `budget` bytes: while the view stays,
/// an entry that does not fit is not kept (what is there was kept first and is in use; evicting
/// it for another would have a loop of frames push out the one it needs next).
final class PixelCache {
    enum Pixels {
        /// Every pixel of the rows, drawn from the bottom: copied back as they are.
        case opaque(Pixmap)
        /// What the layers drew over clear pixels: composited source-over.
        case sparse(SparseImage)

        var bytes: Int {
            switch self {
            case let .opaque(p): return p.width * p.height * 4
            case let .sparse(s): return s.bytes
            }
        }
    }

    /// What an entry stands for, which decides who looks it up.
    enum Role {
        /// The layers from the bottom of the frame, opaque.
        case bottom
        /// A run of layers that stayed the same above one that changed.
        case run
        /// One layer (a raster layer's image over a still camera).
        case layer
    }

    final class Entry {
        let role: Role
        let start: Int
        let layers: [FrameDescription.DrawLayer]
        let pixels: Pixels
        init(role: Role, start: Int, layers: [FrameDescription.DrawLayer], pixels: Pixels) {
            self.role = role; self.start = start; self.layers = layers; self.pixels = pixels
        }

        /// Whether it holds the first of `layers`, which start at `start` in the frame.
        func serves(_ start: Int, _ layers: ArraySlice<FrameDescription.DrawLayer>) -> Bool {
            self.start == start && self.layers.count <= layers.count && self.layers[...] == layers.prefix(self.layers.count)
        }

        /// Draws the kept pixels into `target` (opaque ones replace what is there).
        func draw(into target: RenderTarget) {
            switch pixels {
            case let .opaque(p): target.pixmap.copy(from: p, rows: target.rows)
            case let .sparse(s): s.composite(onto: target.pixmap, rows: target.rows)
            }
        }
    }

    /// Frames' worth of pixels the cache may hold.
    static let framesOfPixels = 8
    private(set) var entries: [Entry] = []
    /// The runs drawn without keeping lately: which run, in which frame (a few slots, reused:
    /// nothing allocated per frame). A run is kept when it shows again in the next frame.
    private var recentRuns: [(start: Int, count: Int, frame: Int)] = Array(repeating: (-1, 0, -10), count: 8)
    /// The images raster layers drew without keeping for this view (identities only: an image
    /// seen again is worth keeping).
    private var imagesSeen: [ObjectIdentifier] = []
    private var view: ViewTransform?
    private var rows: Range<Int> = 0..<0
    private var width = 0, height = 0
    /// Where a run to keep is drawn over clear pixels (the frame's size; made on first use, let
    /// go with the entries when the view changes).
    private var scratch: Pixmap?

    /// Bytes the cache may hold: `framesOfPixels` frames of the size drawn.
    var budget: Int { Self.framesOfPixels * width * height * 4 }
    var bytes: Int { entries.reduce(0) { $0 + $1.pixels.bytes } }

    /// Starts a frame drawing `rows` of a `width` x `height` pixmap for `view`: what was kept
    /// (and seen) for another view, other rows or another size goes.
    func keep(view: ViewTransform, rows: Range<Int>, width: Int, height: Int) {
        guard view != self.view || rows != self.rows || width != self.width || height != self.height else { return }
        entries.removeAll()
        imagesSeen.removeAll(keepingCapacity: true)
        scratch = nil
        self.view = view; self.rows = rows; self.width = width; self.height = height
    }

    /// Notes that the run of `count` layers from `start` was drawn without keeping in frame `frame`.
    func drew(run start: Int, count: Int, frame: Int) {
        // This run's slot, else the stalest one.
        var slot = 0
        for i in recentRuns.indices {
            if recentRuns[i].start == start { slot = i; break }
            if recentRuns[i].frame < recentRuns[slot].frame { slot = i }
        }
        recentRuns[slot] = (start, count, frame)
    }

    /// Whether the run of `count` layers from `start` was drawn without keeping in frame `frame`.
    func drew(run start: Int, count: Int, inFrame frame: Int) -> Bool {
        recentRuns.contains { $0.start == start && $0.count == count && $0.frame == frame }
    }

    /// Notes that `image` was drawn without keeping for this view; true when it had been before.
    func drew(image: AnyObject) -> Bool {
        let id = ObjectIdentifier(image)
        if imagesSeen.contains(id) { return true }
        if imagesSeen.count < 64 { imagesSeen.append(id) }
        return false
    }

    /// The entry in `role` holding the most of `layers` (which start at `start`) from their
    /// first on (nil: none).
    func entry(_ role: Role, _ start: Int, _ layers: ArraySlice<FrameDescription.DrawLayer>) -> Entry? {
        var best: Entry? = nil
        for e in entries where e.role == role && e.serves(start, layers) && e.layers.count > (best?.layers.count ?? 0) { best = e }
        return best
    }

    /// Keeps the pixels of `target` (every pixel of its rows) as the layers `layers` from the
    /// bottom, in place of any shorter run from the bottom.
    func keepOpaque(_ layers: ArraySlice<FrameDescription.DrawLayer>, from target: RenderTarget) {
        entries.removeAll { $0.role == .bottom }
        guard width * height * 4 <= budget - bytes else { return }
        let p = Pixmap(width: width, height: height)
        p.copy(from: target.pixmap, rows: target.rows)
        entries.append(Entry(role: .bottom, start: 0, layers: Array(layers), pixels: .opaque(p)))
    }

    /// Draws the layers `layers` (starting at `start` in the frame) with `draw` over clear
    /// pixels, composites them into `target` and keeps their non-clear pixels in `role` (a run
    /// in place of the other runs: a renderer keeps one run), when they fit.
    func keepSparse(_ role: Role, _ start: Int, _ layers: ArraySlice<FrameDescription.DrawLayer>, into target: RenderTarget,
                    _ draw: (RenderTarget) -> Void) {
        // (Taken while drawing: a run kept while another is drawn, a raster inside labels kept
        // together, gets a pixmap of its own.)
        let image = scratch ?? Pixmap(width: width, height: height)
        scratch = nil
        defer { scratch = image }
        image.clear(PremultipliedColor(packed: 0), rows: target.rows)
        draw(RenderTarget(pixmap: image, rows: target.rows))
        let pixels = SparseImage(image, rows: target.rows)
        pixels.composite(onto: target.pixmap, rows: target.rows)
        if role == .run { entries.removeAll { $0.role == .run } }
        guard pixels.bytes <= budget - bytes else { return }
        entries.append(Entry(role: role, start: start, layers: Array(layers), pixels: .sparse(pixels)))
    }
}
