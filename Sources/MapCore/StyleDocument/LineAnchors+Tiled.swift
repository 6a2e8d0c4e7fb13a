import Foundation

/// An anchor of a label along a line, laid out in one tile as MapLibre lays it out.
public struct TiledAnchor: Equatable, Sendable {
    /// Where it is, normalised Web Mercator.
    public let point: MercatorPoint
    /// The direction of the line there, radians (atan2 of the segment, y down).
    public let angle: Double
    /// The segment of the whole line given to `LineAnchors.tiled` the anchor lies on (from point
    /// `segment` to `segment + 1`), so that glyphs can follow the line past the tile.
    public let segment: Int
    /// The tile whose layout made it.
    public let tile: TileID
    /// Where it is in the tile, in the tile's units (whole numbers, 0..<8192): what the same-text
    /// repeat distance (`RepeatFilter`) measures.
    public let tileX: Double, tileY: Double
}

extension LineAnchors {
    /// Most (tile, segment) meetings one line is cut into: a line crossing more tiles than this
    /// is laid out in the first tiles it crosses only.
    static let tileSegmentLimit = 200_000

    /// The anchors of a whole line laid out tile by tile, as MapLibre lays it out in the tiles
    /// of zoom `zoom`: the line is put in each tile's 8192-unit frame with its points rounded to
    /// whole units (as tiles store them), cut by each tile it crosses into pieces
    /// (`symbol-placement: line`), and each piece gets its tile's anchors; `line-center` gets one
    /// anchor at half the whole line's length, in the tile that holds it. Only tiles the line
    /// crosses are looked at.
    /// - Parameters:
    ///   - line: the line, normalised Web Mercator.
    ///   - zoom: the zoom of the tiles the layout is made in (the data's zoom, 0...30).
    ///   - overscaling: how many times those tiles are drawn larger than 512 px (1, 2, 4, ...).
    ///   - placementCenter: `symbol-placement: line-center` instead of `line`.
    ///   - spacing: symbol-spacing, CSS pixels.
    ///   - textWidth: the shaped text's width (right - left) in ems of 24, 0 without text.
    ///   - iconWidth: the icon's width (right - left) unscaled, not multiplied by icon-size, as
    ///     MapLibre measures the label; 0 without icon.
    ///   - hasText: whether there is text; only text is held to text-max-angle.
    ///   - textMaxSize: text-size at zoom 18 (MapLibre's textMaxSize), which sizes the label for
    ///     every zoom so that labels keep their places as the map zooms.
    ///   - maxAngle: text-max-angle, degrees.
    ///   - limit: the most anchors returned.
    ///   - centerBuffer: for `line-center`, the source's tile buffer in tile units when its
    ///     tiles are cut from the whole data as MapLibre cuts GeoJSON (its 128 px of 512: 2048):
    ///     each tile then labels the middle of its own buffered piece of the line, when that
    ///     middle lies in the tile, as MapLibre does; nil labels the middle of the whole line.
    ///   - region: only the tiles touching this part of the world are laid out (MapLibre lays
    ///     out the tiles it shows; a line crossing a continent at zoom 18 crosses thousands).
    /// - Returns: the anchors tile by tile, in the order the line first enters each tile, and in
    ///   a tile piece by piece along the line, as MapLibre makes them.
    public static func tiled(_ line: [MercatorPoint], zoom: Int, overscaling: Double, placementCenter: Bool,
                             spacing: Double, textWidth: Double, iconWidth: Double, hasText: Bool,
                             textMaxSize: Double, maxAngle: Double, limit: Int = anchorLimit,
                             centerBuffer: Double? = nil, region: MercatorBox? = nil) -> [TiledAnchor] {
        guard (0...30).contains(zoom), line.count >= 2, limit > 0 else { return [] }
        let extent = tileExtent
        let tiles = Double(1 << zoom)
        // The line in the units of the zoom's tiles, rounded, without the points rounding merged.
        var points: [(x: Double, y: Double)] = []
        var origins: [Int] = []   // for each segment of `points`, the segment of `line` it stands for
        points.reserveCapacity(line.count)
        for (i, p) in line.enumerated() {
            let q = (x: roundedHalfUp(p.x * tiles * extent), y: roundedHalfUp(p.y * tiles * extent))
            guard q.x.isFinite, q.y.isFinite else { return [] }
            if let last = points.last, last == q { continue }
            if !points.isEmpty { origins.append(i - 1) }
            points.append(q)
        }
        guard points.count >= 2 else { return [] }
        let tilePixelRatio = extent / (512 * overscaling)
        let boxScale = tilePixelRatio * textMaxSize / glyphSize
        let labelLength = max(textWidth, iconWidth)
        // The tiles of the region, in the zoom's columns and rows (all without one).
        var bounds = (x0: 0, y0: 0, x1: Int(tiles) - 1, y1: Int(tiles) - 1)
        if let r = region, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite {
            func cell(_ v: Double) -> Int { Int(min(max((v * tiles).rounded(.down), 0), tiles - 1)) }
            bounds = (cell(r.minX), cell(r.minY), cell(r.maxX), cell(r.maxY))
        }
        let radians = maxAngle / 180 * .pi
        func anchor(_ a: Anchor, _ tile: (x: Int, y: Int), _ segmentOf: (Int) -> Int) -> TiledAnchor? {
            guard let id = TileID(z: zoom, x: tile.x, y: tile.y) else { return nil }
            let x = Double(tile.x) * extent + a.x, y = Double(tile.y) * extent + a.y
            return TiledAnchor(point: MercatorPoint(x: x / (tiles * extent), y: y / (tiles * extent)), angle: a.angle,
                               segment: origins[segmentOf(a.segment)], tile: id, tileX: a.x, tileY: a.y)
        }

        if placementCenter, let buffer = centerBuffer {
            var out: [TiledAnchor] = []
            for (tile, segments) in tileSegments(points, tiles: Int(tiles), extent: extent, margin: buffer + 1, within: bounds) {
                let origin = (x: Double(tile.x) * extent, y: Double(tile.y) * extent)
                for piece in LineClip.clip(points, segments: segments, origin: origin, extent: extent, buffer: buffer) {
                    guard let c = centerAnchor(piece.points, maxAngle: radians, labelLength: labelLength, boxScale: boxScale, hasText: hasText),
                          c.x >= 0, c.x < extent, c.y >= 0, c.y < extent,
                          let t = anchor(c, tile, { piece.segments[$0] }) else { continue }
                    out.append(t)
                    if out.count >= limit { return out }
                }
            }
            return out
        }
        if placementCenter {
            // The middle of the whole line, in the tile that holds it, checked in that tile's frame.
            let center = centerAnchor(points, maxAngle: radians, labelLength: labelLength, boxScale: boxScale, hasText: hasText)
            guard let center else { return [] }
            let tile = (x: Int((center.x / extent).rounded(.down).clamped(-1, tiles)),
                        y: Int((center.y / extent).rounded(.down).clamped(-1, tiles)))
            let local = Anchor(x: center.x - Double(tile.x) * extent, y: center.y - Double(tile.y) * extent,
                               angle: center.angle, segment: center.segment)
            return anchor(local, tile, { $0 }).map { [$0] } ?? []
        }

        var out: [TiledAnchor] = []
        for (tile, segments) in tileSegments(points, tiles: Int(tiles), extent: extent, within: bounds) {
            let origin = (x: Double(tile.x) * extent, y: Double(tile.y) * extent)
            for piece in LineClip.clip(points, segments: segments, origin: origin, extent: extent) {
                let anchors = self.anchors(piece.points, spacing: tilePixelRatio * spacing, maxAngle: radians,
                                           labelLength: labelLength, boxScale: boxScale, overscaling: overscaling,
                                           tileExtent: extent, hasText: hasText)
                for a in anchors {
                    guard let t = anchor(a, tile, { piece.segments[$0] }) else { continue }
                    out.append(t)
                    if out.count >= limit { return out }
                }
            }
        }
        return out
    }

    /// For each tile of the zoom a segment of `line` (in the zoom's tile units) may touch, the
    /// segments that may: a column at a time along each segment, with a unit to spare on every
    /// side for the clipping's rounding (the clipping then decides). Tiles in the order the line
    /// first reaches them; at most `tileSegmentLimit` meetings.
    static func tileSegments(_ line: [(x: Double, y: Double)], tiles: Int, extent: Double, margin: Double = 1,
                             within bounds: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil)
        -> [(tile: (x: Int, y: Int), segments: [Int])] {
        let area = bounds ?? (0, 0, tiles - 1, tiles - 1)
        struct Key: Hashable { let x: Int, y: Int }
        var order: [Key] = []
        var lists: [Key: [Int]] = [:]
        var meetings = 0
        let size = Double(tiles) * extent
        /// The tile row or column holding `v`, held within the zoom (the clamp also keeps huge
        /// values from overflowing Int).
        func cell(_ v: Double) -> Int { Int((v / extent).rounded(.down).clamped(0, Double(tiles - 1))) }
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let minX = min(a.x, b.x), maxX = max(a.x, b.x), minY = min(a.y, b.y), maxY = max(a.y, b.y)
            guard maxX >= -margin, minX <= size + margin, maxY >= -margin, minY <= size + margin else { continue }
            let firstColumn = max(cell(minX - margin), area.x0), lastColumn = min(cell(maxX + margin), area.x1)
            guard firstColumn <= lastColumn else { continue }
            for column in firstColumn...lastColumn {
                // The segment's rows within the column (and the margin either side).
                let left = max(minX, Double(column) * extent - margin), right = min(maxX, Double(column + 1) * extent + margin)
                guard left <= right else { continue }
                var low = minY, high = maxY
                if a.x != b.x {
                    let y0 = a.y + (b.y - a.y) * ((left - a.x) / (b.x - a.x))
                    let y1 = a.y + (b.y - a.y) * ((right - a.x) / (b.x - a.x))
                    low = max(minY, min(y0, y1)); high = min(maxY, max(y0, y1))
                    guard low <= high else { continue }
                }
                let firstRow = max(cell(low - margin), area.y0), lastRow = min(cell(high + margin), area.y1)
                guard firstRow <= lastRow else { continue }
                for row in firstRow...lastRow {
                    let key = Key(x: column, y: row)
                    if lists[key] == nil { order.append(key) }
                    lists[key, default: []].append(i)
                    meetings += 1
                    if meetings >= tileSegmentLimit { return order.map { ((x: $0.x, y: $0.y), lists[$0] ?? []) } }
                }
            }
        }
        return order.map { ((x: $0.x, y: $0.y), lists[$0] ?? []) }
    }
}

private extension Double {
    /// Held within low...high; NaN gives low.
    func clamped(_ low: Double, _ high: Double) -> Double { isNaN ? low : Swift.min(Swift.max(self, low), high) }
}
