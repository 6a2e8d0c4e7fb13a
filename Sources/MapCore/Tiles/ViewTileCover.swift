import Foundation

/// How a view in perspective chooses its tiles: the pitched flat map (`GroundCover`) and the globe
/// (`GlobeCover`), each as MapLibre's `coveringTiles` does for it. An unpitched flat view needs
/// none: the tiles of its visible box at one zoom are exact (`TileCover`).
public protocol ViewTileCover: Sendable {
    /// The tiles of a source whose tiles are `tileSize` pixels wide, for the view at style zoom
    /// `zoom`: at most `maxZoom` (deeper views overzoom those), none below `minZoom`, within
    /// `bounds`, at most `TileCover.limit`, nearest the centre first. `round`: the wanted zoom
    /// rounds (rasters) instead of flooring.
    func tiles(zoom: Double, tileSize: Double, round: Bool, minZoom: Int, maxZoom: Int, bounds: LngLatBounds) -> [TileID]
}

extension ViewTransform {
    /// The tile choice this view needs beyond its visible box: the globe's while any of it shows,
    /// the pitched ground's, or none.
    public var tileCover: (any ViewTileCover)? {
        if let globe { return GlobeCover(globe) }
        return GroundCover(self)
    }
}
