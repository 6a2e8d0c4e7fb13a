import MapCore
import Raster

/// Raster layers: an image source's frame on its quad, or a tiled source's tiles, sampled through
/// per-row and per-column tables. Owns those tables, the images' transparent-run tables, and the
/// pixels of raster layers drawn for a still camera: a loop of radar frames over a still map
/// composites each frame's pixels instead of sampling its image again, once every frame of the
/// loop has been drawn for the view.
final class RasterRenderLayer: RenderLayer {
    private var rowMaps: [ImageRowMap] = []
    private var columnSamples: [AxisSamples] = []
    private var rowSamples: [AxisSamples] = []
    /// Where each source column of a raster image starts and ends on screen (see `RunSkippingImageBlitter`).
    private var columnReach: [Int32] = []
    /// Latitudes by Mercator y for a lonlat raster image at a bearing (see `ImageQuadMapper.warp`).
    private var latitudes: [Double] = []
    /// Transparent-run tables of the images drawn lately (images never change once decoded).
    private var runsCache: [ObjectIdentifier: (image: any RasterTexture, runs: ImageRuns)] = [:]
    /// Raster layers drawn for `drawnView` in the rows `drawnRows` (see `drawKept`).
    private(set) var drawnRasters: [DrawnRaster] = []
    private var drawnView: ViewTransform?
    private var drawnRows: Range<Int> = 0..<0
    /// The images drawn for `drawnView` (identities only: an image seen again is worth keeping).
    private var drawnSeen: [ObjectIdentifier] = []
    /// Where a raster layer to keep is drawn (clear pixels, the frame's size; made when needed, let go once a kept one is used).
    private var drawnScratch: Pixmap?

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

    func draw(_ raster: RasterDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard raster.paint.opacity > 0 else { return }
        for tile in raster.tiles { drawImage(tile, raster.paint, p, t, &rasterizer) }
        if let image = raster.image { drawImage(image, raster.paint, p, t, &rasterizer) }
    }

    /// Draws the raster layer `layer`, its image source's frame from pixels kept for this view
    /// when the camera stood still (`view`, `still`; `frame`: the renderer's frame count, the
    /// kept pixels' clock).
    func draw(_ layer: FrameDescription.DrawLayer, _ raster: RasterDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer,
              view: ViewTransform, still: Bool, frame: Int) {
        guard raster.paint.opacity > 0 else { return }
        for tile in raster.tiles { drawImage(tile, raster.paint, p, t, &rasterizer) }
        guard let image = raster.image else { return }
        drawKept(layer, image, raster.paint, p, t, &rasterizer, view: view, still: still, frame: frame)
    }

    /// Draws the raster layer `layer` from its kept pixels when it was kept for this view
    /// already; else draws it, and keeps what it drew when its image shows for the second time
    /// in this view, the camera stood still since the frame before and the image is not
    /// cross-fading.
    private func drawKept(_ layer: FrameDescription.DrawLayer, _ draw: FrameDescription.ImageDraw, _ paint: RasterPaint,
                          _ placement: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer, view: ViewTransform, still viewIsStill: Bool,
                          frame frameNumber: Int) {
        let pixmap = t.pixmap, rows = t.rows
        if drawnView != view || drawnRows != rows || drawnRasters.first.map({ $0.pixels.width != pixmap.width || $0.pixels.height != pixmap.height }) ?? false {
            drawnRasters.removeAll()
            drawnSeen.removeAll(keepingCapacity: true)
            drawnView = view
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
            drawImage(draw, paint, placement, t, &rasterizer)
            return
        }
        let scratch = drawnScratch.flatMap { $0.width == pixmap.width && $0.height == pixmap.height ? $0 : nil }
            ?? Pixmap(width: pixmap.width, height: pixmap.height)
        drawnScratch = scratch
        scratch.clear(PremultipliedColor(packed: 0), rows: rows)
        drawImage(draw, paint, placement, RenderTarget(pixmap: scratch, rows: rows), &rasterizer)
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

    private func imageRuns(_ image: any RasterTexture) -> ImageRuns {
        let key = ObjectIdentifier(image)
        if let r = runsCache[key] { return r.runs }       // (the entry keeps the image, so the key stays its own)
        if runsCache.count >= 32 { runsCache.removeAll() }
        let r = ImageRuns(image)
        runsCache[key] = (image, r)
        return r
    }

    /// An image source's current frame on its quad: coverage from the rasterizer (anti-aliased
    /// edges), colour from the image.
    private func drawImage(_ draw: FrameDescription.ImageDraw, _ paint: RasterPaint, _ placement: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        let p = draw.pixelAligned ? placement.pixelAligned(width: t.pixmap.width, step: draw.gridStep) : placement
        if p.turn != nil { drawRotatedRaster(draw, paint, p, t, &rasterizer); return }
        let image = draw.image
        guard let mapper = ImageQuadMapper(corners: draw.corners, placement: draw.placement, world: p.world, ox: p.ox, oy: p.oy)
        else { return }
        // World copies: draw the quad in each copy the viewport shows.
        let c = draw.corners
        for copy in worldCopies(c, p) {
            let shifted = ImageQuadMapper(corners: draw.corners, placement: draw.placement, world: p.world,
                                          ox: p.ox + Double(copy) * p.world, oy: p.oy) ?? mapper
            let pts = (shifted.screen(c.topLeft), shifted.screen(c.topRight), shifted.screen(c.bottomRight), shifted.screen(c.bottomLeft))
            let top = max(t.rows.lowerBound, Int(min(pts.0.y, pts.1.y, pts.2.y, pts.3.y).rounded(.down)))
            let bottom = min(t.rows.upperBound - 1, Int(max(pts.0.y, pts.1.y, pts.2.y, pts.3.y).rounded(.up)))
            let left = min(pts.0.x, pts.1.x, pts.2.x, pts.3.x), right = max(pts.0.x, pts.1.x, pts.2.x, pts.3.x)
            guard top <= bottom, right >= 0, left <= Double(t.pixmap.width) else { continue }
            rowMaps.removeAll(keepingCapacity: true)
            for y in top...bottom { rowMaps.append(shifted.row(y)) }
            rasterizer.moveTo(pts.0); rasterizer.lineTo(pts.1); rasterizer.lineTo(pts.2); rasterizer.lineTo(pts.3); rasterizer.close()
            let adjustment = paint.hasNoAdjustments ? nil : ColorAdjustment(
                brightnessMin: paint.brightnessMin, brightnessMax: paint.brightnessMax, contrast: paint.contrast,
                saturation: paint.saturation, hueRotate: paint.hueRotate)
            let previous = draw.previous
            let sampling: ImageSampling = paint.resampling == .nearest ? .nearest : .bilinear
            let light = (draw.light.r, draw.light.g, draw.light.b)
            if draw.corners.isAxisAligned && (previous.map { $0.width == image.width && $0.height == image.height } ?? true) {
                // Source column from screen column, source row from screen row: tables, then lookups.
                columnSamples.removeAll(keepingCapacity: true)
                for x in 0..<t.pixmap.width {
                    let m = rowMaps[0]
                    let fx = Float(x) + 0.5
                    let u = fx < m.split ? m.s0 + m.ds * fx : m.s1 + m.ds1 * fx
                    columnSamples.append(AxisSamples.make(Double(u), size: image.width, sampling: sampling))
                }
                rowSamples.removeAll(keepingCapacity: true)
                for m in rowMaps { rowSamples.append(AxisSamples.make(Double(m.t0), size: image.height, sampling: sampling)) }
                columnSamples.withUnsafeBufferPointer { cols in
                    rowSamples.withUnsafeBufferPointer { rows in
                        guard let cols = cols.baseAddress, let rows = rows.baseAddress else { return }
                        let blitter = SeparableImageBlitter(destination: t.pixmap, image: image, previous: previous, fade: draw.fade,
                                                            columns: cols, rows: rows, firstRow: top,
                                                            opacity: paint.opacity, light: light, adjustment: adjustment)
                        if previous == nil && adjustment == nil {
                            // Skip the image's clear runs (most of a weather image).
                            let runs = draw.runs ?? imageRuns(image)
                            if columnReach.count < 2 * (image.width + 1) { columnReach = [Int32](repeating: 0, count: 2 * (image.width + 1)) }
                            columnReach.withUnsafeMutableBufferPointer { reach in
                                guard let reach = reach.baseAddress else { return }
                                rasterizer.fill(t.pixmap, runSkippingImage: RunSkippingImageBlitter(blitter, runs: runs, width: image.width, scratch: reach),
                                                aliased: draw.aliased)
                            }
                        } else {
                            rasterizer.fill(t.pixmap, separableImage: blitter, aliased: draw.aliased)
                        }
                    }
                }
            } else {
                rowMaps.withUnsafeBufferPointer { rows in
                    guard let rows = rows.baseAddress else { return }
                    let blitter = ImageBlitter(destination: t.pixmap, image: image, previous: previous, fade: draw.fade,
                                               rows: rows, firstRow: top, sampling: sampling,
                                               opacity: paint.opacity, light: light, adjustment: adjustment)
                    rasterizer.fill(t.pixmap, with: blitter, aliased: draw.aliased)
                }
            }
        }
    }

    /// The world copies (whole-world shifts) in which the quad may meet what `p` shows.
    private func worldCopies(_ c: ImageCorners, _ p: Placement) -> ClosedRange<Int> {
        let minX = WebMercator.x(lng: min(c.topLeft.lng, c.topRight.lng, c.bottomRight.lng, c.bottomLeft.lng))
        let maxX = WebMercator.x(lng: max(c.topLeft.lng, c.topRight.lng, c.bottomRight.lng, c.bottomLeft.lng))
        return Int((p.visible.minX - maxX).rounded(.down))...Int((p.visible.maxX - minX).rounded(.up))
    }

    /// The quad at a bearing, in each world copy the viewport shows: outlined through the view's
    /// rotation, every covered pixel sampled through its inverse (`ImageQuadMapper.warp`).
    private func drawRotatedRaster(_ draw: FrameDescription.ImageDraw, _ paint: RasterPaint, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        let image = draw.image
        guard let quad = ImageQuadMapper(corners: draw.corners, placement: draw.placement, world: p.world, ox: p.ox, oy: p.oy)
        else { return }
        let c = draw.corners
        // The quad's Mercator rows in view (the latitude table's range).
        let rowsShown = (max(WebMercator.y(lat: max(c.topLeft.lat, c.topRight.lat, c.bottomRight.lat, c.bottomLeft.lat)), p.visible.minY),
                         min(WebMercator.y(lat: min(c.topLeft.lat, c.topRight.lat, c.bottomRight.lat, c.bottomLeft.lat)), p.visible.maxY))
        let needed = ImageQuadMapper.tableCount(rowsShown, world: p.world)
        if latitudes.count < needed { latitudes = [Double](repeating: 0, count: needed) }
        let adjustment = paint.hasNoAdjustments ? nil : ColorAdjustment(
            brightnessMin: paint.brightnessMin, brightnessMax: paint.brightnessMax, contrast: paint.contrast,
            saturation: paint.saturation, hueRotate: paint.hueRotate)
        let sampling: ImageSampling = paint.resampling == .nearest ? .nearest : .bilinear
        for copy in worldCopies(c, p) {
            let map = RotatedMap(p, copy: Double(copy), translate: (0, 0))
            func corner(_ q: LngLat) -> Point { map.point(WebMercator.x(lng: q.lng), WebMercator.y(lat: q.lat)) }
            let pts = (corner(c.topLeft), corner(c.topRight), corner(c.bottomRight), corner(c.bottomLeft))
            let top = min(pts.0.y, pts.1.y, pts.2.y, pts.3.y), bottom = max(pts.0.y, pts.1.y, pts.2.y, pts.3.y)
            let left = min(pts.0.x, pts.1.x, pts.2.x, pts.3.x), right = max(pts.0.x, pts.1.x, pts.2.x, pts.3.x)
            guard bottom >= Double(t.rows.lowerBound), top <= Double(t.rows.upperBound), right >= 0, left <= Double(t.pixmap.width) else { continue }
            latitudes.withUnsafeMutableBufferPointer { table in
                guard let warp = quad.warp(map, rows: rowsShown, world: p.world, latitudes: table) else { return }
                rasterizer.moveTo(pts.0); rasterizer.lineTo(pts.1); rasterizer.lineTo(pts.2); rasterizer.lineTo(pts.3); rasterizer.close()
                let blitter = MappedImageBlitter(destination: t.pixmap, image: image, previous: draw.previous, fade: draw.fade,
                                                 warp: warp, sampling: sampling, opacity: paint.opacity,
                                                 light: (draw.light.r, draw.light.g, draw.light.b), adjustment: adjustment)
                rasterizer.fill(t.pixmap, with: blitter, aliased: draw.aliased)
            }
        }
    }
}
