import Foundation

/// Where symbols go along one line of one tile (`symbol-placement: line` and `line-center`), as
/// MapLibre GL JS lays them out (`getAnchors`, `resample`, `getCenterAnchor`): every length is in
/// the tile's units (8192 across a tile), the line is the part of a feature clipped to the tile,
/// and an anchor is kept only inside the tile, with room for the label on both sides and a line
/// not too bent under it (`LineAnchors.fitsMaxAngle`). `LineAnchors.tiled` cuts a whole line by
/// the tiles of a zoom and lays out each tile's pieces with these.
public enum LineAnchors {
    public struct Anchor: Equatable, Sendable {
        public let x: Double, y: Double
        /// The direction of the line there, radians (atan2 of the segment, y down).
        public let angle: Double
        /// The segment of the line the anchor lies on (from point `segment` to `segment + 1`).
        public let segment: Int
    }

    /// MapLibre's glyph size: the em of the shaped text, in which `labelLength` is measured.
    public static let glyphSize = 24.0
    /// The width of a tile in its own units (MapLibre's EXTENT).
    public static let tileExtent = 8192.0
    /// No line gives more anchors than this: the walk along it ends there.
    public static let anchorLimit = 10_000
    /// Nor does one walk take more steps than this (a spacing tiny against the line's length).
    static let stepLimit = 1_000_000

    /// The anchors along one line of a tile (MapLibre's `getAnchors`).
    /// - Parameters:
    ///   - line: the line in tile units, already clipped to the tile.
    ///   - spacing: the distance between anchors, tile units (symbol-spacing x tile pixel ratio).
    ///   - maxAngle: text-max-angle, radians: the most the line may turn within a window of the label.
    ///   - labelLength: the longer of the shaped text's width and the icon's width, unscaled (ems of
    ///     24; the icon not multiplied by icon-size, as MapLibre measures it).
    ///   - boxScale: tile pixel ratio x text-size at zoom 18 / 24 (MapLibre's textMaxBoxScale).
    ///   - overscaling: how many times the tile is drawn larger than its data's zoom (1, 2, 4, ...).
    ///   - hasText: only labels with text are held to the max-angle check.
    public static func anchors(_ line: [(x: Double, y: Double)], spacing: Double, maxAngle: Double,
                               labelLength: Double, glyphSize: Double = glyphSize, boxScale: Double,
                               overscaling: Double, tileExtent: Double = tileExtent, hasText: Bool) -> [Anchor] {
        guard line.count >= 2 else { return [] }
        let first = line[0]
        // A line that starts on the tile's edge goes on in the next tile: its anchors keep to the
        // rhythm of the spacing instead of starting a label's length from its start.
        let continued = first.x == 0 || first.x == tileExtent || first.y == 0 || first.y == tileExtent
        let offset = firstOffset(continued: continued, spacing: spacing, labelLength: labelLength,
                                 glyphSize: glyphSize, boxScale: boxScale, overscaling: overscaling)
        return resample(line, offset: offset, spacing: widened(spacing, label: labelLength * boxScale),
                        window: hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0, maxAngle: maxAngle,
                        label: labelLength * boxScale, continued: continued, extent: tileExtent)
    }

    /// The one anchor of `symbol-placement: line-center`: half way along the line (MapLibre's
    /// `getCenterAnchor`), nil when the line has no length or bends too much under the label. It
    /// is not held to the tile: the caller keeps it only inside its tile.
    public static func centerAnchor(_ line: [(x: Double, y: Double)], maxAngle: Double, labelLength: Double,
                                    glyphSize: Double = glyphSize, boxScale: Double, hasText: Bool) -> Anchor? {
        guard line.count >= 2 else { return nil }
        let center = length(line) / 2
        var distance = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let d = hypot(b.x - a.x, b.y - a.y)
            if distance + d > center {
                let t = (center - distance) / d
                let anchor = Anchor(x: roundedHalfUp(a.x + (b.x - a.x) * t), y: roundedHalfUp(a.y + (b.y - a.y) * t),
                                    angle: atan2(b.y - a.y, b.x - a.x), segment: i)
                let window = hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0
                guard window == 0 || fitsMaxAngle(line, anchor, labelLength: labelLength * boxScale,
                                                  window: window, maxAngle: maxAngle) else { return nil }
                return anchor
            }
            distance += d
        }
        return nil
    }

    /// Where the walk puts its first anchor. A line that starts in the tile: half the label plus
    /// two ems from its start (clear of the T junction where it likely starts), times the
    /// overscaling so that the anchors of an overscaled tile fall where its parent's did; a
    /// continued line: half a spacing, likewise. Either taken modulo the spacing (JavaScript's `%`,
    /// which keeps the dividend's sign), with the spacing before it is widened for long labels.
    static func firstOffset(continued: Bool, spacing: Double, labelLength: Double, glyphSize: Double,
                            boxScale: Double, overscaling: Double) -> Double {
        let widenedSpacing = widened(spacing, label: labelLength * boxScale)
        return continued ? (widenedSpacing / 2 * overscaling).truncatingRemainder(dividingBy: widenedSpacing)
            : ((labelLength / 2 + glyphSize * 2) * boxScale * overscaling).truncatingRemainder(dividingBy: widenedSpacing)
    }

    /// A label long against the spacing gets a spacing that leaves a quarter of it between labels.
    static func widened(_ spacing: Double, label: Double) -> Double {
        spacing - label < spacing / 4 ? label + spacing / 4 : spacing
    }

    /// Walks along the line putting an anchor every `spacing` from `offset` (MapLibre's
    /// `resample`). Each is kept if it lies in the tile (`extent` units square), has half the
    /// label's length of line on either side and passes the max-angle check; anchors are rounded to
    /// whole units as MapLibre stores them. A line that starts in the tile and gets no
    /// anchor is tried once more with one anchor at its middle, which a short line in an
    /// overscaled tile needs: its offset aligns with the parent tile's anchors, not with its start.
    static func resample(_ line: [(x: Double, y: Double)], offset: Double, spacing: Double, window: Double,
                         maxAngle: Double, label: Double, continued: Bool, atMiddle: Bool = false,
                         extent: Double) -> [Anchor] {
        let total = length(line)
        var anchors: [Anchor] = []
        var distance = 0.0
        var marked = offset - spacing
        var steps = 0
        walk: for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let d = hypot(b.x - a.x, b.y - a.y)
            let angle = atan2(b.y - a.y, b.x - a.x)
            while marked + spacing < distance + d {
                // A spacing below the precision of `marked` (far along a long line, or zero) could
                // not move the walk on; nor may one walk take forever.
                steps += 1
                guard marked + spacing > marked, steps <= stepLimit else { break walk }
                marked += spacing
                let t = (marked - distance) / d
                let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
                guard x >= 0, x < extent, y >= 0, y < extent, marked - label / 2 >= 0, marked + label / 2 <= total else { continue }
                let anchor = Anchor(x: roundedHalfUp(x), y: roundedHalfUp(y), angle: angle, segment: i)
                if window == 0 || fitsMaxAngle(line, anchor, labelLength: label, window: window, maxAngle: maxAngle) {
                    anchors.append(anchor)
                    if anchors.count > anchorLimit { break walk }
                }
            }
            distance += d
        }
        if !atMiddle && anchors.isEmpty && !continued {
            return resample(line, offset: distance / 2, spacing: spacing, window: window, maxAngle: maxAngle,
                            label: label, continued: continued, atMiddle: true, extent: extent)
        }
        return anchors
    }

    static func length(_ line: [(x: Double, y: Double)]) -> Double {
        var d = 0.0
        for i in 0..<(line.count - 1) { d += hypot(line[i + 1].x - line[i].x, line[i + 1].y - line[i].y) }
        return d
    }

    /// JavaScript's `Math.round`: halves go up (-2.5 to -2), as MapLibre rounds anchors and clipped
    /// points to whole tile units.
    static func roundedHalfUp(_ v: Double) -> Double {
        let down = v.rounded(.down)
        return v - down >= 0.5 ? down + 1 : down
    }
}
