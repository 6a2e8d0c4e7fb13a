import Foundation
import Raster

extension Style {
    /// The mesh MapLibre drapes the ground on under the style's terrain, at style zoom `zoom`: 128
    /// squares a terrain tile (`getTerrainMesh`), the terrain's tiles twice its raster-dem
    /// source's size (`deltaZoom` 1), so at zoom floor(zoom + log2(512 / (2 x tileSize))). Nil
    /// without a terrain or when its source is not a raster-dem source: the layers' own meshes.
    public func terrainMesh(zoom: Double) -> SurfaceMesh? {
        guard let id = terrainSource, let set = tiles(id), set.definition.dem != nil else { return nil }
        let z = zoom + log2(512 / (2 * Double(max(set.definition.tileSize, 1))))
        guard z.isFinite else { return nil }
        return .terrain(tileZoom: Int(min(max(z.rounded(.down), 0), 22)))
    }
}
