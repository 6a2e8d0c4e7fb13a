import MapCore
import Raster

/// Raster layers: an image source's frame on its quad, or a tiled source's tiles, sampled through
/// per-row and per-column tables. Owns those tables and the images' transparent-run tables.
/// (The frames of a loop over a still camera are kept in the renderer's pixel cache, see
/// `FrameRenderer.drawRaster`.)
final class RasterRenderLayer: RenderLayer {
    private var rowMaps: [ImageRowMap] = []
    private var columnSamples: [AxisSamples] = []
    private var rowSamples: [AxisSamples] = []
    /// Where each source column of a raster image starts and ends on screen (see `RunSkippingImageBlitter`).
    private var columnReach: [Int32] = []
    /// Latitudes by Mercator y for a lonlat raster image at a bearing (see `ImageQuadMapper.warp`).
    private var latitudes: [Double] = []
    /// Transparent-run tables of the images drawn lately.
    private var runsCache = ImageDerivedCache<ImageRuns>(capacity: 32)
    /// Mipmap levels of the tiles drawn lately on the globe.
    private var mipCache = ImageDerivedCache<MipChain>(capacity: 64)

    func draw(_ raster: RasterDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        guard raster.paint.opacity > 0 else { return }
        for tile in raster.tiles { drawImage(tile, raster.paint, p, t, &rasterizer, isTile: true) }
        if let image = raster.image { drawImage(image, raster.paint, p, t, &rasterizer) }
    }

    /// The layer's tiles (each an image in its square).
    func drawTiles(_ raster: RasterDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        for tile in raster.tiles { drawImage(tile, raster.paint, p, t, &rasterizer, isTile: true) }
    }

    static func isPowerOfTwo(_ image: any RasterTexture) -> Bool {
        image.width > 0 && image.height > 0 && image.width & (image.width - 1) == 0 && image.height & (image.height - 1) == 0
    }

    private func mipChain(_ image: any RasterTexture) -> MipChain { mipCache.value(image, MipChain.init) }

    private func imageRuns(_ image: any RasterTexture) -> ImageRuns { runsCache.value(image, ImageRuns.init) }

    /// An image (an image source's current frame, or a tile) on its quad: coverage from the
    /// rasterizer (anti-aliased edges), colour from the image.
    /// (`isTile`: a tile, which MapLibre mipmaps when its size is a power of two; an image source's image it does not.)
    func drawImage(_ draw: FrameDescription.ImageDraw, _ paint: RasterPaint, _ placement: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer,
                   isTile: Bool = false) {
        // (On the globe no texel lines up with a pixel: the sphere is not aligned.)
        let p = draw.pixelAligned && !placement.isGlobe ? placement.pixelAligned(width: t.pixmap.width, step: draw.gridStep) : placement
        if p.turn != nil || p.isProjected { drawRotatedRaster(draw, paint, p, t, &rasterizer, mipmapped: isTile && !p.drapedOnTerrain); return }
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
    /// rotation, every covered pixel sampled through its inverse (`ImageQuadMapper.warp`). In
    /// perspective and on the globe (its one copy) the outline is projected, and each pixel taken
    /// back to the flat screen first.
    private func drawRotatedRaster(_ draw: FrameDescription.ImageDraw, _ paint: RasterPaint, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer,
                                   mipmapped: Bool = false) {
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
        // (On the globe, the one copy: the quad's, wrapped about world copy 0.)
        let quadMinX = WebMercator.x(lng: min(c.topLeft.lng, c.topRight.lng, c.bottomRight.lng, c.bottomLeft.lng))
        let quadMaxX = WebMercator.x(lng: max(c.topLeft.lng, c.topRight.lng, c.bottomRight.lng, c.bottomLeft.lng))
        let globeCopy = -Int(((quadMinX + quadMaxX) / 2).rounded(.down))
        for copy in p.isGlobe ? globeCopy...globeCopy : worldCopies(c, p) {
            let map = RotatedMap(p, copy: Double(copy), translate: (0, 0))
            func corner(_ q: LngLat) -> Point { map.point(WebMercator.x(lng: q.lng), WebMercator.y(lat: q.lat)) }
            let pts = (corner(c.topLeft), corner(c.topRight), corner(c.bottomRight), corner(c.bottomLeft))
            let top = min(pts.0.y, pts.1.y, pts.2.y, pts.3.y), bottom = max(pts.0.y, pts.1.y, pts.2.y, pts.3.y)
            let left = min(pts.0.x, pts.1.x, pts.2.x, pts.3.x), right = max(pts.0.x, pts.1.x, pts.2.x, pts.3.x)
            guard p.isGlobe || (bottom >= p.cull.minY && top <= p.cull.maxY && right >= p.cull.minX && left <= p.cull.maxX) else { continue }
            latitudes.withUnsafeMutableBufferPointer { table in
                guard var warp = quad.warp(map, rows: rowsShown, world: p.world, latitudes: table) else { return }
                if let ground = p.ground {
                    // Pitched: screen pixels back to the flat screen in perspective, then as flat.
                    guard let back = ground.homography.inverted() else { return }
                    warp.projective = back.then(warp.inverse)
                }
                if p.isGlobe {
                    warp.sphere = p.unprojection
                    warp.sphere?.wrapFrom = quadMinX + Double(copy)
                }
                rasterizer.ground = p.ground; rasterizer.sphere = p.sphere
                rasterizer.moveTo(pts.0); rasterizer.lineTo(pts.1); rasterizer.lineTo(pts.2); rasterizer.lineTo(pts.3); rasterizer.close()
                rasterizer.ground = nil; rasterizer.sphere = nil
                var blitter = MappedImageBlitter(destination: t.pixmap, image: image, previous: draw.previous, fade: draw.fade,
                                                 warp: warp, sampling: sampling, opacity: paint.opacity,
                                                 light: (draw.light.r, draw.light.g, draw.light.b), adjustment: adjustment)
                // (On the globe, where MapLibre's mipmaps show: towards the edge and the poles.)
                if p.isGlobe && mipmapped && sampling == .bilinear && Self.isPowerOfTwo(image) {
                    blitter.mips = mipChain(image)
                    blitter.mesh = .rasterTiles(side: quadMaxX - quadMinX)
                }
                rasterizer.fill(t.pixmap, with: blitter, aliased: draw.aliased)
            }
        }
    }
}

/// Values made from images, kept for the images drawn lately (images never change once
/// decoded): up to `capacity`, then all dropped at once. Each entry keeps its image, so its key
/// (the image's identity) stays its own.
struct ImageDerivedCache<Value> {
    private var entries: [ObjectIdentifier: (image: any RasterTexture, value: Value)] = [:]
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    mutating func value(_ image: any RasterTexture, _ make: (any RasterTexture) -> Value) -> Value {
        let key = ObjectIdentifier(image)
        if let e = entries[key] { return e.value }
        if entries.count >= capacity { entries.removeAll() }
        let v = make(image)
        entries[key] = (image, v)
        return v
    }
}
