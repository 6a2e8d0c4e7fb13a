import MapCore
import Raster

/// Draws a `FrameDescription` into a `Pixmap`. It reads the description only and keeps its
/// scratch storage (rasterizer cells, stroker buffers) between frames, so a warm frame does
/// not allocate.
public final class FrameRenderer {
    var rasterizer: Rasterizer
    var stroker = Stroker()
    var runPoints: [Point] = []
    var runEnds: [Int] = []
    var runOffsets: [Double] = []
    /// Runs that are closed rings (joined at their first vertex, no caps); empty: none are.
    var runClosed: [Bool] = []
    /// Runs that go on with the line of the run before (cut from it off screen or at a tile's
    /// edge), composited with it as one line; empty: none do.
    var runContinues: [Bool] = []
    var offsetScratch: [Point] = []
    var strokeStyles: [(paint: LinePaint, style: StrokeStyle)] = []
    var symbolPath = Path()
    var offsetEnds: [Int] = []
    var rowMaps: [ImageRowMap] = []
    var columnSamples: [AxisSamples] = []
    var rowSamples: [AxisSamples] = []
    /// Where each source column of a raster image starts and ends on screen (see `RunSkippingImageBlitter`).
    var columnReach: [Int32] = []
    /// Latitudes by Mercator y for a lonlat raster image at a bearing (see `ImageQuadMapper.warp`).
    var latitudes: [Double] = []
    /// Transparent-run tables of the images drawn lately (images never change once decoded).
    var runsCache: [ObjectIdentifier: (image: any RasterTexture, runs: ImageRuns)] = [:]
    let mask = CoverageMask(width: 1, height: 1)
    /// Coverage of lines at most two pixels wide (see `ThinStroke`).
    var thin = ThinStroke()
    /// Style lines as the reference engines' triangles (see `LineMesh`), and their screen positions.
    var lineMesh = LineMesh()
    var meshPositions: [Double] = []
    var centreFill = CentreFill()
    /// A run of layers above a changing one, kept as an image (see `drawUnchangedRun`).
    var keptRun: KeptRun?
    /// Raster layers drawn for `drawnView` in the rows `drawnRows` (see `drawRasterLayer`).
    var drawnRasters: [DrawnRaster] = []
    var drawnView: ViewTransform?
    var drawnRows: Range<Int> = 0..<0
    /// The images drawn for `drawnView` (identities only: an image seen again is worth keeping).
    var drawnSeen: [ObjectIdentifier] = []
    /// Where a raster layer to keep is drawn (clear pixels, the frame's size; made when needed, let go once a kept one is used).
    var drawnScratch: Pixmap?
    /// Whether this frame's view is the previous frame's.
    var viewIsStill = false
    /// The runs drawn directly lately: which run, in which frame (a few slots, reused: nothing
    /// allocated per frame).
    var recentRuns: [(start: Int, count: Int, frame: Int)] = Array(repeating: (-1, 0, -10), count: 8)
    // The bottom layers that stayed the same, drawn once.
    var lastFrame: FrameDescription?
    var cache: Pixmap?
    var cachedLayers: [FrameDescription.DrawLayer] = []
    var cachedView: ViewTransform?
    var cachedRows: Range<Int> = 0..<0
    struct LabelKey: Hashable { let text: String; let font: ObjectIdentifier; let size: Double; let halo: Double; let spacing: Double }
    /// (A class: marking an entry used must not go through the dictionary, whose in-place
    /// accessor allocates.)
    final class MaskEntry {
        let text: AlphaMask, halo: AlphaMask
        /// The two composited in the colours last asked for (made on first use).
        var sprite: MaskSprite?
        var lastUsed: Int
        init(text: AlphaMask, halo: AlphaMask, lastUsed: Int) { self.text = text; self.halo = halo; self.lastUsed = lastUsed }
        /// Bytes held: both masks, and the sprite once made.
        var bytes: Int { text.width * text.height * (2 + (sprite == nil ? 0 : MaskSprite.bytesPerPixel)) }
    }
    /// Label masks by text and paint, kept near `maskBudget` bytes (least recently used go first;
    /// what the last two frames drew always stays, see `evictMasks`).
    var maskCache: [LabelKey: MaskEntry] = [:]
    var maskBytes = 0
    static let maskBudget = 1024 * 1024
    /// The frame that last evicted label masks.
    var lastEviction = -1
    /// Frames rendered so far (the mask cache's clock).
    var frameNumber = 0
    /// Upright vector icons as coverage masks, by icon and scale (see `iconMasks`).
    var iconMaskCache: [IconMaskKey: IconMasks] = [:]
    /// The placement of all symbol layers, kept while the view and those layers stay the same.
    var symbolPlacement = SymbolPlacement()
    /// Whether `symbolPlacement` is made by someone else (a parallel renderer) for each frame.
    var placementIsShared = false
    /// What shows where no layer draws: opaque black in the window, transparent for images
    /// compared with the reference engines'.
    public var clearColor = PremultipliedColor(packed: 0xFF00_0000)
    /// An opaque background not drawn yet: the layer above it may draw it in its own pass.
    var pendingBackground: PremultipliedColor?
    /// The rows this renderer draws (all of them, or a band when several renderers share a frame).
    var rows: Range<Int> = 0..<1

    public init() {
        rasterizer = Rasterizer(width: 1, height: 1)
        runPoints.reserveCapacity(1 << 16)
        runEnds.reserveCapacity(4096)
    }

    deinit { rasterizer.deallocate(); thin.deallocate() }

    /// Makes this renderer read its symbols from `placement`, which its owner places for each
    /// frame before drawing (several band renderers share one placement instead of each making its own).
    public func usePlacement(_ placement: SymbolPlacement) {
        symbolPlacement = placement
        placementIsShared = true
    }

    /// Renders `frame` into `pixmap` (whose size should match the frame's viewport).
    ///
    /// Layers at the bottom that did not change since the previous frame (same camera, same
    /// evaluated paint) are kept as a cached image: when only the layers above them change (lines
    /// pulsing over a still map), the frame is that image plus the changed layers.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap) {
        render(frame, into: pixmap, rows: 0..<pixmap.height)
    }

    /// Renders only the rows `band` of the frame (other rows of `pixmap` are left alone), so
    /// several renderers can draw one frame at once, each its own band.
    public func render(_ frame: FrameDescription, into pixmap: Pixmap, rows band: Range<Int>) {
        rows = band.clamped(to: 0..<pixmap.height)
        guard !rows.isEmpty else { return }
        frameNumber += 1
        rasterizer.reset(width: pixmap.width, height: rows.count, originY: rows.lowerBound)
        let placement = Placement(view: frame.view, width: pixmap.width, rows: rows)
        let layers = frame.layers
        // Layers unchanged since the previous frame, from the bottom.
        var stable = 0
        if let last = lastFrame, last.view == frame.view {
            while stable < min(layers.count, last.layers.count) && layers[stable] == last.layers[stable] { stable += 1 }
        }
        // The previous frame's layers when they can be compared one by one (same view, same count).
        let previous = lastFrame.flatMap { $0.view == frame.view && $0.layers.count == layers.count ? $0.layers : nil }
        viewIsStill = lastFrame?.view == frame.view
        lastFrame = frame
        var first = 0
        if cachedRows != rows { cachedLayers = [] }
        if let cache, cache.width == pixmap.width, cache.height == pixmap.height, cachedView == frame.view,
           cachedLayers.count <= stable, cachedLayers[...] == layers[..<cachedLayers.count], !cachedLayers.isEmpty {
            pixmap.copy(from: cache, rows: rows)
            first = cachedLayers.count
        } else {
            // Start from the clear colour unless the first layer paints every pixel anyway.
            if case let .background(c, o)? = layers.first?.paint, c.a >= 1, o >= 1 {} else {
                pixmap.clear(clearColor, rows: rows)
            }
        }
        var index = first
        while index < layers.count {
            // Above a change, a run of layers unchanged since the previous frame: from its kept
            // image when it has one (see `drawUnchangedRun`).
            if index >= stable, let previous, layers[index] == previous[index] {
                var end = index + 1
                while end < layers.count && layers[end] == previous[end] { end += 1 }
                drawUnchangedRun(layers, index..<end, placement, frame, pixmap)
                index = end
                continue
            }
            defer { index += 1 }
            draw(layers[index], index, placement, frame, pixmap)
            // Keep the stable part once it is complete (and worth keeping: not the whole frame).
            if index + 1 == stable && stable < layers.count && stable > cachedLayers.count {
                flushBackground(pixmap)
                if cache?.width != pixmap.width || cache?.height != pixmap.height {
                    cache = Pixmap(width: pixmap.width, height: pixmap.height)
                }
                cache?.copy(from: pixmap, rows: rows)
                cachedLayers = Array(layers[..<stable])
                cachedView = frame.view
                cachedRows = rows
            }
        }
        flushBackground(pixmap)
        if stable < cachedLayers.count || cachedView != frame.view {
            cachedLayers = []
        }
        if !frame.markers.isEmpty { drawOffscreenMarkers(frame.markers, frame.view, pixmap) }
        if let overlay = frame.overlay { drawOverlay(overlay, pixmap) }
    }

    func draw(_ layer: FrameDescription.DrawLayer, _ index: Int, _ placement: Placement, _ frame: FrameDescription,
              _ pixmap: Pixmap) {
        if let background = pendingBackground {
            // An opaque background under a fill: both in one pass over the rows.
            if layer.features == nil, case let .fill(paint) = layer.paint, let g = layer.geometry,
               paint.opacity > 0, paint.color.a > 0 {
                pendingBackground = nil
                drawFill(g, paint, placement, pixmap, over: background)
                return
            }
            flushBackground(pixmap)
        }
        if layer.symbols != nil {
            drawSymbols(index, frame, pixmap)
            return
        }
        if let features = layer.features {
            drawFeatures(features, placement, pixmap)
            return
        }
        switch layer.paint {
        case let .background(color, opacity):
            drawBackground(color.premultiplied(opacity: opacity), pixmap)
        case let .fill(paint):
            guard let g = layer.geometry, paint.opacity > 0, paint.color.a > 0 else { return }
            drawFill(g, paint, placement, pixmap)
        case let .line(paint):
            guard let g = layer.geometry, paint.opacity > 0, paint.color.a > 0, paint.width > 0 else { return }
            drawLine(g, paint, placement, pixmap)
        case let .raster(paint):
            guard paint.opacity > 0 else { return }
            for tile in layer.tiles { drawRaster(tile, paint, placement, pixmap) }
            guard let draw = layer.image else { return }
            drawRasterLayer(layer, draw, paint, placement, frame, pixmap)
        }
    }
}

extension MapCore.Color {
    /// Premultiplied 8-bit colour with `opacity` applied.
    func premultiplied(opacity: Double) -> PremultipliedColor {
        let b = bytes
        let a = UInt8((Double(b.a) * min(max(opacity, 0), 1)).rounded())
        return RGBA8(b.r, b.g, b.b, a).premultiplied
    }
}
