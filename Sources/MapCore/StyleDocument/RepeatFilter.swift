import Foundation

/// MapLibre's same-text repeat distance (`anchorIsTooClose`): within one tile of one symbol
/// layer, an anchor of a label whose text was already placed closer than the repeat distance
/// (half the symbol spacing) is dropped, so that a road cut into many features is not labelled
/// at every piece. Distances are in tile units, between the rounded anchors, as MapLibre measures
/// them; only anchors that were kept count against later ones. Feed it a layer's anchors in
/// layout order (feature by feature, then along each line), and only for labels with text:
/// MapLibre lets icon-only symbols repeat.
public struct RepeatFilter: Sendable {
    private struct Key: Hashable { let tile: TileID, text: String }
    private var kept: [Key: [(x: Double, y: Double)]] = [:]

    public init() {}

    /// The repeat distance in tile units for a symbol-spacing in CSS pixels: half the spacing,
    /// times the tile pixel ratio 8192 / (512 x overscaling).
    public static func repeatDistance(spacing: Double, overscaling: Double) -> Double {
        LineAnchors.tileExtent / (512 * overscaling) * spacing / 2
    }

    /// Whether the anchor is kept: false when an anchor with the same text already kept in its
    /// tile lies closer than `repeatDistance` (tile units); a kept anchor is remembered.
    public mutating func admit(_ anchor: TiledAnchor, text: String, repeatDistance: Double) -> Bool {
        admit(x: anchor.tileX, y: anchor.tileY, tile: anchor.tile, text: text, repeatDistance: repeatDistance)
    }

    /// The same for an anchor given by its place in its tile (tile units).
    public mutating func admit(x: Double, y: Double, tile: TileID, text: String, repeatDistance: Double) -> Bool {
        let key = Key(tile: tile, text: text)
        let others = kept[key, default: []]
        // Newest first, as MapLibre looks: a near anchor is usually a recent one.
        for other in others.reversed() where hypot(x - other.x, y - other.y) < repeatDistance { return false }
        kept[key, default: []].append((x, y))
        return true
    }
}
