import MapCore
import Raster
import Testing

/// Sources are one type by kind: the style answers for each kind by id, ids are unique across
/// kinds, and an image source's frames carry an optional valid time each.
@Suite struct SourceTests {
    static let corners = ImageCorners(topLeft: LngLat(lng: -80, lat: 46), topRight: LngLat(lng: -71, lat: 46),
                                      bottomRight: LngLat(lng: -71, lat: 38), bottomLeft: LngLat(lng: -80, lat: 38))

    @Test func theStyleAnswersForEachKindByID() {
        let image = ImageSource(corners: Self.corners, placement: .linear, frames: [Pixmap(width: 1, height: 1)], names: ["a"])
        let tiles = TileSet(definition: TiledSourceDefinition(tiles: ["t/{z}/{x}/{y}.mvt"]), kind: .vector)
        let style = Style(sources: ["g": .geojson(GeoJSONData(features: [])), "i": .image(image), "v": .tiles(tiles)])
        #expect(style.geojson("g") != nil && style.geojson("i") == nil && style.geojson(nil) == nil)
        #expect(style.image("i") === image && style.image("g") == nil)
        #expect(style.tiles("v") === tiles && style.tiles("g") == nil && style.tiles(nil) == nil)
        #expect(style.sources.mapValues(\.typeName) == ["g": "geojson", "i": "image", "v": "vector"])
    }

    @Test func sourceIDsAreUniqueAcrossKinds() throws {
        var m = MapModel(style: Style(), size: ViewportSize(width: 8, height: 8), camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 1))
        try m.addSource("s", geojson: GeoJSONData(features: []))
        let image = ImageSource(corners: Self.corners, placement: .linear, frames: [Pixmap(width: 1, height: 1)], names: ["a"])
        #expect(throws: StyleError("sources.s: a source with this id exists")) { try m.addSource("s", image: image) }
        #expect(throws: StyleError("sources.s: no image source with this id")) { try m.updateImageSource("s", image) }
        #expect(throws: StyleError("sources.s: no image source with this id")) { try m.setImageFrame(source: "s", index: 1, at: 0) }
        #expect(throws: StyleError("layers.l.source: no source \"t\"")) { try m.addLayer(LayerDefinition(id: "l", type: .line, source: "t")) }
    }

    /// Each frame has a valid time or none; a shorter list of times leaves the rest without.
    @Test func imageFramesCarryAnOptionalValidTime() {
        let frames: [Pixmap?] = [Pixmap(width: 1, height: 1), nil, Pixmap(width: 1, height: 1)]
        let untimed = ImageSource(corners: Self.corners, placement: .linear, frames: frames, names: ["a", "b", "c"])
        #expect(untimed.times.count == 3 && untimed.times.allSatisfy { $0 == nil })
        let timed = ImageSource(corners: Self.corners, placement: .linear, frames: frames, names: ["a", "b", "c"],
                                times: [1_764_600_000, 1_764_600_300])
        #expect(timed.times == [1_764_600_000, 1_764_600_300, nil])
    }
}
